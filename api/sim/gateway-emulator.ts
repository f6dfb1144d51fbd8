/**
 * The simulated gateways of the demo fleet. Every RTU of kind SIMULATED_RTU_KIND is played here:
 * its plant's physics is stepped every 10 minutes (of the data-plane clock), its readings go
 * through the same IngestService a real gateway's HTTP or MQTT push reaches, and it carries
 * out commands. Faults shape what reaches the server: a device that lost communication sends
 * nothing, an offline RTU buffers its readings and sends them late when it is back, inverters
 * sleep at night.
 */
import type { Clock } from "../clock";
import type { Store } from "../store/db";
import type { CommandMessage, CommandOutcome, GatewayLink } from "../telemetry/commands";
import type { IngestService } from "../telemetry/ingest";
import type { RawReading } from "../telemetry/readings";
import { rebuildRollupsInSlices } from "../telemetry/writer";
import { getSettings } from "../store/settings";
import { HistoryAlarms, writeHistoryAlarms } from "./history-alarms";
import { DEMO_FAULT_INTENSITY, FaultSchedule, createFaultFrame, faultHex, type FaultFrame } from "./faults";
import { SIMULATED_RTU_KIND } from "./fleet";
import {
  createPlantModel,
  createPlantReadings,
  createPlantState,
  estimateLifetimeKwh,
  type PlantModel,
  type PlantReadings,
  type PlantSpec,
  type PlantState,
} from "./pv";
import { stepPlant } from "./pv";
import { demoPlantLosses } from "./losses";
import { hashSeed } from "./random";
import { DAY_MS, STEP_MS, alignToStep, kstDayIndex, kstDayStartMs } from "./time";

interface SimDevice {
  uid: string;
  kind: number;
  rtuUid: string;
  /** Index among devices of its kind in the plant. */
  index: number;
}

interface SimPlant {
  uid: string;
  /** Raw capacity (10 W units) and place, for the history's alarms. */
  capa: number;
  lat: number | null;
  lng: number | null;
  /** Raw rating of each device (inverters), by the devices' order. */
  deviceCapa: Array<number | null>;
  model: PlantModel;
  state: PlantState;
  readings: PlantReadings;
  faults: FaultSchedule;
  frame: FaultFrame;
  devices: SimDevice[];
  rtus: string[];
  stoppedInverters: Set<number>;
  openBreakers: Set<string>;
}

export interface EmulatorOptions {
  historyDays: number;
  faultIntensity?: number;
  log?: (msg: string) => void;
  /** Judge the history's alarms at every step, unchanged nights too (for tests: the result must be the same). */
  exhaustiveHistoryAlarms?: boolean;
}

const r2 = (v: number) => Math.round(v * 100) / 100;
/** Readings per write (~10 ms of SQLite's synchronous work on this machine kind). */
const SEND_CHUNK = 500;
/** Share of a history replay's time spent stepping and writing the readings; the rollups' rebuild takes the rest. */
const REPLAY_SHARE = 0.9;
/** Lets waiting I/O (requests, answers) run before the next write of the replay. */
const yieldToAnswers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The physics of a simulated plant from what the store says of it: its inverters' ratings, connection boards (8–16
 * strings each, seeded), sensors and breakers, and the losses a real plant has (api/sim/losses.ts).
 */
export function simulatedPlantSpec(p: {
  uid: string;
  lat: number | null;
  lng: number | null;
  locality: string | null;
  inverterKw: readonly number[];
  boards: number;
  envSensors: number;
  vcbs: number;
  acbs: number;
}): PlantSpec {
  const n = p.inverterKw.length;
  return {
    seed: p.uid,
    latDeg: p.lat ?? 36.5,
    lonDeg: p.lng ?? 127.8,
    locality: p.locality ?? p.uid,
    inverters: p.inverterKw.map((kw) => ({ capacityKw: kw })),
    connectionBoards: Array.from({ length: p.boards }, (_, k) => ({
      inverterIndex: k % n,
      channels: 8 + (hashSeed(p.uid, k) % 9),
    })),
    envSensors: p.envSensors,
    vcbs: p.vcbs,
    acbs: p.acbs,
    losses: demoPlantLosses(p.uid),
  };
}

