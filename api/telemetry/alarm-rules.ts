/**
 * The alarm rules (SPEC §3 Alarm, §4 plant status) as pure functions of what the store
 * knows now: RTU last-seen times, each device's newest reading, settings. The engine turns
 * the wanted set into raise/release writes.
 */
import { referenceGenerationKw } from "../../domain/reference-generation";
import { ALARM_CODE } from "../../domain/status";
import type { AlarmSettings } from "../../domain/settings";

export const STEP_MS = 600_000;

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
  /** Sun elevation at the plant now, degrees. */
  sunElevationDeg: number;
}

/** Inverters wake when the array sees light: judged by the plant's sensor, else by the sun well above the horizon. */
export const AWAKE_IRRADIANCE = 50;
export const AWAKE_SUN_ELEVATION = 15;

export interface WantedAlarm {
  key: string;
  plant_uid: string;
  rtu_uid: string | null;
  device_uid: string | null;
  code: number;
  level: number;
  fault_code: number | null;
  message: string;
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
  for (const d of input.devices) {
    if (d.rtu_uid && d.latestTs !== null) newestByRtu.set(d.rtu_uid, Math.max(newestByRtu.get(d.rtu_uid) ?? 0, d.latestTs));
  }
  for (const r of input.rtus) {
    // An RTU that never reported is not "disconnected": it was never connected.
    if (r.last_seen_at === null) continue;
    if (now - r.last_seen_at > rtuSilentAfter) {
      silentRtus.add(r.uid);
      wanted.push({
        key: alarmKey(ALARM_CODE.internetDisconnected, r.plant_uid, r.uid), plant_uid: r.plant_uid, rtu_uid: r.uid,
        device_uid: null, code: ALARM_CODE.internetDisconnected, level: 4, fault_code: null,
        message: `RTU ${r.uid} silent since ${new Date(r.last_seen_at).toISOString()}`,
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
        key: commKey, plant_uid: d.plant_uid, rtu_uid: d.rtu_uid, device_uid: d.uid,
        code: ALARM_CODE.communicationFault, level: 3, fault_code: null, message: `device ${d.uid} not answering`,
      });
    } else if (stale) {
      undecided.add(commKey);
    }
    if (d.kind === INVERTER) {
      if (stale) undecided.add(faultKey);
      else if (d.fault_code) {
        const names = input.faultNames.filter((f) => (d.fault_code! & f.code) === f.code && f.code !== 0);
        wanted.push({
          key: faultKey, plant_uid: d.plant_uid, rtu_uid: d.rtu_uid, device_uid: d.uid, code: ALARM_CODE.inverterFault,
          level: names.length ? Math.max(...names.map((n) => n.level)) : 3, fault_code: d.fault_code,
          message: names.length ? names.map((n) => n.name).join(", ") : `fault 0x${d.fault_code.toString(16).toUpperCase()}`,
        });
      }
    }
  }

  // 1000004: an inverter generating clearly below its temperature-corrected reference, judged only in sunlight.
  for (const plant of input.plants) {
    const devices = byPlant.get(plant.uid) ?? [];
    const sensor = sensorOf(plant.uid);
    const inverters = devices.filter((d) => d.kind === INVERTER);
    const judged = plant.sunElevationDeg > 0 && !!sensor && sensor.iis! >= settings.minIrradiance;
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
          key, plant_uid: plant.uid, rtu_uid: inv.rtu_uid, device_uid: inv.uid, code: ALARM_CODE.abnormalTodayGeneration,
          level: 2, fault_code: null,
          message: `${actualKw.toFixed(1)} kW is ${(ratio * 100).toFixed(0)} % of the reference ${referenceKw.toFixed(1)} kW`,
        });
      }
    }
  }
  return { wanted, undecided };
}
