/**
 * Raises and releases alarms: reads what the store knows now, asks the pure rules (domain/alarm-rules.ts)
 * what should be open, and writes the difference in one transaction — with the lifecycle steps
 * (alarm_event) and the alerts they cause (the outbox), so an alert is never sent for a step that
 * was not stored, nor lost for one that was. Incidents wait out the raise delay in alarm_incident. Runs after ingest (debounced)
 * over the plants the batches since the last pass carried (notePlants), and on a timer over the whole fleet, because
 * silence (an RTU that stops reporting) arrives with no data at all. A plant's pass reads, judges and writes only that
 * plant's rows (its RTUs, devices, open alarms and incidents): every rule of domain/alarm-rules.ts is one plant's.
 *
 * Sharded (several servers, issue 30): the fleet is split into shards by plant (domain/shard.ts) and this engine judges
 * the plants of the shards it holds (take/give, from the shard leases of api/cluster/singletons.ts): its batches'
 * plants and, on its timer, its shards' plants only. Holding every shard (one server, SQLite) it reads the fleet whole.
 */
import { ALARM_CODE } from "../../domain/status";
import type { Clock } from "../clock";
import { DIGEST_HOUR } from "../../domain/alert-policy";
import {
  AWAKE_SUN_ELEVATION,
  alarmKey,
  applyRaiseDelay,
  awakeSince,
  evaluateAlarms,
  type DeviceView,
} from "../../domain/alarm-rules";
import { seoulDayStart } from "../../domain/seoul-time";
import { sunPosition } from "../../domain/sun";
import { enqueueAlarmAlerts, enqueueDigests, type AlarmStepEvent } from "../notify/alerts";
import type { Store } from "../store/db";
import { alarmMessageColumns } from "../store/alarms";
import { getSettings } from "../store/settings";
import { storedAlarmMessage } from "../../domain/alarm-message";
import { shardOf } from "../../domain/shard";
import { autoCloseDue, isFlapping, HOUR_MS } from "../../domain/alarm-followup";
import { escalateAlarms } from "./alarm-escalation";

/** Where a plant without coordinates is assumed to be (the middle of South Korea). */
const KOREA_CENTRE = { lat: 36.5, lng: 127.8 };

export interface AlarmChange {
  raised: number;
  released: number;
  /** The plants whose open alarms changed. */
  plants: readonly string[];
}

/** What a pass judged: the whole fleet (the timer's pass, a takeover) or the plants of the batches since the last. */
export type PassScope = { fleet: true } | { fleet: false; plants: readonly string[] };

/** Plants per statement of a plant pass (SQLite allows 32,766 bound parameters per statement). */
const PLANT_CHUNK = 500;

export class AlarmEngine {
  private timer: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private running: Promise<AlarmChange> | undefined;
  private again = false;
  private digestDay = 0;
  private listeners: Array<(c: AlarmChange) => void> = [];
  /** Passes completed since start. */
  passes = 0;
  /** Telemetry batches stored since start (heard through noteBatch), and how many of them the last pass judged. */
  batchesIn = 0;
  batchesJudged = 0;
  /** What the last completed pass judged, and how many plant-scoped and fleet-wide passes ran. */
  lastPass: PassScope | null = null;
  plantPasses = 0;
  fleetPasses = 0;
  /** Plants whose batches came since the last pass began, and whether the next pass is the fleet's. */
  private pendingPlants = new Set<string>();
  private fleetDue = false;
  /** The shards this engine judges, of how many; null: unsharded, every plant (tests, tools). */
  private shards: { count: number; owned: Set<number> } | null = null;

  constructor(
    private store: Store,
    private clock: Clock,
    private log: (m: string, e?: unknown) => void = console.error,
    /** How long a batch waits for others to share its pass (tests lengthen it, so that "a burst shares one pass" holds on any machine). */
    private debounceMs = 250,
    /** The portal's public origin: alarm mails link to the alarm there (PUBLIC_URL's first). */
    private portalUrl?: string,
  ) {}