export class GatewayEmulator implements GatewayLink {
  private plants: SimPlant[] = [];
  private rtuPlant = new Map<string, SimPlant>();
  private buffers = new Map<string, RawReading[]>();
  private timer: NodeJS.Timeout | undefined;
  private stepping: Promise<void> | undefined;
  private afterStep: Array<() => Promise<unknown>> = [];
  private halted = false;
  /** The history replay in progress: its time span, how far it is and the last tenth reported. */
  private replay: { share: number; reported: number } | undefined;
  /** While a history is replayed: its alarms, judged from the readings as they are delivered (history-alarms.ts). */
  private history:
    | {
        alarms: HistoryAlarms;
        judgeFrom: number;
        writeMs: number;
        /** The longest a plant's day of steps (with its judging) held the event loop, ms. */
        longestStepsMs: number;
      }
    | undefined;

  constructor(
    private store: Store,
    private ingest: IngestService,
    private clock: Clock,
    private opts: EmulatorOptions,
  ) {}

  onStep(fn: () => Promise<unknown>) {
    this.afterStep.push(fn);
  }

  /** Loads the simulated plants from the store and restores their counters from the newest readings. */
  async load(): Promise<number> {
    const db = this.store.db;
    const rtus = await db
      .selectFrom("rtu")
      .select(["uid", "plant_uid"])
      .where("kind", "=", SIMULATED_RTU_KIND)
      .where("use_yn", "=", 1)
      .orderBy("uid")
      .execute();
    const plantUids = [...new Set(rtus.map((r) => r.plant_uid).filter((p): p is string => !!p))];
    if (!plantUids.length) return 0;
    const plants = await db.selectFrom("plant").selectAll().where("uid", "in", plantUids).orderBy("uid").execute();
    const devices = await db
      .selectFrom("device")
      .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select([
        "device.uid",
        "device.kind",
        "device.rtu_uid",
        "device.plant_uid",
        "device.capa",
        "device_latest.ts",
        "device_latest.today_wh",
        "device_latest.total_wh",
      ])
      .where("device.plant_uid", "in", plantUids)
      .where("device.use_yn", "=", 1)
      .where(
        "device.rtu_uid",
        "in",
        rtus.map((r) => r.uid),
      )
      .orderBy("device.kind")
      .orderBy("device.uid")
      .execute();
    const now = this.clock.now();
    const start = kstDayStartMs(kstDayIndex(now) - this.opts.historyDays);
    for (const p of plants) {
      const own = devices.filter((d) => d.plant_uid === p.uid);
      const inverters = own.filter((d) => d.kind === 1);
      if (!inverters.length) continue;
      const boards = own.filter((d) => d.kind === 2);
      const share = (p.capa * 0.01) / inverters.length;
      const model = createPlantModel(
        simulatedPlantSpec({
          uid: p.uid,
          lat: p.lat,
          lng: p.lng,
          locality: p.locality,
          inverterKw: inverters.map((d) => (d.capa ? d.capa * 0.01 : share)),
          boards: boards.length,
          envSensors: own.filter((d) => d.kind === 4).length,
          vcbs: own.filter((d) => d.kind === 7).length,
          acbs: own.filter((d) => d.kind === 8).length,
        }),
      );
      const newest = Math.max(0, ...own.map((d) => d.ts ?? 0));
      const resume = newest > start ? alignToStep(newest) : start;
      const sameDay = kstDayIndex(resume) === kstDayIndex(newest);
      const state =
        newest > start
          ? createPlantState(model, resume, {
              totalKwh: inverters.map((d) => (d.total_wh ?? 0) / 1000),
              todayKwh: inverters.map((d) => (sameDay ? (d.today_wh ?? 0) / 1000 : 0)),
            })
          : createPlantState(model, start, { totalKwh: estimateLifetimeKwh(model.totalAcCapacityKw, 1 + (hashSeed(p.uid) % 5)) });
      const kindIndex = new Map<number, number>();
      const simDevices = own.map((d) => {
        const index = kindIndex.get(d.kind) ?? 0;
        kindIndex.set(d.kind, index + 1);
        return { uid: d.uid, kind: d.kind, rtuUid: d.rtu_uid!, index };
      });
      const plantRtus = [...new Set(simDevices.map((d) => d.rtuUid))].sort();
      const layout = { seed: p.uid, inverters: inverters.length, devices: simDevices.length, rtus: plantRtus.length };
      const sim: SimPlant = {
        uid: p.uid,
        capa: p.capa,
        lat: p.lat,
        lng: p.lng,
        deviceCapa: own.map((d) => d.capa),
        model,
        state,
        readings: createPlantReadings(model),
        faults: new FaultSchedule(layout, { intensity: this.opts.faultIntensity ?? DEMO_FAULT_INTENSITY }),
        frame: createFaultFrame(layout),
        devices: simDevices,
        rtus: plantRtus,
        stoppedInverters: new Set(),
        openBreakers: new Set(),
      };
      this.plants.push(sim);
      for (const r of plantRtus) this.rtuPlant.set(r, sim);
    }
    await this.restoreCommandedState();
    return this.plants.length;
  }

