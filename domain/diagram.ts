/**
 * The single-line diagram of a plant, built from its devices (SPEC §3 Device kinds 1, 2, 7, 8) along the
 * electrical path from the grid: grid connection point → VCB (high-voltage receiving breaker) → transformer →
 * ACB (low-voltage breaker) → inverters → connection boards → strings (the board's channels).
 *
 * The store keeps no wiring between devices, so the wiring is the plant's convention, the one the fleet
 * simulator plays: the k-th connection board feeds the (k mod n)-th inverter, inverters are shared out over
 * the ACBs in turn (i mod ACBs), ACBs over the transformers, and there is one transformer behind each VCB
 * (a plant without a VCB is connected at low voltage: no transformer is drawn). Devices are taken in
 * address order (then uid).
 *
 * Each element gets a condition in words (domain, not colour): an open alarm on the device, or on the
 * gateway it reports through, makes it `alarm`; an open breaker `open`; a reading older than 30 min
 * `stale`; none at all `nodata`. Pure: the API reads devices, latest readings and open alarms and asks here.
 */
import type { Condition, DiagramDevice, DiagramElement, ElementAlarm, ElementValues, SensorReading } from "./contract/diagram";

/** A reading is current this long (the status screens' FRESH_MS). */
export const DIAGRAM_FRESH_MS = 30 * 60_000;

export interface TopologyDevice {
  uid: string;
  kind: number;
  name: string;
  rtu_uid: string | null;
  address: number | null;
  /** Newest reading: time and its values as the gateway sent them (device_latest.values_json). */
  ts: number | null;
  values: Record<string, unknown> | null;
}

export interface TopologyAlarm {
  device_uid: string | null;
  rtu_uid: string | null;
  code: number;
  level: number;
  message: string;
  raised_at: number;
}

/** A string is `low` below this share of its board's median current, once the median is worth judging. */
export const LOW_STRING_RATIO = 0.5;
export const LOW_STRING_MIN_A = 0.5;

export function medianOf(values: readonly number[]): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A board's string currents: stored comma-joined ("8.1,7.9,…"), or as a list as the gateway sent them. */
export function channelCurrents(raw: unknown): Array<number | null> {
  const list = Array.isArray(raw) ? raw : typeof raw === "string" && raw.trim() ? raw.split(",") : [];
  return list.map((x) => num(typeof x === "string" && x.trim() !== "" ? Number(x) : x));
}

/** The values the diagram shows for a device of a kind, from its newest reading. */
export function elementValues(kind: number, raw: Record<string, unknown> | null): ElementValues {
  if (!raw) return {};
  switch (kind) {
    case 1:
      return {
        w: num(raw.iw),
        v: num(raw.ac_v),
        a: num(raw.ac_a),
        today_wh: num(raw.today_wh),
        fault_code: num(raw.fault_code) || null,
      };
    case 2:
      return { v: num(raw.v), a: num(raw.total_a) };
    case 7:
    case 8: {
      const state = num(raw.state);
      return {
        w: num(raw.w),
        v: num(raw.v),
        a: num(raw.a),
        gf_ma: num(raw.gf_ma),
        breaker: state === null ? null : state === 1 ? "closed" : "open",
      };
    }
    default:
      return {};
  }
}

/** The most severe open alarm (highest level, then newest) of those given. */
export function worstAlarm(alarms: readonly TopologyAlarm[]): ElementAlarm | null {
  let worst: TopologyAlarm | null = null;
  for (const a of alarms) {
    if (!worst || a.level > worst.level || (a.level === worst.level && a.raised_at > worst.raised_at)) worst = a;
  }
  return worst ? { code: worst.code, level: worst.level, message: worst.message, raised_at: worst.raised_at } : null;
}

/** The alarms that concern a device: its own, and its gateway's (an RTU that went silent silences its devices). */
export function alarmsOfDevice(
  device: Pick<TopologyDevice, "uid" | "rtu_uid">,
  alarms: readonly TopologyAlarm[],
): TopologyAlarm[] {
  return alarms.filter((a) => a.device_uid === device.uid || (!a.device_uid && !!a.rtu_uid && a.rtu_uid === device.rtu_uid));
}

export function deviceCondition(
  device: TopologyDevice,
  values: ElementValues,
  alarm: ElementAlarm | null,
  now: number,
): Condition {
  if (alarm) return "alarm";
  if (device.ts === null) return "nodata";
  if (now - device.ts > DIAGRAM_FRESH_MS) return "stale";
  if (values.breaker === "open") return "open";
  return "ok";
}

/** Every device with its live state, flat (also what an uploaded drawing's bindings read). */
export function deviceStates(devices: readonly TopologyDevice[], alarms: readonly TopologyAlarm[], now: number): DiagramDevice[] {
  return devices.map((d) => {
    const values = elementValues(d.kind, d.values);
    const alarm = worstAlarm(alarmsOfDevice(d, alarms));
    return {
      device_uid: d.uid,
      kind: d.kind,
      name: d.name,
      ts: d.ts,
      values,
      alarm,
      condition: deviceCondition(d, values, alarm, now),
    };
  });
}