  onChange(listener: (c: AlarmChange) => void) {
    this.listeners.push(listener);
  }

  private passListeners: Array<(judged: PassScope) => void> = [];
  /** Hears what each completed pass judged (tests, benchmarks). */
  onPass(listener: (judged: PassScope) => void) {
    this.passListeners.push(listener);
  }

  /** From now on this engine judges only the shards it is given (take), of `count`. */
  shardInto(count: number) {
    this.shards = { count, owned: new Set() };
  }

  /** This engine now judges shard k too: its first pass judges the shard's every plant (batches heard elsewhere). */
  take(shard: number) {
    this.shards?.owned.add(shard);
    this.evaluateFleetSoon(0);
  }

  /** Shard k is judged elsewhere from now on. */
  give(shard: number) {
    this.shards?.owned.delete(shard);
  }

  /** Whether this engine judges any plant (unsharded, or holding a shard). */
  get judgesAny(): boolean {
    return !this.shards || this.shards.owned.size > 0;
  }

  /** The shards held, for the health answer (null: unsharded). */
  get heldShards(): number[] | null {
    return this.shards ? [...this.shards.owned].sort((a, b) => a - b) : null;
  }

  private judges(plant: string): boolean {
    return !this.shards || this.shards.owned.has(shardOf(plant, this.shards.count));
  }

  /** Every shard is here: a fleet pass reads the fleet whole. */
  private holdsAll(): boolean {
    return !this.shards || this.shards.owned.size >= this.shards.count;
  }