  /**
   * A gateway keeps what it was told across a restart of the portal: each device's last carried-out
   * command (an inverter switched off stays off, a tripped breaker stays open).
   */
  private async restoreCommandedState() {
    const uids = this.plants.flatMap((p) =>
      p.devices.filter((d) => d.kind === 1 || d.kind === 7 || d.kind === 8).map((d) => d.uid),
    );
    for (let i = 0; i < uids.length; i += 500) {
      const part = uids.slice(i, i + 500);
      const last = await this.store.db
        .selectFrom("command")
        .select(["rtu_uid", "device_uid", "device_type", "ch", "hex_on", "hex_off"])
        .where("seq", "in", (eb) =>
          eb
            .selectFrom("command as c")
            .select((e) => e.fn.max("c.seq").as("m"))
            .where("c.device_uid", "in", part)
            .where("c.status", "=", "done")
            .groupBy("c.device_uid"),
        )
        .execute();
      for (const c of last) {
        this.apply({
          seq: 0,
          rtuUid: c.rtu_uid,
          deviceUid: c.device_uid,
          deviceType: c.device_type,
          ch: c.ch,
          action: c.hex_on ? "on" : "off",
          hex: (c.hex_on ?? c.hex_off)!,
        });
      }
    }
  }

  /**
   * Plays every plant up to the clock's current 10-minute slot; returns the readings sent. A long catch-up (the
   * first backfill, or a restart after a pause) goes a KST day at a time over every plant with the rollups deferred,
   * and rebuilds them once at the end, a plant at a time. Every write is a short transaction and the event loop is
   * let go between them (SQLite's writes are synchronous): answers never wait for the replay.
   */
  async catchUp(): Promise<number> {
    if (this.stepping) {
      await this.stepping;
      return 0;
    }
    let sent = 0;
    this.stepping = (async () => {
      const target = alignToStep(this.clock.now());
      const from = Math.min(...this.plants.map((p) => p.state.tMs));
      const bulk = target - from > DAY_MS;
      if (bulk) {
        this.replay = { share: 0, reported: 0 };
        this.history = await this.historyAlarms(from);
      }
      let day = from;
      while (day < target && !this.halted) {
        day = Math.min(target, kstDayStartMs(kstDayIndex(day) + 1));
        for (const plant of this.plants) {
          const batches = new Map<string, RawReading[]>();
          const started = performance.now();
          while (plant.state.tMs < day && !this.halted) this.step(plant, batches);
          if (this.history) this.history.longestStepsMs = Math.max(this.history.longestStepsMs, performance.now() - started);
          for (const [rtu, readings] of batches) {
            if (readings.length) sent += await this.send(rtu, readings, bulk);
          }
          await yieldToAnswers();
        }
        if (this.history) {
          const started = performance.now();
          await writeHistoryAlarms(this.store.db, this.history.alarms.takeFinished(), yieldToAnswers);
          this.history.writeMs += performance.now() - started;
        }
        if (bulk) this.progressed((REPLAY_SHARE * (day - from)) / (target - from));
      }
      if (this.history) {
        // The replay has met the present: what is still open is written open, and the live engine carries it on.
        const { alarms, writeMs, longestStepsMs } = this.history;
        const started = performance.now();
        await writeHistoryAlarms(this.store.db, alarms.takeAll(), yieldToAnswers);
        const s = (ms: number) => (ms / 1000).toFixed(1);
        this.opts.log?.(
          `  Simulator: ${alarms.raised.toLocaleString("en")} alarms of the history derived from its readings ` +
            `(judging ${s(alarms.judgeMs)} s, writing ${s(writeMs + performance.now() - started)} s; ` +
            `a plant's day of steps held the loop ${longestStepsMs.toFixed(0)} ms at most)`,
        );
        this.history = undefined;
      }
      if (bulk)
        await rebuildRollupsInSlices(this.store, from, target + STEP_MS, {
          pause: yieldToAnswers,
          progress: (done) => this.progressed(REPLAY_SHARE + (1 - REPLAY_SHARE) * done),
        });
      this.replay = undefined;
    })();
    try {
      await this.stepping;
    } finally {
      this.stepping = undefined;
    }
    for (const fn of this.afterStep) await fn();
    return sent;
  }