const byAddress = (a: TopologyDevice, b: TopologyDevice) =>
  (a.address ?? Number.MAX_SAFE_INTEGER) - (b.address ?? Number.MAX_SAFE_INTEGER) || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);

const TYPE_OF_KIND: Record<number, DiagramElement["type"]> = { 1: "inverter", 2: "board", 7: "vcb", 8: "acb" };

/** Names of the elements without a device: the electrical abbreviations, the same in Korean and English. */
export const VIRTUAL_NAMES = { grid: "GRID", transformer: "TR", string: "S" } as const;

/** The single-line tree of a plant. */
export function buildSingleLine(
  devices: readonly TopologyDevice[],
  alarms: readonly TopologyAlarm[],
  now: number,
  names: { grid: string; transformer: string; string: string } = VIRTUAL_NAMES,
): DiagramElement {
  const states = new Map(deviceStates(devices, alarms, now).map((s) => [s.device_uid, s]));
  const element = (d: TopologyDevice): DiagramElement => {
    const s = states.get(d.uid)!;
    return {
      id: `dev:${d.uid}`,
      type: TYPE_OF_KIND[d.kind]!,
      name: d.name,
      device_uid: d.uid,
      kind: d.kind,
      ts: d.ts,
      values: s.values,
      condition: s.condition,
      alarm: s.alarm,
      children: [],
    };
  };
  const virtual = (id: string, type: DiagramElement["type"], name: string): DiagramElement => ({
    id,
    type,
    name,
    device_uid: null,
    kind: null,
    ts: null,
    values: {},
    condition: "none",
    alarm: null,
    children: [],
  });
  const of = (kind: number) => devices.filter((d) => d.kind === kind).sort(byAddress);

  const grid = virtual("grid", "grid", names.grid);
  const vcbs = of(7).map(element);
  const transformers = vcbs.map((v, i) => {
    const tr = virtual(`tr-${i + 1}`, "transformer", vcbs.length > 1 ? `${names.transformer} ${i + 1}` : names.transformer);
    v.children.push(tr);
    return tr;
  });
  grid.children.push(...vcbs);
  const acbs = of(8).map(element);
  acbs.forEach((a, i) => (transformers.length ? transformers[i % transformers.length]!.children : grid.children).push(a));
  const feeders: DiagramElement[] = acbs.length ? acbs : transformers.length ? transformers : [grid];
  const inverters = of(1).map(element);
  inverters.forEach((inv, i) => feeders[i % feeders.length]!.children.push(inv));
  const boardDevices = of(2);
  boardDevices.forEach((b, k) => {
    const board = element(b);
    const currents = channelCurrents(b.values?.channels);
    const median = medianOf(currents.filter((a): a is number => a !== null));
    currents.forEach((_, n) => {
      const a = currents[n] ?? null;
      const condition: Condition =
        board.condition !== "ok" && board.condition !== "open"
          ? board.condition
          : a !== null && median >= LOW_STRING_MIN_A && a < median * LOW_STRING_RATIO
            ? "low"
            : "ok";
      board.children.push({
        id: `str:${b.uid}:${n + 1}`,
        type: "string",
        name: `${names.string}${n + 1}`,
        device_uid: b.uid,
        kind: 2,
        ts: b.ts,
        values: { a },
        condition,
        alarm: null,
        children: [],
      });
    });
    (inverters.length ? inverters[k % inverters.length]!.children : feeders[k % feeders.length]!.children).push(board);
  });
  return grid;
}

/** Every element of a tree, depth first. */
export function flattenElements(root: DiagramElement): DiagramElement[] {
  const out: DiagramElement[] = [];
  const walk = (e: DiagramElement) => {
    out.push(e);
    e.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** The newest readings of a plant's environment sensors (kind 4). */
export function sensorReadings(devices: readonly TopologyDevice[], states: readonly DiagramDevice[]): SensorReading[] {
  const byUid = new Map(states.map((s) => [s.device_uid, s]));
  return devices
    .filter((d) => d.kind === 4)
    .sort(byAddress)
    .map((d) => {
      const v = d.values ?? {};
      return {
        device_uid: d.uid,
        name: d.name,
        ts: d.ts,
        his: num(v.his),
        iis: num(v.iis),
        sts: num(v.sts),
        ats: num(v.ats),
        condition: byUid.get(d.uid)?.condition ?? "nodata",
      };
    });
}

/** The diagram and custom pages refresh once a minute: gateways report every 10 minutes, kiosks stay light. */
export const DIAGRAM_REFRESH_MS = 60_000;
