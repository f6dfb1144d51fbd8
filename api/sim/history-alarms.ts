/**
 * The alarms of the played-in history (issue 26 point 4). While the simulator replays past days, the readings it
 * delivers are what the store knew at each past moment; this module judges them with the live engine's pure rules
 * (domain/alarm-rules.ts: evaluateAlarms, applyRaiseDelay), a plant at every replayed step, so the past gets the
 * alarms it would have had: raised and released at their real times, with their lifecycle steps (raised,
 * reactivated, cleared), reopened like the engine reopens them (REOPEN_WINDOW_MS). Nothing of the history is
 * alerted: no mail, no webhook (no outbox rows). An alarm still open when the replay meets the present is written
 * open with its real raised time, once (the store's one-open-alarm-per-condition index), and the live engine
 * carries it on from there.
 */
import type { Kysely } from "kysely";
import {
  AWAKE_IRRADIANCE,
  AWAKE_SUN_ELEVATION,
  DUSK_OUTPUT_W,
  STEP_MS,
  SUNRISE_ELEVATION_DEG,
  alarmKey,
  applyRaiseDelay,
  awakeSince,
  evaluateAlarms,
  type DeviceView,
  type FaultName,
  type RtuView,
  type WantedAlarm,
} from "../../domain/alarm-rules";
import type { AlarmSettings } from "../../domain/settings";
import { ALARM_CODE } from "../../domain/status";
import { emptySunPosition, sunPosition } from "../../domain/sun";
import { seoulDayIndex } from "../../domain/seoul-time";
import { alarmMessageColumns } from "../store/alarms";
import type { Database } from "../store/schema";
import type { RawReading } from "../telemetry/readings";
import { REOPEN_WINDOW_MS } from "../telemetry/alarm-engine";

/** Where a plant without coordinates is assumed to be (as the live engine assumes). */
const KOREA_CENTRE = { lat: 36.5, lng: 127.8 };

export type HistoryStep = "raised" | "reactivated" | "cleared";

/** One alarm of the past: its condition, its times and its lifecycle. */
export interface HistoryAlarm {
  wanted: WantedAlarm;
  raisedAt: number;
  /** null while (or if, at the replay's end) it is still open. */
  releasedAt: number | null;
  steps: Array<{ kind: HistoryStep; at: number }>;
}

interface PlantJudge {
  uid: string;
  capa: number;
  lat: number;
  lng: number;
  rtus: RtuView[];
  devices: DeviceView[];
  byUid: Map<string, DeviceView>;
  rtuByUid: Map<string, RtuView>;
  open: Map<string, HistoryAlarm>;
  /** Released, but still within the reopen window. */
  recent: Map<string, HistoryAlarm>;
  incidents: Map<string, number>;
  awake: { day: number; since: number | null };
  /** When the plant was last judged, and what it was judged on (unchangedNight). */
  judgedAt: number;
  signature: string;
}

export interface HistoryPlant {
  uid: string;
  /** Raw capacity (10 W units), as the plant row stores it. */
  capa: number;
  lat: number | null;
  lng: number | null;
  rtus: readonly string[];
  devices: ReadonlyArray<{ uid: string; kind: number; rtuUid: string; capa: number | null }>;
}

const num = (v: unknown) => (typeof v === "number" ? v : null);

export class HistoryAlarms {
  private plants = new Map<string, PlantJudge>();
  private finished: HistoryAlarm[] = [];
  private sun = emptySunPosition();
  /** Alarms raised so far, and the time spent judging, ms (for the replay's log line). */
  raised = 0;
  judgeMs = 0;

  constructor(
    private settings: AlarmSettings,
    private faultNames: FaultName[],
    /** exhaustive: judge every step, unchanged nights too (tests compare the two). */
    private options: { exhaustive?: boolean } = {},
  ) {}

  addPlant(p: HistoryPlant) {
    const devices: DeviceView[] = p.devices.map((d) => ({
      uid: d.uid,
      kind: d.kind,
      rtu_uid: d.rtuUid,
      plant_uid: p.uid,
      capa: d.capa,
      latestTs: null,
      iw: null,
      fault_code: null,
      iis: null,
      his: null,
      sts: null,
    }));
    const rtus: RtuView[] = p.rtus.map((uid) => ({ uid, plant_uid: p.uid, last_seen_at: null }));
    this.plants.set(p.uid, {
      uid: p.uid,
      capa: p.capa,
      lat: p.lat ?? KOREA_CENTRE.lat,
      lng: p.lng ?? KOREA_CENTRE.lng,
      rtus,
      devices,
      byUid: new Map(devices.map((d) => [d.uid, d])),
      rtuByUid: new Map(rtus.map((r) => [r.uid, r])),
      open: new Map(),
      recent: new Map(),
      incidents: new Map(),
      awake: { day: -1, since: null },
      judgedAt: 0,
      signature: "",
    });
  }