  /** The judge of the history's alarms, with the store's settings and fault codes, every simulated plant added. */
  private async historyAlarms(from: number): Promise<NonNullable<GatewayEmulator["history"]>> {
    const settings = (await getSettings(this.store.db)).alarm;
    const faultNames = (await this.store.db.selectFrom("fault_code").select(["code", "name_ko", "level"]).execute()).map((f) => ({
      code: f.code,
      name: f.name_ko,
      level: f.level,
    }));
    const alarms = new HistoryAlarms(settings, faultNames, { exhaustive: this.opts.exhaustiveHistoryAlarms });
    for (const p of this.plants)
      alarms.addPlant({
        uid: p.uid,
        capa: p.capa,
        lat: p.lat,
        lng: p.lng,
        rtus: p.rtus,
        devices: p.devices.map((d, k) => ({ uid: d.uid, kind: d.kind, rtuUid: d.rtuUid, capa: p.deviceCapa[k] ?? null })),
      });
    // Every device has been heard (or missed) by the time silence could count: the first steps only warm up.
    const warmUp = Math.max(settings.rtuSilentIntervals, settings.deviceSilentIntervals) * STEP_MS;
    return { alarms, judgeFrom: from + warmUp, writeMs: 0, longestStepsMs: 0 };
  }

  /** How far the history replay is while one runs (percent, the rollups' rebuild at the end included); null otherwise. */
  replayProgress(): { percent: number } | null {
    return this.replay ? { percent: Math.floor(this.replay.share * 100) } : null;
  }

  private progressed(share: number) {
    const r = this.replay!;
    r.share = share;
    const percent = Math.floor(share * 100);
    // The console hears of every tenth percent.
    if (percent >= r.reported + 10 && percent < 100) {
      r.reported = percent - (percent % 10);
      this.opts.log?.(`  Simulator: playing in ${this.opts.historyDays} days of history, ${percent} %`);
    }
  }

  /** Steps live: at each new slot of the clock (10 minutes / SIM_SPEED of real time). */
  startLive() {
    this.halted = false;
    const tick = () => {
      if (this.halted) return;
      const now = this.clock.now();
      const next = alignToStep(now) + STEP_MS;
      const wait = Math.max(50, (next - now) / this.clock.speed);
      this.timer = setTimeout(() => {
        this.catchUp()
          .catch((e) => this.opts.log?.(`simulator step failed: ${(e as Error).message}`))
          .finally(tick);
      }, wait);
      this.timer.unref();
    };
    tick();
  }

  /** Stops stepping, a catch-up in progress included (it ends after the day it is writing). */
  stop() {
    this.halted = true;
    clearTimeout(this.timer);
  }

  reaches(rtuUid: string): boolean {
    return this.rtuPlant.has(rtuUid);
  }

  async deliver(command: CommandMessage): Promise<CommandOutcome> {
    return this.apply(command);
  }

  private apply(command: CommandMessage): CommandOutcome {
    const plant = this.rtuPlant.get(command.rtuUid);
    const device = plant?.devices.find((d) => d.uid === command.deviceUid && d.rtuUid === command.rtuUid);
    if (!plant || !device) return { ok: false, message: "device not on this gateway" };
    const on = command.action === "on";
    if (device.kind === 1) {
      if (on) plant.stoppedInverters.delete(device.index);
      else plant.stoppedInverters.add(device.index);
    } else if (device.kind === 7 || device.kind === 8) {
      if (on) plant.openBreakers.delete(device.uid);
      else plant.openBreakers.add(device.uid);
    } else {
      return { ok: false, message: "this device kind takes no commands" };
    }
    return { ok: true, state: on ? 1 : 0, message: on ? "switched on / closed" : "switched off / opened" };
  }

