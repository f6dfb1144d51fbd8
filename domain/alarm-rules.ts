/**
 * The alarm rules (SPEC §3 Alarm, §4 plant status) as pure functions of what the store
 * knows now: RTU last-seen times, each device's newest reading, settings. The engine
 * (api/telemetry/alarm-engine.ts) turns the wanted set into raise/release writes.
 * Alarms are not noise: production alarms are judged only between sunrise and sunset, a
 * plant-wide cause raises one plant alarm instead of one per device, and an incident becomes
 * an alarm only after it has lasted the raise delay (`applyRaiseDelay`).
 */
import type { AlarmMessage } from "./alarm-message";
import { referenceGenerationKw } from "./reference-generation";
import type { AlarmSettings } from "./settings";
import { ALARM_CODE } from "./status";
import { emptySunPosition, sunPosition } from "./sun";

export const STEP_MS = 600_000;

const round2 = (v: number) => Math.round(v * 100) / 100;

export interface RtuView {
  uid: string;
  plant_uid: string;
  last_seen_at: number | null;
}
export interface DeviceView {
  uid: string;
  kind: number;
  rtu_uid: string | null;
  plant_uid: string;
  capa: number | null;
  latestTs: number | null;
  iw: number | null;
  fault_code: number | null;
  iis: number | null;
  his: number | null;
  sts: number | null;
}
export interface PlantView {
  uid: string;
  capa: number;
  /** Sun elevation at the plant now, degrees (domain/sun.ts). */
  sunElevationDeg: number;
  /**
   * Since when the sun has stood at least AWAKE_SUN_ELEVATION high at the plant today (`awakeSince`); null while
   * it is lower. An RTU that carries only inverters and connection boards has nothing to send at night.
   */
  awakeSince: number | null;
}

/** Sunrise and sunset are when the sun's upper limb crosses the refracted horizon (domain/sun.ts). */
export const SUNRISE_ELEVATION_DEG = -0.833;
/** Between sunrise and sunset at the plant: the window in which production alarms count. */
export const inDaylight = (p: Pick<PlantView, "sunElevationDeg">) => p.sunElevationDeg > SUNRISE_ELEVATION_DEG;

/** Inverters wake when the array sees light: judged by the plant's sensor, else by the sun well above the horizon. */
export const AWAKE_IRRADIANCE = 50;
export const AWAKE_SUN_ELEVATION = 15;

/**
 * Since when the sun has stood at least AWAKE_SUN_ELEVATION above the plant, to the minute, or null when it stands
 * lower now. Searched backwards in half hours, then halved down to a minute: at most ~40 sun positions.
 */
export function awakeSince(now: number, latDeg: number, lonDeg: number): number | null {
  const sun = emptySunPosition();
  const high = (t: number) => sunPosition(t, latDeg, lonDeg, sun).elevationDeg >= AWAKE_SUN_ELEVATION;
  if (!high(now)) return null;
  const HALF_HOUR = 1_800_000;
  let up = now;
  let down = now - HALF_HOUR;
  while (high(down)) {
    up = down;
    down -= HALF_HOUR;
    // Polar summer: the sun never set; awake for as long as anyone would look back.
    if (now - down > 86_400_000) return down;
  }
  while (up - down > 60_000) {
    const mid = Math.floor((up + down) / 2);
    if (high(mid)) up = mid;
    else down = mid;
  }
  return up;
}

export interface WantedAlarm {
  key: string;
  plant_uid: string;
  rtu_uid: string | null;
  device_uid: string | null;
  code: number;
  level: number;
  fault_code: number | null;
  /** What was found, as a code with parameters (domain/alarm-message.ts renders it in the reader's language). */
  message: AlarmMessage;
}

/** Alarms whose condition cannot be judged now (e.g. at night, RTU offline) are left as they are. */
export interface Evaluation {
  wanted: WantedAlarm[];
  /** Keys whose open alarms must be kept whatever `wanted` says. */
  undecided: Set<string>;
}

