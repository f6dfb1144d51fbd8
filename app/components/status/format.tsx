/** Display helpers of the status screens: quantities with their unit, Seoul times, status labels. */
import type { Quantity } from "../../../domain/units";

/** A number and its unit, the unit styled apart (SPEC §9 units). */
export function Qty({ q, className }: { q: Quantity; className?: string }) {
  return (
    <span className={`qty ${className ?? ""}`.trim()}>
      <span className="qty-value">{q.value}</span> <span className="qty-unit">{q.unit}</span>
    </span>
  );
}

const seoulTime = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Seoul",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});
const seoulDateTime = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Asia/Seoul",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hour12: false,
});

/** 'HH:mm' in Asia/Seoul (the same on server and client, so hydration matches). */
export function seoulHm(ts: number): string {
  return seoulTime.format(new Date(ts));
}

/** 'YYYY-MM-DD HH:mm' in Asia/Seoul. */
export function seoulYmdHm(ts: number): string {
  return seoulDateTime.format(new Date(ts)).replace(",", "");
}

/** ISO string for <time dateTime>. */
export const iso = (ts: number) => new Date(ts).toISOString();

/** A <time> element showing Seoul date and time (or only the time when `short`). */
export function SeoulTime({ ts, short }: { ts: number; short?: boolean }) {
  return <time dateTime={iso(ts)}>{short ? seoulHm(ts) : seoulYmdHm(ts)}</time>;
}