  private step(plant: SimPlant, batches: Map<string, RawReading[]>) {
    const t = plant.state.tMs + STEP_MS;
    const frame = plant.faults.frameAt(t, plant.frame);
    const gridLost = plant.openBreakers.size > 0;
    for (let i = 0; i < frame.inverterOutputFactor.length; i++) {
      if (gridLost || plant.stoppedInverters.has(i)) frame.inverterOutputFactor[i] = 0;
    }
    const r = stepPlant(plant.model, plant.state, frame, plant.readings);
    const sunUp = r.sunElevationDeg > -0.833;
    const rtuOffline = new Set(plant.rtus.filter((_, k) => frame.rtuOffline[k] === 1));
    // What reaches the server at this step, per RTU (for the history's alarms).
    const delivered = this.history ? new Map<string, RawReading[]>() : undefined;
    plant.devices.forEach((d, k) => {
      if (frame.deviceCommLost[k] === 1) return;
      const values = this.values(plant, d, r, sunUp);
      if (!values) return;
      const reading: RawReading = { device: d.uid, ts: t, values };
      if (rtuOffline.has(d.rtuUid)) {
        // Store-and-forward: the RTU keeps up to a day of readings while its uplink is down.
        const buffer = this.buffers.get(d.rtuUid) ?? [];
        if (buffer.length < 144 * plant.devices.length) buffer.push(reading);
        this.buffers.set(d.rtuUid, buffer);
        return;
      }
      const batch = batches.get(d.rtuUid) ?? [];
      batch.push(reading);
      batches.set(d.rtuUid, batch);
      if (delivered) {
        const heard = delivered.get(d.rtuUid);
        if (heard) heard.push(reading);
        else delivered.set(d.rtuUid, [reading]);
      }
    });
    for (const rtu of plant.rtus) {
      const buffered = this.buffers.get(rtu);
      if (!rtuOffline.has(rtu) && buffered?.length) {
        batches.set(rtu, [...buffered, ...(batches.get(rtu) ?? [])]);
        delivered?.set(rtu, [...buffered, ...(delivered.get(rtu) ?? [])]);
        this.buffers.delete(rtu);
      }
    }
    if (delivered && this.history) {
      const alarms = this.history.alarms;
      for (const [rtu, readings] of delivered) alarms.heard(plant.uid, rtu, readings, t);
      if (t >= this.history.judgeFrom) alarms.judge(plant.uid, t);
    }
  }

  private values(plant: SimPlant, d: SimDevice, r: PlantReadings, sunUp: boolean): Record<string, unknown> | null {
    switch (d.kind) {
      case 1: {
        const inv = r.inverters[d.index]!;
        // Inverters shut down at night and do not answer until the morning (unless faulted and latched).
        if (!sunUp && !inv.running && !inv.faultCode) return null;
        return {
          dc_v: r2(inv.dcVoltageV),
          dc_a: r2(inv.dcCurrentA),
          dc_w: r2(inv.dcPowerKw * 1000),
          ac_v: r2(inv.acVoltageV),
          ac_a: r2(inv.acCurrentA),
          iw: r2(inv.acPowerKw * 1000),
          pf: r2(inv.powerFactor),
          hz: r2(inv.frequencyHz),
          today_wh: r2(inv.todayKwh * 1000),
          total_wh: Math.round(inv.totalKwh * 1000),
          fault_code: inv.faultCode,
          fault_hex: inv.faultCode ? faultHex(inv.faultCode) : null,
        };
      }
      case 2: {
        const b = r.connectionBoards[d.index];
        if (!b || (!sunUp && b.totalCurrentA === 0)) return null;
        return { v: r2(b.voltageV), total_a: r2(b.totalCurrentA), channels: Array.from(b.channelCurrentA, r2) };
      }
      case 4: {
        const e = r.envSensors[d.index];
        return e ? { his: r2(e.his), iis: r2(e.iis), sts: r2(e.sts), ats: r2(e.ats) } : null;
      }
      case 7:
      case 8: {
        const b = (d.kind === 7 ? r.vcbs : r.acbs)[d.index];
        if (!b) return null;
        const open = plant.openBreakers.has(d.uid);
        return {
          v: r2((b.voltageRsV + b.voltageStV + b.voltageTrV) / 3),
          a: open ? 0 : r2((b.currentRA + b.currentSA + b.currentTA) / 3),
          w: open ? 0 : r2(b.powerKw * 1000),
          pf: r2(b.powerFactor),
          state: open ? 0 : b.closed ? 1 : 0,
          gf_ma: r2(b.groundFaultMa),
        };
      }
    }
    return null;
  }

  private async send(rtuUid: string, readings: RawReading[], deferRollups: boolean): Promise<number> {
    let accepted = 0;
    // Batches of at most SEND_CHUNK readings, each its own transaction, with the event loop let go between them.
    for (let i = 0; i < readings.length; i += SEND_CHUNK) {
      if (i) await yieldToAnswers();
      const chunk = readings.slice(i, i + SEND_CHUNK);
      // In a replay, each batch "arrives" just after its newest reading.
      const receivedAt = deferRollups ? Math.max(...chunk.map((r) => r.ts as number)) + 5_000 : undefined;
      const res = await this.ingest.ingest(rtuUid, chunk, { deferRollups, receivedAt });
      accepted += res.accepted;
      if (res.rejected.length)
        this.opts.log?.(`simulator: ${res.rejected.length} readings rejected (${res.rejected[0]!.reason})`);
    }
    return accepted;
  }
}
