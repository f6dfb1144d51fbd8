/** Status counts (SPEC §3) as links to the plant status screen filtered to that status. */
import { AppLink } from "~/components/AppLink";
import { STATUS_CATEGORIES, WARNING_KINDS, type StatusCategory, type StatusCounts as Counts } from "../../../domain/status";
import { useT } from "~/i18n";

const ROWS: Array<{ key: StatusCategory; count: keyof Counts; tone: string }> = [
  { key: "normal", count: "normalCount", tone: "ok" },
  { key: "warning", count: "warningCount", tone: "warn" },
  { key: "warning_1000003", count: "warning_1000003_Count", tone: "warn" },
  { key: "warning_1000001", count: "warning_1000001_Count", tone: "warn" },
  { key: "warning_1000006", count: "warning_1000006_Count", tone: "warn" },
  { key: "warning_1000004", count: "warning_1000004_Count", tone: "warn" },
  { key: "notWork", count: "notWorkCount", tone: "off" },
];

/**
 * /pvstatus with only this status switched on: its `hide` parameter lists the categories switched off
 * (app/components/plant-cards/url-state.ts). The status filter shows a plant when all of its categories
 * are on, so a warning kind also keeps the 'warning' umbrella on, and 'warning' keeps every kind on.
 */
export function pvstatusFilterHref(key: StatusCategory): string {
  const on: StatusCategory[] =
    key === "warning" ? ["warning", ...WARNING_KINDS] : key.startsWith("warning_") ? ["warning", key] : [key];
  return `/pvstatus?hide=${STATUS_CATEGORIES.filter((c) => !on.includes(c)).join(",")}`;
}

export function StatusCounts({ counts }: { counts: Counts | null }) {
  const t = useT();
  if (!counts) return null;
  return (
    <section className="status-panel" aria-labelledby="counts-title">
      <h2 id="counts-title">{t.main.statusTitle}</h2>
      <p className="muted small">{t.main.statusHint}</p>
      <ul className="count-list">
        {ROWS.map((r) => (
          <li key={r.key} className={`count-${r.tone}${r.key.startsWith("warning_") ? " count-sub" : ""}`}>
            <AppLink to={pvstatusFilterHref(r.key)}>
              <span className="count-label">{t.main.status[r.key as keyof typeof t.main.status]}</span>
              <span className="count-value">{counts[r.count]}</span>
            </AppLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