  /** Passes over the whole fleet every intervalMs (silence is seen by nothing else). */
  start(intervalMs: number) {
    this.timer = setInterval(() => this.evaluateFleetSoon(0), intervalMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
    clearTimeout(this.pending);
    // Forgotten too: evaluateSoon() does nothing while a pass is pending, so a cleared but remembered timer
    // kept an engine that was stopped and started again (its server lost the lease and won it back after a
    // database restart) from ever evaluating again.
    this.pending = undefined;
    // Whoever runs the engine next starts with a pass over the fleet, which judges these plants too.
    this.pendingPlants.clear();
    this.fleetDue = false;
  }

  /**
   * A telemetry batch was committed: the next pass judges it (the health answer shows how far the passes are), and the
   * plants it carried, when given (a server that does not run the engine gives none: the owner hears them itself).
   */
  noteBatch(plants: Iterable<string> = []) {
    this.batchesIn++;
    this.notePlants(plants);
  }

  /** These plants' data changed (a batch here or on another server): the next pass judges them. */
  notePlants(plants: Iterable<string>) {
    for (const p of plants) if (this.judges(p)) this.pendingPlants.add(p);
  }

  /** The next pass judges the whole fleet (the timer's pass; a takeover; changes whose plants were not heard). */
  evaluateFleetSoon(delayMs = this.debounceMs) {
    this.fleetDue = true;
    this.evaluateSoon(delayMs);
  }

  /** Debounced evaluation of what is pending, so a burst of batches costs one pass. */
  evaluateSoon(delayMs = this.debounceMs) {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.evaluate().catch((e) => this.log("alarm evaluation failed", e));
    }, delayMs);
    this.pending.unref?.();
  }

  /**
   * One pass over the plants noted since the last (or, with "fleet" or when a fleet pass is due, over every plant);
   * concurrent callers share it, and a call during a pass schedules one more.
   */
  async evaluate(scope?: "fleet"): Promise<AlarmChange> {
    if (scope === "fleet") this.fleetDue = true;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    // This pass takes everything pending: a debounce timer still waiting would only start an empty pass after it.
    clearTimeout(this.pending);
    this.pending = undefined;
    const batches = this.batchesIn;
    const judged: PassScope = this.fleetDue ? { fleet: true } : { fleet: false, plants: [...this.pendingPlants] };
    this.fleetDue = false;
    this.pendingPlants = new Set();
    this.running = this.pass(judged)
      .catch((e: unknown) => {
        // Judged by the next pass instead (a plant's batch is not forgotten because a pass failed).
        if (judged.fleet) this.fleetDue = true;
        else this.notePlants(judged.plants);
        throw e;
      })
      .finally(() => {
        this.passes++;
        this.lastPass = judged;
        for (const l of this.passListeners) l(judged);
        if (judged.fleet) this.fleetPasses++;
        else this.plantPasses++;
        this.batchesJudged = Math.max(this.batchesJudged, batches);
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.evaluateSoon(0);
        }
      });
    return this.running;
  }

  /** Today's awakeSince per place: it changes once a day, and a pass asks for every plant. */
  private awakeToday = { day: 0, since: new Map<string, number | null>() };

  private awakeSinceAt(now: number, lat: number, lng: number): number | null {
    const day = seoulDayStart(now);
    if (this.awakeToday.day !== day) this.awakeToday = { day, since: new Map() };
    const key = `${lat},${lng}`;
    if (!this.awakeToday.since.has(key)) this.awakeToday.since.set(key, awakeSince(now, lat, lng));
    return this.awakeToday.since.get(key)!;
  }

  private judgesShardZero(): boolean {
    return !this.shards || this.shards.owned.has(0);
  }

  /** The plants of the shards held: every plant, and the plants of open alarms and incidents (a deleted plant's too). */
  private async shardPlants(): Promise<string[]> {
    const db = this.store.db;
    const [plants, alarms, incidents] = await Promise.all([
      db.selectFrom("plant").select("uid as p").execute(),
      db.selectFrom("alarm").select("plant_uid as p").distinct().where("released_at", "is", null).execute(),
      db.selectFrom("alarm_incident").select("plant_uid as p").distinct().execute(),
    ]);
    const all = new Set<string>();
    for (const r of [...plants, ...alarms, ...incidents]) if (r.p !== null && this.judges(r.p)) all.add(r.p);
    return [...all];
  }

  private async pass(scope: PassScope): Promise<AlarmChange> {
    if (!scope.fleet && !scope.plants.length) return { raised: 0, released: 0, plants: [] };
    const db = this.store.db;
    const now = this.clock.now();
    // A fleet pass holding every shard reads every row; a plant pass (or a fleet pass of some shards: their plants)
    // the rows of its plants, PLANT_CHUNK plants per statement.
    const parts: Array<readonly string[] | null> = [];
    const plantList = scope.fleet
      ? this.holdsAll()
        ? null
        : await this.shardPlants()
      : scope.plants.filter((p) => this.judges(p));
    if (!plantList) parts.push(null);
    else for (let i = 0; i < plantList.length; i += PLANT_CHUNK) parts.push(plantList.slice(i, i + PLANT_CHUNK));
    if (!parts.length) return { raised: 0, released: 0, plants: [] };
    const each = async <T>(read: (part: readonly string[] | null) => Promise<T[]>): Promise<T[]> =>
      (await Promise.all(parts.map(read))).flat();
    const settings = (await getSettings(db)).alarm;
    const plants = await each((part) =>
      db
        .selectFrom("plant")
        .select(["uid", "capa", "lat", "lng"])
        .$if(!!part, (q) => q.where("uid", "in", part!))
        .execute(),
    );
    const rtus = await each((part) =>
      db
        .selectFrom("rtu")
        .select(["uid", "plant_uid", "last_seen_at"])
        .where("use_yn", "=", 1)
        .where("plant_uid", "is not", null)
        .$if(!!part, (q) => q.where("plant_uid", "in", part!))
        .execute(),
    );
    const devices = await each((part) =>
      db
        .selectFrom("device")
        .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
        .select([
          "device.uid",
          "device.kind",
          "device.rtu_uid",
          "device.plant_uid",
          "device.capa",
          "device_latest.ts as latestTs",
          "device_latest.iw",
          "device_latest.fault_code",
          "device_latest.iis",
          "device_latest.his",
          "device_latest.sts",
        ])
        .where("device.use_yn", "=", 1)
        .where("device.plant_uid", "is not", null)
        .$if(!!part, (q) => q.where("device.plant_uid", "in", part!))
        .execute(),
    );
    const faultNames = (await db.selectFrom("fault_code").select(["code", "name_ko", "level"]).execute()).map((f) => ({
      code: f.code,
      name: f.name_ko,
      level: f.level,
    }));
    const open = await each((part) =>
      db
        .selectFrom("alarm")
        .selectAll()
        .where("released_at", "is", null)
        .$if(!!part, (q) => q.where("plant_uid", "in", part!))
        .execute(),
    );
    const openLowGeneration = new Set(open.filter((a) => a.code === ALARM_CODE.abnormalTodayGeneration).map(keyOf));

    const { wanted, undecided } = evaluateAlarms({
      now,
      settings,
      plants: plants.map((p) => {
        const lat = p.lat ?? KOREA_CENTRE.lat;
        const lng = p.lng ?? KOREA_CENTRE.lng;
        const sunElevationDeg = sunPosition(now, lat, lng).elevationDeg;
        const woke = sunElevationDeg >= AWAKE_SUN_ELEVATION ? this.awakeSinceAt(now, lat, lng) : null;
        return { uid: p.uid, capa: p.capa, sunElevationDeg, awakeSince: woke };
      }),
      rtus: rtus.map((r) => ({ uid: r.uid, plant_uid: r.plant_uid!, last_seen_at: r.last_seen_at })),
      devices: devices.map((d) => ({ ...d, plant_uid: d.plant_uid!, latestTs: d.latestTs ?? null }) as DeviceView),
      faultNames,
      openLowGeneration,
    });

    const openByKey = new Map(open.map((a) => [keyOf(a), a]));
    const wantedKeys = new Set(wanted.map((w) => w.key));
    const incidents = new Map(
      (
        await each((part) =>
          db
            .selectFrom("alarm_incident")
            .select(["key", "first_seen_at"])
            .$if(!!part, (q) => q.where("plant_uid", "in", part!))
            .execute(),
        )
      ).map((i) => [i.key, Number(i.first_seen_at)]),
    );
    const delay = applyRaiseDelay(wantedKeys, new Set(openByKey.keys()), incidents, now, settings.raiseDelayMinutes * 60_000);
    const toRaise = wanted.filter((w) => delay.due.has(w.key));
    // An acknowledged alarm whose condition got worse is raised again: active once more.
    const toEscalate = wanted.filter((w) => {
      const a = openByKey.get(w.key);
      return !!a && a.ack_at !== null && w.level > a.level;
    });
    const toRelease = open.filter((a) => !wantedKeys.has(keyOf(a)) && !undecided.has(keyOf(a)));
    // Auto-close: an open alarm that cannot be judged now (its device silent, asleep…) and whose condition has not
    // been seen for the configured time is cleared by itself (domain/alarm-followup.ts).
    const toAutoClose = open.filter(
      (a) =>
        !wantedKeys.has(keyOf(a)) &&
        undecided.has(keyOf(a)) &&
        autoCloseDue(Number(a.last_seen_at ?? a.raised_at), now, settings.autoCloseMinutes),
    );
    // The condition of these open alarms is seen now: auto-close counts from here (written once a minute at most).
    const seenNow = open
      .filter((a) => wantedKeys.has(keyOf(a)) && now - Number(a.last_seen_at ?? a.raised_at) >= LAST_SEEN_STEP_MS)
      .map((a) => a.seq);
    const incidentsChanged =
      delay.incidents.size !== incidents.size || [...delay.incidents].some(([k, v]) => incidents.get(k) !== v);

    for (let i = 0; i < seenNow.length; i += 500)
      await db
        .updateTable("alarm")
        .set({ last_seen_at: now })
        .where("seq", "in", seenNow.slice(i, i + 500))
        .execute();
    if (toRaise.length || toRelease.length || toEscalate.length || toAutoClose.length || incidentsChanged) {
      await db.transaction().execute(async (trx) => {
        const steps: AlarmStepEvent[] = [];
        /**
         * Records a step; the clearing ones are alerted to the plant's contacts here (the ladder alerts the steps that
         * make an alarm active: escalateAlarms), unless `quiet` (a flapping alarm: stored and counted, not alerted).
         */
        const step = async (
          alarm: AlarmStepEvent["alarm"],
          kind: "raised" | "reactivated" | "cleared" | "auto_cleared",
          quiet = false,
        ) => {
          const ev = await trx
            .insertInto("alarm_event")
            .values({ alarm_seq: alarm.seq, kind, member_id: null, note: quiet ? "flapping" : null, at: now })
            .returning("seq")
            .executeTakeFirstOrThrow();
          if (!quiet && (kind === "cleared" || kind === "auto_cleared"))
            steps.push({ eventSeq: Number(ev.seq), step: kind, alarm, at: now });
        };
        /** Whether this alarm flaps now: its returns within the hour (this one included) above the setting. */
        const flapping = async (seq: number | bigint, toggles: number, returning: boolean) => {
          if (!toggles && !returning) return false;
          const returns = await trx
            .selectFrom("alarm_event")
            .select("at")
            .where("alarm_seq", "=", Number(seq))
            .where("kind", "=", "reactivated")
            .where("at", ">", now - HOUR_MS)
            .execute();
          return isFlapping([...returns.map((r) => Number(r.at)), ...(returning ? [now] : [])], now, settings.flapMaxPerHour);
        };
        // A condition that returns soon after it cleared reopens its alarm instead of starting a new one.
        const recent = toRaise.length
          ? await trx
              .selectFrom("alarm")
              .selectAll()
              .where("released_at", ">=", now - REOPEN_WINDOW_MS)
              .where("plant_uid", "in", [...new Set(toRaise.map((w) => w.plant_uid))])
              .orderBy("released_at", "desc")
              .execute()
          : [];
        const recentByKey = new Map<string, (typeof recent)[number]>();
        for (const a of recent) if (!recentByKey.has(keyOf(a))) recentByKey.set(keyOf(a), a);
        for (const w of toRaise) {
          const again = recentByKey.get(w.key);
          if (again) {
            // Flapping: one alarm with a count; its ladder goes on from the episode it is in (no new first alert).
            const flaps = await flapping(again.seq, Number(again.toggles), true);
            await trx
              .updateTable("alarm")
              .set({
                released_at: null,
                ack_by: null,
                ack_at: null,
                ack_note: null,
                level: w.level,
                ...alarmMessageColumns(w.message),
                fault_code: w.fault_code,
                toggles: Number(again.toggles) + 1,
                auto_cleared: 0,
                last_seen_at: now,
                ...(flaps ? {} : { active_since: now }),
              })
              .where("seq", "=", again.seq)
              .execute();
            await step(
              { ...again, seq: Number(again.seq), level: w.level, message: w.message, raised_at: Number(again.raised_at) },
              "reactivated",
              flaps,
            );
            continue;
          }
          const row = await trx
            .insertInto("alarm")
            .values({
              plant_uid: w.plant_uid,
              rtu_uid: w.rtu_uid,
              device_uid: w.device_uid,
              code: w.code,
              level: w.level,
              fault_code: w.fault_code,
              ...alarmMessageColumns(w.message),
              raised_at: now,
              released_at: null,
              active_since: now,
              last_seen_at: now,
            })
            // The store keeps one open alarm per condition (migration 0009): a pass racing another
            // (a server that has not yet noticed it lost the alarm engine's lease) cannot raise it twice.
            .onConflict((oc) => oc.doNothing())
            .returning("seq")
            .executeTakeFirst();
          if (row) await step({ ...w, seq: Number(row.seq), raised_at: now }, "raised");
        }
        for (const w of toEscalate) {
          const a = openByKey.get(w.key)!;
          await trx
            .updateTable("alarm")
            .set({
              ack_by: null,
              ack_at: null,
              ack_note: null,
              level: w.level,
              ...alarmMessageColumns(w.message),
              fault_code: w.fault_code,
              // Worse than what was acknowledged: a new episode, the ladder from its first step.
              active_since: now,
              last_seen_at: now,
            })
            .where("seq", "=", a.seq)
            .execute();
          await step(
            { ...a, seq: Number(a.seq), level: w.level, message: w.message, raised_at: Number(a.raised_at) },
            "reactivated",
          );
        }
        const seqs = toRelease.map((a) => a.seq);
        for (let i = 0; i < seqs.length; i += 500) {
          await trx
            .updateTable("alarm")
            .set({ released_at: now })
            .where("seq", "in", seqs.slice(i, i + 500))
            .execute();
        }
        const autoSeqs = toAutoClose.map((a) => a.seq);
        for (let i = 0; i < autoSeqs.length; i += 500) {
          await trx
            .updateTable("alarm")
            .set({ released_at: now, auto_cleared: 1 })
            .where("seq", "in", autoSeqs.slice(i, i + 500))
            .where("released_at", "is", null)
            .execute();
        }
        for (const [list, kind] of [
          [toRelease, "cleared"],
          [toAutoClose, "auto_cleared"],
        ] as const)
          for (const a of list)
            await step(
              {
                ...a,
                seq: Number(a.seq),
                message: storedAlarmMessage(a.message_code, a.message_params, a.message),
                raised_at: Number(a.raised_at),
              },
              kind,
              await flapping(a.seq, Number(a.toggles), false),
            );
        if (incidentsChanged) {
          for (const part of parts)
            await trx
              .deleteFrom("alarm_incident")
              .$if(!!part, (q) => q.where("plant_uid", "in", part!))
              .execute();
          const rows = [...delay.incidents].map(([key, first]) => ({ key, plant_uid: key.split(":")[1]!, first_seen_at: first }));
          for (let i = 0; i < rows.length; i += 200)
            await trx
              .insertInto("alarm_incident")
              .values(rows.slice(i, i + 200))
              .execute();
        }
        await enqueueAlarmAlerts(trx, steps, Date.now(), this.portalUrl);
      });
    }
    // The ladders' due steps, each once (api/telemetry/alarm-escalation.ts): the first at once for what was raised.
    await escalateAlarms(this.store, now, parts, this.portalUrl);
    // Digests are keyed by member and day: asking once a pass costs a query, sends once a day (shard 0's holder asks).
    if (seoulDayStart(now) !== this.digestDay && this.judgesShardZero()) {
      const queued = await enqueueDigests(db, now);
      if (queued || now >= seoulDayStart(now) + DIGEST_HOUR * 3_600_000) this.digestDay = seoulDayStart(now);
    }
    const change = {
      raised: toRaise.length + toEscalate.length,
      released: toRelease.length + toAutoClose.length,
      plants: [...new Set([...toRaise, ...toEscalate, ...toRelease, ...toAutoClose].map((a) => a.plant_uid))],
    };
    if (change.raised || change.released) for (const l of this.listeners) l(change);
    return change;
  }
}

/** How stale an open alarm's last_seen_at may get before a pass that sees its condition writes it again. */
const LAST_SEEN_STEP_MS = 60_000;

/** A condition back within this long after its alarm cleared reopens that alarm (no flapping). */
export const REOPEN_WINDOW_MS = 3_600_000;

const keyOf = (a: { code: number; plant_uid: string; rtu_uid: string | null; device_uid: string | null }) =>
  alarmKey(a.code, a.plant_uid, a.code === ALARM_CODE.internetDisconnected ? a.rtu_uid : a.device_uid);
