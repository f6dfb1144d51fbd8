/**
 * Raises and releases alarms: reads what the store knows now, asks the pure rules what
 * should be open, and writes the difference in one transaction. Runs after ingest (debounced)
 * and on a timer, because silence (an RTU that stops reporting) arrives with no data at all.
 */
import { ALARM_CODE } from "../../domain/status";
import type { Clock } from "../clock";
import { sunPosition } from "../sim/solar";
import type { Store } from "../store/db";
import { getSettings } from "../store/settings";
import { alarmKey, evaluateAlarms, type DeviceView } from "./alarm-rules";

/** Where a plant without coordinates is assumed to be (the middle of South Korea). */
const KOREA_CENTRE = { lat: 36.5, lng: 127.8 };

export interface AlarmChange {
  raised: number;
  released: number;
}

export class AlarmEngine {
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private running: Promise<AlarmChange> | undefined;
  private again = false;
  private listeners: Array<(c: AlarmChange) => void> = [];

  constructor(private store: Store, private clock: Clock, private log: (m: string, e?: unknown) => void = console.error) {}

  onChange(listener: (c: AlarmChange) => void) {
    this.listeners.push(listener);
  }

  start(intervalMs: number) {
    this.timer = setInterval(() => void this.evaluateSoon(0), intervalMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
    clearTimeout(this.pending);
  }

  /** Debounced evaluation, so a burst of batches costs one pass. */
  evaluateSoon(delayMs = 250) {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.evaluate().catch((e) => this.log("alarm evaluation failed", e));
    }, delayMs);
    this.pending.unref?.();
  }

  /** One pass; concurrent callers share it, and a call during a pass schedules one more. */
  async evaluate(): Promise<AlarmChange> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.evaluateSoon(0);
      }
    });
    return this.running;
  }

  private async pass(): Promise<AlarmChange> {
    const db = this.store.db;
    const now = this.clock.now();
    const settings = (await getSettings(db)).alarm;
    const plants = await db.selectFrom("plant").select(["uid", "capa", "lat", "lng"]).execute();
    const rtus = await db
      .selectFrom("rtu")
      .select(["uid", "plant_uid", "last_seen_at"])
      .where("use_yn", "=", 1)
      .where("plant_uid", "is not", null)
      .execute();
    const devices = await db
      .selectFrom("device")
      .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select([
        "device.uid", "device.kind", "device.rtu_uid", "device.plant_uid", "device.capa",
        "device_latest.ts as latestTs", "device_latest.iw", "device_latest.fault_code", "device_latest.iis",
        "device_latest.his", "device_latest.sts",
      ])
      .where("device.use_yn", "=", 1)
      .where("device.plant_uid", "is not", null)
      .execute();
    const faultNames = (await db.selectFrom("fault_code").select(["code", "name_ko", "level"]).execute()).map((f) => ({
      code: f.code, name: f.name_ko, level: f.level,
    }));
    const open = await db.selectFrom("alarm").selectAll().where("released_at", "is", null).execute();
    const keyOf = (a: (typeof open)[number]) =>
      alarmKey(a.code, a.plant_uid, a.code === ALARM_CODE.internetDisconnected ? a.rtu_uid : a.device_uid);
    const openLowGeneration = new Set(open.filter((a) => a.code === ALARM_CODE.abnormalTodayGeneration).map(keyOf));

    const { wanted, undecided } = evaluateAlarms({
      now,
      settings,
      plants: plants.map((p) => ({
        uid: p.uid, capa: p.capa, sunElevationDeg: sunPosition(now, p.lat ?? KOREA_CENTRE.lat, p.lng ?? KOREA_CENTRE.lng).elevationDeg,
      })),
      rtus: rtus.map((r) => ({ uid: r.uid, plant_uid: r.plant_uid!, last_seen_at: r.last_seen_at })),
      devices: devices.map((d) => ({ ...d, plant_uid: d.plant_uid!, latestTs: d.latestTs ?? null }) as DeviceView),
      faultNames,
      openLowGeneration,
    });

    const openByKey = new Map(open.map((a) => [keyOf(a), a]));
    const wantedKeys = new Set(wanted.map((w) => w.key));
    const toRaise = wanted.filter((w) => !openByKey.has(w.key));
    const toRelease = open.filter((a) => !wantedKeys.has(keyOf(a)) && !undecided.has(keyOf(a)));
    if (toRaise.length || toRelease.length) {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < toRaise.length; i += 200) {
          await trx
            .insertInto("alarm")
            .values(
              toRaise.slice(i, i + 200).map((w) => ({
                plant_uid: w.plant_uid, rtu_uid: w.rtu_uid, device_uid: w.device_uid, code: w.code, level: w.level,
                fault_code: w.fault_code, message: w.message, raised_at: now, released_at: null,
              })),
            )
            // The store keeps one open alarm per condition (migration 0009): a pass racing another
            // (a server that has not yet noticed it lost the alarm engine's lease) cannot raise it twice.
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        const seqs = toRelease.map((a) => a.seq);
        for (let i = 0; i < seqs.length; i += 500) {
          await trx.updateTable("alarm").set({ released_at: now }).where("seq", "in", seqs.slice(i, i + 500)).execute();
        }
      });
    }
    const change = { raised: toRaise.length, released: toRelease.length };
    if (change.raised || change.released) for (const l of this.listeners) l(change);
    return change;
  }
}
