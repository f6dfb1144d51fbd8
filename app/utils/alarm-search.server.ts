/**
 * The alarm screen's search params (/alarm and /alarm/export share them) through the API's own schema:
 * empty form fields mean "not set", and a group picked in the form means the group scope (isGroup=1).
 */
import { AlarmListQuerySchema } from "../../domain/contract/alarm";
import { formatSeoul } from "../../domain/seoul-time";
import { formObject } from "./form-action.server";

export function alarmSearch(url: URL) {
  const raw = formObject(url.searchParams);
  if (raw.group !== undefined && raw.group !== "" && raw.isGroup === undefined) raw.isGroup = "1";
  for (const k of ["group", "plant", "device", "code", "status", "start", "end"]) if (raw[k] === "") delete raw[k];
  return { raw, parsed: AlarmListQuerySchema.safeParse(raw) };
}

/** The period asked of the API: today (Seoul) when neither end is given. */
export function withDefaultPeriod<T extends { start?: string; end?: string }>(q: T, now: number): T {
  const today = formatSeoul(now, "YYYY-MM-DD");
  return { ...q, start: q.start ?? (q.end ? undefined : today), end: q.end ?? (q.start ? undefined : today) };
}