  /** Readings an RTU delivered at `receivedAt` (its buffer after an outage included): what the store now knows. */
  heard(plantUid: string, rtuUid: string, readings: readonly RawReading[], receivedAt: number) {
    const plant = this.plants.get(plantUid);
    if (!plant || !readings.length) return;
    for (const r of readings) {
      const d = plant.byUid.get(r.device as string);
      const ts = r.ts as number;
      if (!d || (d.latestTs !== null && ts < d.latestTs)) continue;
      const v = r.values as Record<string, unknown>;
      d.latestTs = ts;
      d.iw = num(v.iw ?? v.w);
      d.fault_code = num(v.fault_code);
      d.iis = num(v.iis);
      d.his = num(v.his);
      d.sts = num(v.sts);
    }
    const rtu = plant.rtuByUid.get(rtuUid);
    if (rtu) rtu.last_seen_at = Math.max(rtu.last_seen_at ?? 0, receivedAt);
  }

  /** Judges a plant at a past moment, as the live engine would have then. */
  judge(plantUid: string, now: number) {
    const p = this.plants.get(plantUid);
    if (!p) return;
    const started = performance.now();
    try {
      this.judgePlant(p, now);
    } finally {
      this.judgeMs += performance.now() - started;
    }
  }

  private judgePlant(p: PlantJudge, now: number) {
    const sunElevationDeg = sunPosition(now, p.lat, p.lng, this.sun).elevationDeg;
    let woke: number | null = null;
    if (sunElevationDeg >= AWAKE_SUN_ELEVATION) {
      const day = seoulDayIndex(now);
      if (p.awake.day !== day) p.awake = { day, since: awakeSince(now, p.lat, p.lng) };
      woke = p.awake.since;
    }
    if (!this.options.exhaustive && this.unchangedNight(p, now, sunElevationDeg)) return;
    const openLowGeneration = new Set<string>();
    for (const [key, a] of p.open) if (a.wanted.code === ALARM_CODE.abnormalTodayGeneration) openLowGeneration.add(key);
    const { wanted, undecided } = evaluateAlarms({
      now,
      settings: this.settings,
      plants: [{ uid: p.uid, capa: p.capa, sunElevationDeg, awakeSince: woke }],
      rtus: p.rtus,
      devices: p.devices,
      faultNames: this.faultNames,
      openLowGeneration,
    });
    const wantedKeys = new Set(wanted.map((w) => w.key));
    const delay = applyRaiseDelay(wantedKeys, new Set(p.open.keys()), p.incidents, now, this.settings.raiseDelayMinutes * 60_000);
    p.incidents = delay.incidents;
    for (const [key, a] of p.open) {
      if (wantedKeys.has(key) || undecided.has(key)) continue;
      a.releasedAt = now;
      a.steps.push({ kind: "cleared", at: now });
      p.open.delete(key);
      p.recent.set(key, a);
    }
    for (const [key, a] of p.recent) {
      if (now - a.releasedAt! <= REOPEN_WINDOW_MS) continue;
      p.recent.delete(key);
      this.finished.push(a);
    }
    for (const w of wanted) {
      if (!delay.due.has(w.key)) continue;
      const again = p.recent.get(w.key);
      if (again) {
        // A condition back soon after it cleared reopens its alarm (the engine's rule against flapping).
        p.recent.delete(w.key);
        again.releasedAt = null;
        again.wanted = w;
        again.steps.push({ kind: "reactivated", at: now });
        p.open.set(w.key, again);
        continue;
      }
      this.raised++;
      p.open.set(w.key, { wanted: w, raisedAt: now, releasedAt: null, steps: [{ kind: "raised", at: now }] });
    }
  }

