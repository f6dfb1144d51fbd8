/**
 * The one ingest path every reading takes — HTTP, MQTT and the fleet simulator alike.
 * A batch is validated reading by reading; the good ones are written in one transaction
 * (measurements, latest values, RTU last-seen, rollups) and only then acknowledged.
 * (device, ts) is the key: a reading sent twice is stored once.
 */
import type { Clock } from "../clock";
import type { Store } from "../store/db";
import { createTelemetryWriter, type TelemetryWriter, type WriteOptions } from "./writer";
import { validateReading, type DeviceInfo, type RawReading, type Rejection, type ValidReading } from "./readings";

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: Rejection[];
}

export interface IngestListener {
  /** `plants`: the plants the batch's accepted readings belong to (what changed, for work per change). */
  (event: { rtuUid: string; accepted: ValidReading[]; plants: readonly string[]; now: number }): void;
}

/** Chunk size of device look-ups (SQLite allows 32,766 bound parameters per statement). */
const INSERT_CHUNK = 500;

export class IngestService {
  private listeners: IngestListener[] = [];
  private writer: TelemetryWriter;
  constructor(
    private store: Store,
    private clock: Clock,
  ) {
    this.writer = createTelemetryWriter(store);
  }

  onIngest(listener: IngestListener): void {
    this.listeners.push(listener);
  }

  async ingest(rtuUid: string, readings: RawReading[], opts: WriteOptions = {}): Promise<IngestResult> {
    const now = this.clock.now();
    const devices = await this.devicesOf(readings);
    const rejected: Rejection[] = [];
    const valid: ValidReading[] = [];
    const seen = new Set<string>();
    readings.forEach((raw, index) => {
      const v = validateReading(raw, index, rtuUid, devices, now);
      if ("reason" in v) return void rejected.push(v);
      const key = `${v.device.uid}@${v.ts}`;
      if (seen.has(key)) return void rejected.push({ index, device: v.device.uid, ts: v.ts, reason: "duplicate_in_batch" });
      seen.add(key);
      valid.push(v);
    });

    const inserted = valid.length ? await this.writer.write(rtuUid, valid, now, opts) : 0;
    // Late duplicates from an earlier batch are not errors: the reading is already safe.
    const duplicates = valid.length - inserted;
    // A bulk replay (deferred rollups) is not "now": listeners such as the alarm engine wait for its end.
    if (valid.length && !opts.deferRollups) {
      const plants = [...new Set(valid.map((v) => v.device.plant_uid).filter((p): p is string => !!p))];
      for (const l of this.listeners) l({ rtuUid, accepted: valid, plants, now });
    }
    return { accepted: inserted, duplicates, rejected };
  }

  private async devicesOf(readings: RawReading[]): Promise<Map<string, DeviceInfo>> {
    const uids = [
      ...new Set(readings.map((r) => (typeof r?.device === "string" ? r.device : null)).filter((u): u is string => !!u)),
    ];
    const map = new Map<string, DeviceInfo>();
    for (let i = 0; i < uids.length; i += INSERT_CHUNK) {
      const rows = await this.store.db
        .selectFrom("device")
        .select(["uid", "kind", "rtu_uid", "plant_uid", "capa"])
        .where("uid", "in", uids.slice(i, i + INSERT_CHUNK))
        .where("use_yn", "=", 1)
        .execute();
      for (const r of rows) map.set(r.uid, r);
    }
    return map;
  }
}
