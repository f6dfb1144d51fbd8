/**
 * A device whose newest command no reading shows yet (domain/command-state.ts awaitingReading): said in words with
 * a mark (not by colour alone), the command's time in the hint. Shared by /control and the detail window.
 */
import { fmt, useT } from "~/i18n";
import { seoulYmdHm } from "./format";

export function AwaitingReading({ since }: { since: number }) {
  const t = useT();
  const hint = fmt(t.command.awaitingHint, { time: seoulYmdHm(since) });
  return (
    <span className="awaiting-reading" title={hint}>
      <span aria-hidden="true">◌</span> {t.command.awaiting}
      <span className="visually-hidden"> ({hint})</span>
    </span>
  );
}

/** Beside an output read before the command: which reading it is. */
export function BeforeCommand() {
  const t = useT();
  return <span className="muted small before-command"> ({t.command.beforeCommand})</span>;
}
