/**
 * /alarm/export?<the alarm screen's search> — the filtered alarm list as CSV: UTF-8 with a BOM (so Excel shows
 * Hangul), one row per alarm over every page of GET /api/alarm (up to EXPORT_MAX_ROWS), cells that a spreadsheet
 * would read as a formula (= + - @, tab, CR) escaped with a leading apostrophe (csv-stringify escape_formulas).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { stringify } from "csv-stringify/sync";
import { faultBitNames } from "../../domain/alarm-message";
import { formatSeoul } from "../../domain/seoul-clock";
import type { AlarmRow } from "../../domain/contract/alarm";
import { requireSection } from "~/auth/section.server";
import { engineMessage } from "~/components/status/labels";
import { alarmMessages } from "~/i18n/alarm";
import { alarmList, faultCodes } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { readPreferences } from "~/utils/preferences.server";
import { alarmSearch, withDefaultPeriod } from "~/utils/alarm-search.server";

export const EXPORT_MAX_ROWS = 20_000;
const PAGE = 100;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "alarm");
  const url = new URL(request.url);
  const { parsed } = alarmSearch(url);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Response(`${issue?.path.join(".") || "_form"}: ${issue?.message ?? "invalid"}`, { status: 400 });
  }
  const locale = readPreferences(request).locale;
  const t = alarmMessages(locale);
  const q = withDefaultPeriod(parsed.data, Date.now());
  const rows: AlarmRow[] = [];
  let period = { start: 0, end: 0 };
  try {
    for (let page = 1; rows.length < EXPORT_MAX_ROWS; page++) {
      const res = await alarmList(accessToken, { ...q, page, size: PAGE });
      period = { start: res.start, end: res.end };
      rows.push(...res.alarmList);
      if (res.alarmList.length < PAGE || page * PAGE >= res.total) break;
    }
  } catch (error) {
    if (error instanceof ApiFailure && error.status >= 400 && error.status < 500)
      throw new Response(error.body.message, { status: error.status });
    throw error;
  }
  const table = await faultCodes(accessToken);
  const codes = new Map(table.map((c) => [c.code, c]));
  const named = table.map((f) => ({ code: f.code, name: locale === "ko" ? f.name_ko : f.name_en }));
  const faultNames = (faultCode: number) => faultBitNames(named, faultCode);
  const level = (l: number) => t.alarm.tabs[`l${l}` as "l1"] ?? String(l);
  const kind = (code: number) => {
    const key = `c${code}` as keyof typeof t.main.codes;
    return key in t.main.codes && key !== "other" ? t.main.codes[key] : String(code);
  };
  const time = (ts: number | null) => (ts === null ? "" : formatSeoul(ts, "YYYY-MM-DD HH:mm:ss"));
  const c = t.alarm.csv;
  const header = [
    c.raised,
    c.cleared,
    c.plant,
    c.device,
    c.kind,
    c.code,
    c.fault,
    c.faultName,
    c.level,
    c.state,
    c.ackBy,
    c.ackAt,
    c.note,
    c.message,
  ];
  const body = rows.slice(0, EXPORT_MAX_ROWS).map((a) => {
    const f = a.fault_code ? codes.get(a.fault_code) : undefined;
    return [
      time(a.raised_at),
      time(a.released_at),
      a.plantName,
      a.deviceName ?? (a.rtu_uid ? `RTU ${a.rtu_uid}` : t.main.plantDevice),
      kind(a.code),
      a.code,
      a.fault_code ? (f?.hex ?? a.fault_code) : "",
      f ? (locale === "ko" ? f.name_ko : f.name_en) : "",
      level(a.level),
      t.alarm.states[a.status],
      a.ack_by,
      time(a.ack_at),
      a.ack_note,
      engineMessage(t, a, faultNames) ?? "",
    ];
  });
  const csv = stringify([header, ...body], { bom: true, escape_formulas: true, record_delimiter: "\r\n" });
  const name = `alarms_${formatSeoul(period.start, "YYYY-MM-DD").replaceAll("-", "")}-${formatSeoul(period.end - 1, "YYYY-MM-DD").replaceAll("-", "")}.csv`;
  return new Response(csv, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