  /**
   * Whether judging the plant now would say what its last judgement said: in the dark (production is not judged, no
   * device is awake), with the same devices heard in this step as in that one, with the same fault codes, and no
   * silence or raise delay run out since. Then the rules' answer is the same, and the judgement is skipped (a night
   * is more than half the steps of a replay). Any doubt judges.
   */
  private unchangedNight(p: PlantJudge, now: number, sunElevationDeg: number): boolean {
    const night = sunElevationDeg <= SUNRISE_ELEVATION_DEG;
    let signature = night ? "n" : "d";
    const deviceSilentAfter = this.settings.deviceSilentIntervals * STEP_MS;
    const rtuSilentAfter = this.settings.rtuSilentIntervals * STEP_MS;
    const last = p.judgedAt;
    let runOut = false;
    const ranOut = (deadline: number) => deadline >= last && deadline < now;
    for (const d of p.devices) {
      signature += `${d.latestTs === now ? 1 : 0}${d.fault_code ?? "-"}${(d.iw ?? 0) >= DUSK_OUTPUT_W ? 1 : 0}${(d.iis ?? 0) >= AWAKE_IRRADIANCE ? 1 : 0},`;
      if (d.latestTs !== null && (ranOut(d.latestTs + deviceSilentAfter) || ranOut(d.latestTs + rtuSilentAfter))) runOut = true;
    }
    for (const r of p.rtus) if (r.last_seen_at !== null && ranOut(r.last_seen_at + rtuSilentAfter)) runOut = true;
    const delay = this.settings.raiseDelayMinutes * 60_000;
    for (const first of p.incidents.values()) if (ranOut(first + delay)) runOut = true;
    const same = night && !runOut && signature === p.signature;
    if (!same) {
      p.signature = signature;
      p.judgedAt = now;
    }
    return same;
  }

  /** The alarms that can change no more (released longer ago than the reopen window), handed over once. */
  takeFinished(): HistoryAlarm[] {
    const out = this.finished;
    this.finished = [];
    return out;
  }

  /** Every alarm still held (open, or released within the reopen window): the replay has met the present. */
  takeAll(): HistoryAlarm[] {
    const out = this.takeFinished();
    for (const p of this.plants.values()) {
      out.push(...p.recent.values(), ...p.open.values());
      p.recent.clear();
      p.open.clear();
      p.incidents.clear();
    }
    return out;
  }
}

/** Alarms per transaction when writing the history's alarms (with their steps ≈ 300 rows: about a replay write's ~10 ms). */
const WRITE_CHUNK = 100;

/**
 * Writes alarms of the past with their lifecycle steps, a chunk per transaction with `pause` between them. No
 * outbox rows: the past is not alerted. An open alarm whose condition is already open in the store is skipped.
 */
export async function writeHistoryAlarms(
  db: Kysely<Database>,
  alarms: readonly HistoryAlarm[],
  pause: () => Promise<void> = async () => {},
): Promise<number> {
  let written = 0;
  for (let i = 0; i < alarms.length; i += WRITE_CHUNK) {
    if (i) await pause();
    const chunk = alarms.slice(i, i + WRITE_CHUNK);
    written += await db.transaction().execute(async (trx) => {
      const rows = await trx
        .insertInto("alarm")
        .values(
          chunk.map((a) => ({
            plant_uid: a.wanted.plant_uid,
            rtu_uid: a.wanted.rtu_uid,
            device_uid: a.wanted.device_uid,
            code: a.wanted.code,
            level: a.wanted.level,
            fault_code: a.wanted.fault_code,
            ...alarmMessageColumns(a.wanted.message),
            raised_at: a.raisedAt,
            released_at: a.releasedAt,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .returning(["seq", "code", "plant_uid", "rtu_uid", "device_uid", "raised_at"])
        .execute();
      // RETURNING promises no order: each row is found again by its condition and raised time.
      const seqOf = new Map(
        rows.map((r) => [
          `${alarmKey(Number(r.code), r.plant_uid, Number(r.code) === ALARM_CODE.internetDisconnected ? r.rtu_uid : r.device_uid)}@${Number(r.raised_at)}`,
          Number(r.seq),
        ]),
      );
      const events = chunk.flatMap((a) => {
        const seq = seqOf.get(`${a.wanted.key}@${a.raisedAt}`);
        return seq === undefined
          ? []
          : a.steps.map((s) => ({ alarm_seq: seq, kind: s.kind, member_id: null, note: null, at: s.at }));
      });
      for (let k = 0; k < events.length; k += 500)
        await trx
          .insertInto("alarm_event")
          .values(events.slice(k, k + 500))
          .execute();
      return rows.length;
    });
  }
  return written;
}
