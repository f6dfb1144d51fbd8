/**
 * /control/log/export?<the log screen's search> — the command and acknowledgement log as CSV (UTF-8 with a BOM so
 * Excel shows Hangul; formula-looking cells escaped, csv-stringify escape_formulas), every page of GET /api/audit up
 * to EXPORT_MAX_ROWS, with each entry's previous hash and hash so the chain can be checked outside the portal.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { formatSeoul } from "../../domain/seoul-clock";
import type { AuditRow } from "../../domain/contract/audit";
import { requireSection } from "~/auth/section.server";
import { auditContent, auditRef } from "~/components/control-log/AuditLog";
import { alarmMessages } from "~/i18n/alarm";
import { ApiFailure } from "~/models/api.server";
import { auditList } from "~/models/control.server";
import { auditSearch } from "~/utils/audit-search.server";
import { readPreferences } from "~/utils/preferences.server";

export const EXPORT_MAX_ROWS = 50_000;
const PAGE = 500;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "control");
  const q = auditSearch(request);
  const t = alarmMessages(readPreferences(request).locale);
  const rows: AuditRow[] = [];
  try {
    for (let page = 1; rows.length < EXPORT_MAX_ROWS; page++) {
      const res = await auditList(accessToken, {
        plant: q.plant || undefined,
        start: q.start,
        end: q.end,
        kind: q.kind || undefined,
        page,
        size: PAGE,
      });
      rows.push(...res.rows);
      if (res.rows.length < PAGE || page * PAGE >= res.total) break;
    }
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500)
      throw new Response(error.body.message, { status: error.status });
    throw error;
  }
  const c = t.chain.col;
  const header = [c.seq, c.time, c.kind, c.plant, c.who, c.ref, c.what, c.hash];
  const body = rows
    .slice(0, EXPORT_MAX_ROWS)
    .map((r) => [
      r.seq,
      formatSeoul(r.at, "YYYY-MM-DD HH:mm:ss"),
      t.chain.kinds[r.kind],
      r.plantName ?? r.plant_uid ?? "",
      r.member_id ?? t.chain.gateway,
      auditRef(t, r),
      auditContent(t, r),
      r.hash,
    ]);
  const csv = stringify([header, ...body], { bom: true, escape_formulas: true, record_delimiter: "\r\n" });
  const name = `command-log-${q.start}-${q.end}.csv`;
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
    },
  });
}