export const alarmKey = (code: number, plant: string, subject: string | null) => `${code}:${plant}:${subject ?? ""}`;

export interface FaultName {
  code: number;
  name: string;
  level: number;
}

const INVERTER = 1;
const BOARD = 2;
const ENV = 4;
/** An inverter last heard below this output (W) was going to sleep. */
export const DUSK_OUTPUT_W = 1_000;

export function evaluateAlarms(input: {
  now: number;
  settings: AlarmSettings;
  plants: PlantView[];
  rtus: RtuView[];
  devices: DeviceView[];
  faultNames: FaultName[];
  /** Open 1000004 alarms, for hysteresis. */
  openLowGeneration: Set<string>;
}): Evaluation {
  const { now, settings } = input;
  const wanted: WantedAlarm[] = [];
  const undecided = new Set<string>();
  const plants = new Map(input.plants.map((p) => [p.uid, p]));
  const rtuSilentAfter = settings.rtuSilentIntervals * STEP_MS;
  const deviceSilentAfter = settings.deviceSilentIntervals * STEP_MS;

  const silentRtus = new Set<string>();
  const newestByRtu = new Map<string, number>();
  // RTUs that went to sleep with their devices: every device sleeps at night (inverters, connection boards) and
  // the inverters were last heard producing next to nothing (dusk). Such an RTU has nothing to send in the dark;
  // one that fell silent while its inverters produced is judged by the clock at any hour.
  // (An inverter that had stopped answering before its RTU's last report tells nothing of dusk.)
  for (const d of input.devices) {
    if (d.rtu_uid && d.latestTs !== null) newestByRtu.set(d.rtu_uid, Math.max(newestByRtu.get(d.rtu_uid) ?? 0, d.latestTs));
  }
  const sleepingRtu = new Map<string, boolean>();
  for (const d of input.devices) {
    if (!d.rtu_uid) continue;
    const lastWord = d.latestTs !== null && d.latestTs >= (newestByRtu.get(d.rtu_uid) ?? 0) - deviceSilentAfter;
    const sleeps = d.kind === BOARD || (d.kind === INVERTER && (!lastWord || (d.iw ?? 0) < DUSK_OUTPUT_W));
    sleepingRtu.set(d.rtu_uid, (sleepingRtu.get(d.rtu_uid) ?? true) && sleeps);
  }
  for (const r of input.rtus) {
    // An RTU that never reported is not "disconnected": it was never connected.
    if (r.last_seen_at === null) continue;
    let since = r.last_seen_at;
    if (sleepingRtu.get(r.uid)) {
      // Its silence counts from the morning: at night it is judged neither way (an alarm raised by day stays).
      const woke = plants.get(r.plant_uid)?.awakeSince ?? null;
      if (woke === null) {
        if (now - since > rtuSilentAfter) {
          silentRtus.add(r.uid);
          undecided.add(alarmKey(ALARM_CODE.internetDisconnected, r.plant_uid, r.uid));
        }
        continue;
      }
      since = Math.max(since, woke);
    }
    if (now - since > rtuSilentAfter) {
      silentRtus.add(r.uid);
      wanted.push({
        key: alarmKey(ALARM_CODE.internetDisconnected, r.plant_uid, r.uid),
        plant_uid: r.plant_uid,
        rtu_uid: r.uid,
        device_uid: null,
        code: ALARM_CODE.internetDisconnected,
        level: 4,
        fault_code: null,
        message: { code: "rtu_silent", params: { rtu: r.uid, since: r.last_seen_at } },
      });
    }
  }

  const byPlant = new Map<string, DeviceView[]>();
  for (const d of input.devices) byPlant.set(d.plant_uid, [...(byPlant.get(d.plant_uid) ?? []), d]);
  const fresh = (d: DeviceView) => d.latestTs !== null && now - d.latestTs <= deviceSilentAfter;
  const sensorOf = (plantUid: string) => (byPlant.get(plantUid) ?? []).find((d) => d.kind === ENV && fresh(d) && d.iis !== null);
  const awake = new Map<string, boolean>();
  for (const p of input.plants) {
    const sensor = sensorOf(p.uid);
    awake.set(p.uid, sensor ? sensor.iis! >= AWAKE_IRRADIANCE : p.sunElevationDeg >= AWAKE_SUN_ELEVATION);
  }

  for (const d of input.devices) {
    const plant = plants.get(d.plant_uid);
    if (!plant || !d.rtu_uid) continue;
    const commKey = alarmKey(ALARM_CODE.communicationFault, d.plant_uid, d.uid);
    const faultKey = alarmKey(ALARM_CODE.inverterFault, d.plant_uid, d.uid);
    // Device silence is judged against an RTU that is reporting now; history being replayed is not "now".
    if (silentRtus.has(d.rtu_uid) || !newestByRtu.has(d.rtu_uid) || now - newestByRtu.get(d.rtu_uid)! > rtuSilentAfter) {
      undecided.add(commKey);
      undecided.add(faultKey);
      continue;
    }
    // Inverters and connection boards sleep at night; their silence then is not a fault.
    const sleeps = (d.kind === INVERTER || d.kind === BOARD) && !awake.get(plant.uid);
    const rtuNewest = newestByRtu.get(d.rtu_uid)!;
    const stale = d.latestTs === null || rtuNewest - d.latestTs > deviceSilentAfter;
    if (stale && !sleeps) {
      wanted.push({
        key: commKey,
        plant_uid: d.plant_uid,
        rtu_uid: d.rtu_uid,
        device_uid: d.uid,
        code: ALARM_CODE.communicationFault,
        level: 3,
        fault_code: null,
        message: { code: "device_silent", params: { device: d.uid } },
      });
    } else if (stale) {
      undecided.add(commKey);
    }
    if (d.kind === INVERTER) {
      if (stale) undecided.add(faultKey);
      else if (d.fault_code) {
        const names = input.faultNames.filter((f) => (d.fault_code! & f.code) === f.code && f.code !== 0);
        wanted.push({
          key: faultKey,
          plant_uid: d.plant_uid,
          rtu_uid: d.rtu_uid,
          device_uid: d.uid,
          code: ALARM_CODE.inverterFault,
          level: names.length ? Math.max(...names.map((n) => n.level)) : 3,
          fault_code: d.fault_code,
          message: { code: "inverter_fault", params: { faultCode: d.fault_code } },
        });
      }
    }
  }

  // 1000004: an inverter generating clearly below its temperature-corrected reference, judged only in sunlight.
  for (const plant of input.plants) {
    const devices = byPlant.get(plant.uid) ?? [];
    const sensor = sensorOf(plant.uid);
    const inverters = devices.filter((d) => d.kind === INVERTER);
    const judged = inDaylight(plant) && !!sensor && sensor.iis! >= settings.minIrradiance;
    const share = inverters.length ? plant.capa / inverters.length : 0;
    for (const inv of inverters) {
      const key = alarmKey(ALARM_CODE.abnormalTodayGeneration, plant.uid, inv.uid);
      // Faults and silence have alarms of their own; they are not judged as low generation.
      if (!judged || !fresh(inv) || inv.fault_code) {
        undecided.add(key);
        continue;
      }
      const referenceKw = referenceGenerationKw((inv.capa ?? share) * 0.01, sensor!.iis!, sensor!.sts ?? 25);
      const actualKw = (inv.iw ?? 0) / 1000;
      const ratio = referenceKw > 0 ? actualKw / referenceKw : 1;
      const open = input.openLowGeneration.has(key);
      if (open ? ratio < settings.lowGenerationReleaseRatio : ratio < settings.lowGenerationRatio) {
        wanted.push({
          key,
          plant_uid: plant.uid,
          rtu_uid: inv.rtu_uid,
          device_uid: inv.uid,
          code: ALARM_CODE.abnormalTodayGeneration,
          level: 2,
          fault_code: null,
          message: {
            code: "low_generation",
            params: { actualKw: round2(actualKw), referenceKw: round2(referenceKw), ratio: Math.round(ratio * 100) },
          },
        });
      }
    }
  }
  // A plant alarm stands for its devices' alarms: it is undecided whenever one of theirs is.
  for (const key of [...undecided]) {
    const [code, plantUid] = key.split(":");
    if (PLANT_WIDE_CODES.has(Number(code)) || Number(code) === ALARM_CODE.internetDisconnected)
      undecided.add(alarmKey(Number(code), plantUid!, null));
  }
  return { wanted: collapsePlantWide(wanted, input.rtus, input.devices), undecided };
}

