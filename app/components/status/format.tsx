/** Display helpers of the status screens: quantities with their unit, Seoul times, status labels. */
import { SEOUL_OFFSET_MS } from "../../../domain/seoul-time";
import type { Quantity } from "../../../domain/units";

/** A number and its unit, the unit styled apart (SPEC §9 units). */
export function Qty({ q, className }: { q: Quantity; className?: string }) {
  return (
    <span className={`qty ${className ?? ""}`.trim()}>
      <span className="qty-value">{q.value}</span> <span className="qty-unit">{q.unit}</span>
    </span>
  );
}

/**
 * Seoul wall time by the fixed UTC+9 offset (Korea has kept it since 1988), not Intl: with `hour12: false` one
 * ICU writes the first hour after midnight as "24:05" and another as "00:05", so Node and Chromium rendered the
 * same time differently between 00:00 and 01:00 KST and React threw the server's markup away (hydration failure
 * on every screen that shows a time, found by the quality spec shortly after Seoul midnight).
 */
const seoulIso = (ts: number) => new Date(ts + SEOUL_OFFSET_MS).toISOString();

/** 'HH:mm' in Asia/Seoul (the same on server and client, so hydration matches). */
export function seoulHm(ts: number): string {
  return seoulIso(ts).slice(11, 16);
}

/** 'YYYY-MM-DD HH:mm' in Asia/Seoul. */
export function seoulYmdHm(ts: number): string {
  const s = seoulIso(ts);
  return `${s.slice(0, 10)} ${s.slice(11, 16)}`;
}

/** ISO string for <time dateTime>. */
export const iso = (ts: number) => new Date(ts).toISOString();

/** A <time> element showing Seoul date and time (or only the time when `short`). */
export function SeoulTime({ ts, short }: { ts: number; short?: boolean }) {
  return <time dateTime={iso(ts)}>{short ? seoulHm(ts) : seoulYmdHm(ts)}</time>;
}
