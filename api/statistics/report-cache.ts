/**
 * Answers of repeated statistics report calls (issue 16: a year's report asked again by twenty people, a
 * reloaded or printed page, the pager going back). An answer is kept as its JSON bytes under a key of
 * everything it was computed from but the stored readings — the report kind, the normalised query (the period
 * snapped to its steps, unit, daylight, window of rows), the member's resolved scope (which plants and devices
 * with their names, ratings and places, the RTUs' configuration: so a device, plant, group or rating edit, or a
 * change of what the member may see, is a different key), the member's service bits, and for a period that
 * reaches the present the current 10-minute step (expected readings grow with time).
 *
 * The readings are the one input not in the key: an answer is dropped as soon as data it read changes — a
 * change names its devices (or any) and time range, and every kept answer over one of those devices whose
 * period overlaps the range goes. Changes come from ingest (live and late data alike), from bulk rollup
 * rebuilds, history copies and retention (api/store/data-changes.ts), and from the other servers of a cluster
 * (PostgreSQL notices on a channel of their own). The keeping, the cluster notices and the bounds are those of
 * every answer cache (api/cache/answer-cache.ts); what is particular here is what a change touches.
 */
import type { DataChange } from "../store/data-changes";
import type { JsonText } from "../http";
import { AnswerCache, type ChangeRules } from "../cache/answer-cache";

export type { ClusterNotices } from "../cache/answer-cache";

export const REPORT_CHANNEL = "solar_report_data";
/** A change naming more devices than this is sent as "any device" (a notice's payload is at most 8,000 bytes). */
const MAX_NOTICE_DEVICES = 200;

/** What a report read: its devices' readings over [from, to). */
interface ReportTag {
  devices: ReadonlySet<string>;
  from: number;
  to: number;
}

const reportRules: ChangeRules<DataChange, ReportTag> = {
  channel: REPORT_CHANNEL,
  everything: { from: -Infinity, to: Infinity },
  overlaps: (e, c) => c.from < e.to && e.from < c.to && (c.devices === undefined || c.devices.some((d) => e.devices.has(d))),
  merge(a, b) {
    const devices =
      a.devices && b.devices && a.devices.length + b.devices.length <= MAX_NOTICE_DEVICES
        ? [...new Set([...a.devices, ...b.devices])]
        : undefined;
    return { ...(devices ? { devices } : {}), from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) };
  },
  // JSON has no infinities: an open end travels as null.
  toNotice: (c) => ({
    ...(c.devices && c.devices.length <= MAX_NOTICE_DEVICES ? { d: c.devices } : {}),
    f: Number.isFinite(c.from) ? c.from : null,
    t: Number.isFinite(c.to) ? c.to : null,
  }),
  fromNotice: (m) => ({
    ...(Array.isArray(m.d) ? { devices: m.d.map(String) } : {}),
    from: typeof m.f === "number" ? m.f : -Infinity,
    to: typeof m.t === "number" ? m.t : Infinity,
  }),
  tagBytes: (e) => 64 * e.devices.size,
};

export class ReportCache extends AnswerCache<DataChange, ReportTag> {
  constructor(opts: { maxBytes: number; ttlMs: number }) {
    super(reportRules, opts);
  }

  /** Keeps a report computed since `since` (from `begin`) unless a change it read came meanwhile. */
  put(key: string, since: number, entry: ReportTag & { text: JsonText }): void {
    this.keep(key, since, entry.text, { devices: entry.devices, from: entry.from, to: entry.to });
  }
}