/** Codes a plant-wide cause can raise on every inverter (or every RTU) at once. */
const PLANT_WIDE_CODES = new Set<number>([
  ALARM_CODE.communicationFault,
  ALARM_CODE.abnormalTodayGeneration,
  ALARM_CODE.inverterFault,
]);

/**
 * One plant alarm for a plant-wide outage: when every inverter of a plant (two or more) wants the same
 * code, or every RTU of a plant (two or more) is silent, the plant gets one alarm of that code (no device,
 * no RTU) in place of the per-device ones, at the highest level among them.
 */
export function collapsePlantWide(wanted: WantedAlarm[], rtus: RtuView[], devices: DeviceView[]): WantedAlarm[] {
  const invertersOf = new Map<string, Set<string>>();
  for (const d of devices)
    if (d.kind === INVERTER) invertersOf.set(d.plant_uid, (invertersOf.get(d.plant_uid) ?? new Set()).add(d.uid));
  const rtusOf = new Map<string, Set<string>>();
  for (const r of rtus) rtusOf.set(r.plant_uid, (rtusOf.get(r.plant_uid) ?? new Set()).add(r.uid));
  const groups = new Map<string, WantedAlarm[]>();
  for (const w of wanted) {
    const g = `${w.plant_uid}|${w.code}`;
    groups.set(g, [...(groups.get(g) ?? []), w]);
  }
  const out: WantedAlarm[] = [];
  for (const list of groups.values()) {
    const { plant_uid, code } = list[0]!;
    let whole = false;
    let of: "rtus" | "inverters" = "inverters";
    let count = 0;
    if (code === ALARM_CODE.internetDisconnected) {
      const all = rtusOf.get(plant_uid) ?? new Set();
      whole = all.size >= 2 && [...all].every((r) => list.some((w) => w.rtu_uid === r));
      of = "rtus";
      count = all.size;
    } else if (PLANT_WIDE_CODES.has(code)) {
      const all = invertersOf.get(plant_uid) ?? new Set();
      whole = all.size >= 2 && [...all].every((i) => list.some((w) => w.device_uid === i));
      count = all.size;
    }
    if (!whole) {
      out.push(...list);
      continue;
    }
    out.push({
      key: alarmKey(code, plant_uid, null),
      plant_uid,
      rtu_uid: null,
      device_uid: null,
      code,
      level: Math.max(...list.map((w) => w.level)),
      fault_code: null,
      message: { code: "plant_wide", params: { of, count, detail: list[0]!.message } },
    });
  }
  return out;
}

/**
 * The raise delay: a wanted alarm that is not open yet is an incident until it has lasted `delayMs`.
 * `incidents` maps keys to the time they were first seen; the answer says which keys are due now and
 * which incidents remain (keys no longer wanted are forgotten, so a condition that comes and goes
 * starts over).
 */
export function applyRaiseDelay(
  wantedKeys: Iterable<string>,
  open: Set<string>,
  incidents: Map<string, number>,
  now: number,
  delayMs: number,
): { due: Set<string>; incidents: Map<string, number> } {
  const due = new Set<string>();
  const next = new Map<string, number>();
  for (const key of wantedKeys) {
    if (open.has(key)) continue;
    const first = incidents.get(key) ?? now;
    if (now - first >= delayMs) due.add(key);
    else next.set(key, first);
  }
  return { due, incidents: next };
}
