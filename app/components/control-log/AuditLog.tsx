/** The command and acknowledgement log's parts (/control/log): the verification verdict in words and the entries. */
import type { AuditRow, AuditVerifyResponse } from "../../../domain/contract/audit";
import { formatSeoul } from "../../../domain/seoul-clock";
import { fmt } from "~/i18n";
import type { AlarmCatalogue } from "~/i18n/alarm";

/** What an entry recorded, in words (also the CSV's content column). */
export function auditContent(t: AlarmCatalogue, r: Pick<AuditRow, "kind" | "detail">): string {
  const d = r.detail as Record<string, string | number | boolean | null | undefined>;
  if (r.kind === "command") return `${d.device_uid ?? ""} · ${d.action === "on" ? "ON" : "OFF"} (${d.hex ?? ""})`;
  if (r.kind === "command_result") {
    const status =
      typeof d.status === "string" && d.status in t.control.outcome ? t.control.outcome[d.status as "done"] : String(d.status);
    return [String(d.device_uid ?? ""), status, d.message ? String(d.message) : ""].filter(Boolean).join(" · ");
  }
  return [
    String(d.device_uid ?? ""),
    `${d.code ?? ""} ${fmt(t.chain.level, { level: String(d.level ?? "") })}`,
    d.note ? fmt(t.chain.note, { note: String(d.note) }) : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

export function auditRef(t: AlarmCatalogue, r: Pick<AuditRow, "kind" | "ref_seq">): string {
  if (r.ref_seq === null) return "";
  return fmt(r.kind === "alarm_ack" ? t.chain.alarmRef : t.chain.commandRef, { seq: r.ref_seq });
}

/** The verdict: a heading-level status with a mark and words, never colour alone. */
export function ChainVerdict({ t, v }: { t: AlarmCatalogue; v: AuditVerifyResponse }) {
  const time = (ts: number | null) => (ts === null ? "–" : formatSeoul(ts, "YYYY-MM-DD HH:mm:ss"));
  return (
    <section
      className={`panel chain-verdict ${v.intact ? "chain-intact" : "chain-broken"}`}
      aria-labelledby="chain-verdict-title"
    >
      <h2 id="chain-verdict-title">{t.chain.verifyTitle}</h2>
      <p role="status">
        <strong>
          <span aria-hidden="true">{v.intact ? "✔ " : "✖ "}</span>
          {v.intact
            ? fmt(t.chain.intact, { checked: v.checked })
            : fmt(t.chain.broken, {
                seq: v.broken!.seq,
                time: time(v.broken!.at),
                reason: t.chain.reasons[v.broken!.reason],
                checked: v.checked,
              })}
        </strong>{" "}
        <span className="muted small">{fmt(t.chain.verifiedAt, { time: time(v.verifiedAt) })}</span>
      </p>
    </section>
  );
}

export function AuditTable({ t, rows, total }: { t: AlarmCatalogue; rows: AuditRow[]; total: number }) {
  if (!rows.length) return <p className="muted">{t.chain.empty}</p>;
  const c = t.chain.col;
  return (
    <div className="table-wrap">
      <table className="data-table stack-on-phone command-log">
        <caption>{fmt(t.chain.caption, { total })}</caption>
        <thead>
          <tr>
            <th scope="col">{c.seq}</th>
            <th scope="col">{c.time}</th>
            <th scope="col">{c.kind}</th>
            <th scope="col">{c.plant}</th>
            <th scope="col">{c.who}</th>
            <th scope="col">{c.ref}</th>
            <th scope="col">{c.what}</th>
            <th scope="col">{c.hash}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.seq}>
              <td data-label={c.seq}>{r.seq}</td>
              <td className="nowrap" data-label={c.time}>
                {formatSeoul(r.at, "YYYY-MM-DD HH:mm:ss")}
              </td>
              <td data-label={c.kind}>{t.chain.kinds[r.kind]}</td>
              <td data-label={c.plant}>{r.plantName ?? r.plant_uid ?? "–"}</td>
              <td data-label={c.who}>{r.member_id ?? t.chain.gateway}</td>
              <td data-label={c.ref}>{auditRef(t, r)}</td>
              <td data-label={c.what}>{auditContent(t, r)}</td>
              <td data-label={c.hash}>
                <code title={r.hash}>{r.hash.slice(0, 12)}…</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
