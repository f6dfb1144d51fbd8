/** "Generating demo history 45 %": while the demo's history is played in after a fresh start, reports are partial. */
import { fmt, useT } from "~/i18n";

export function ReplayBanner({ replay }: { replay: { percent: number } | null }) {
  const t = useT().replay;
  if (!replay) return null;
  return (
    <div className="alert info replay-banner" role="status">
      <strong>{fmt(t.banner, { percent: replay.percent })}</strong> {t.note}
      <progress max={100} value={replay.percent} aria-hidden="true" />
    </div>
  );
}
