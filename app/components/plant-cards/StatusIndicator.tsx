/**
 * The status lamp of SPEC §2 (0/1 not, 2 normal, 3–6 abnormal), told by shape and text, not colour alone.
 * The text always shows, on every card kind (issue 13.13); `compact` only makes it smaller on small cards.
 */
import { statusIndicator, type StatusIndicator as Indicator } from "../../../domain/status";
import { useT } from "~/i18n";

export const INDICATOR_SHAPE: Record<Indicator, string> = { normal: "●", abnormal: "▲", not: "■" };

export function StatusIndicator({ status, compact = false }: { status: number; compact?: boolean }) {
  const t = useT().pvstatus;
  const ind = statusIndicator(status);
  return (
    <span className={`pv-ind pv-ind-${ind}${compact ? " pv-ind-compact" : ""}`} data-status={status}>
      <span className="pv-ind-shape" aria-hidden="true">
        {INDICATOR_SHAPE[ind]}
      </span>
      <span className="pv-ind-text">{t.indicator[ind]}</span>
    </span>
  );
}
