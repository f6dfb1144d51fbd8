/** Display helpers of the status screens: quantities with their unit, Seoul times, status labels. */
import { formatSeoul } from "../../../domain/seoul-clock";
import type { Quantity } from "../../../domain/units";

/** A number and its unit, the unit styled apart (SPEC §9 units). */
export function Qty({ q, className }: { q: Quantity; className?: string }) {
  return (
    <span className={`qty ${className ?? ""}`.trim()}>
      <span className="qty-value">{q.value}</span> <span className="qty-unit">{q.unit}</span>
    </span>
  );
}

/** 'HH:mm' in Asia/Seoul (domain/seoul-time.ts: the fixed offset, the same text on server and client). */
export const seoulHm = (ts: number): string => formatSeoul(ts, "HH:mm");

/** 'YYYY-MM-DD HH:mm' in Asia/Seoul. */
export const seoulYmdHm = (ts: number): string => formatSeoul(ts, "YYYY-MM-DD HH:mm");

/**
 * A loader's "as of" time, to the minute it is shown in (seoulYmdHm): the same data asked again within the minute
 * is the same answer, so a poll of it ends in a 304 (entry.server.tsx handleDataRequest).
 */
export const shownMinute = (ts: number): number => Math.floor(ts / 60_000) * 60_000;

/** ISO string for <time dateTime>. */
export const iso = (ts: number) => new Date(ts).toISOString();

/** A <time> element showing Seoul date and time (or only the time when `short`). */
export function SeoulTime({ ts, short }: { ts: number; short?: boolean }) {
  return <time dateTime={iso(ts)}>{short ? seoulHm(ts) : seoulYmdHm(ts)}</time>;
}
