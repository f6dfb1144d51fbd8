// Operation and warning totals of the watch screen (SPEC §3 "Plant in status data", §4 "Selecting a
// tree node"). Pure: the API feeds it device states and open alarms, the portal only displays it.
//
// Device categories: inverters ('inv', kind 1), environment sensors ('env', kind 4) and the grid side
// ('grid': connection boards 2, VCB 7, ACB 8).
//
// Operation totals per category:
//   total      devices in use
//   breaking   devices in fault: an open alarm names the device, or its RTU has an open
//              internet-disconnected (1000003) alarm, so nothing it reports can be trusted
//   normal     total − breaking
//   generating devices whose newest reading is fresh (≤ 30 min) and shows work being done:
//              inverters output > 0 W; sensors plane-of-array (or horizontal) irradiance > 0;
//              boards current > 0; breakers closed (state 1) with power > 0
//   stopped    total − generating
// Warning totals per category: open alarms by level 1–4 (interest, caution, warning, severe). An alarm
// without a device (the RTU's internet disconnection) counts under inverters, whose generation it hides.

export const DEVICE_CATEGORIES = ["inv", "env", "grid"] as const;
export type DeviceCategory = (typeof DEVICE_CATEGORIES)[number];

export function deviceCategory(kind: number): DeviceCategory | null {
  if (kind === 1) return "inv";
  if (kind === 4) return "env";
  if (kind === 2 || kind === 7 || kind === 8) return "grid";
  return null;
}

/** A device reading is current this long (matches the status screens' FRESH_MS). */
export const OPERATION_FRESH_MS = 30 * 60_000;

export interface DeviceState {
  kind: number;
  /** Newest reading time, epoch ms; null when it never reported. */
  ts: number | null;
  /** Output W (inverter), power W (breaker). */
  w?: number | null;
  /** Irradiance W/m² (sensor): plane of array, horizontal. */
  iis?: number | null;
  his?: number | null;
  /** Total current A (connection board). */
  a?: number | null;
  /** Breaker state: 1 closed, 0 open. */
  state?: number | null;
  /** An open alarm names this device, or its RTU is disconnected. */
  faulted: boolean;
}

const pos = (v: number | null | undefined) => typeof v === "number" && Number.isFinite(v) && v > 0;

export function isGenerating(d: DeviceState, now: number): boolean {
  if (d.ts === null || now - d.ts > OPERATION_FRESH_MS) return false;
  switch (deviceCategory(d.kind)) {
    case "inv":
      return pos(d.w);
    case "env":
      return pos(d.iis) || pos(d.his);
    case "grid":
      return d.kind === 2 ? pos(d.a) || pos(d.w) : d.state === 1 && pos(d.w);
    default:
      return false;
  }
}

export interface OperationCounts {
  total: number;
  breaking: number;
  normal: number;
  generating: number;
  stopped: number;
}
export type OperationTotals = Record<DeviceCategory, OperationCounts>;
/** Alarms by level: index 0..3 = levels 1..4. */
export type WarningTotals = Record<DeviceCategory, [number, number, number, number]>;

export function emptyOperationTotals(): OperationTotals {
  const zero = (): OperationCounts => ({ total: 0, breaking: 0, normal: 0, generating: 0, stopped: 0 });
  return { inv: zero(), env: zero(), grid: zero() };
}

export function emptyWarningTotals(): WarningTotals {
  return { inv: [0, 0, 0, 0], env: [0, 0, 0, 0], grid: [0, 0, 0, 0] };
}

export function operationTotals(devices: Iterable<DeviceState>, now: number): OperationTotals {
  const t = emptyOperationTotals();
  for (const d of devices) {
    const cat = deviceCategory(d.kind);
    if (!cat) continue;
    const c = t[cat];
    c.total += 1;
    if (d.faulted) c.breaking += 1;
    else c.normal += 1;
    if (isGenerating(d, now)) c.generating += 1;
    else c.stopped += 1;
  }
  return t;
}

export interface AlarmLevelEntry {
  /** Kind of the device the alarm names; null for an RTU-level alarm. */
  deviceKind: number | null;
  level: number;
}

export function warningTotals(alarms: Iterable<AlarmLevelEntry>): WarningTotals {
  const t = emptyWarningTotals();
  for (const a of alarms) {
    if (!(a.level >= 1 && a.level <= 4)) continue;
    const cat = a.deviceKind === null ? "inv" : deviceCategory(a.deviceKind);
    if (cat) t[cat][a.level - 1] += 1;
  }
  return t;
}

export function addOperationTotals(a: OperationTotals, b: OperationTotals): OperationTotals {
  const out = emptyOperationTotals();
  for (const cat of DEVICE_CATEGORIES) {
    for (const k of Object.keys(out[cat]) as (keyof OperationCounts)[]) out[cat][k] = a[cat][k] + b[cat][k];
  }
  return out;
}

export function addWarningTotals(a: WarningTotals, b: WarningTotals): WarningTotals {
  const out = emptyWarningTotals();
  for (const cat of DEVICE_CATEGORIES) for (let i = 0; i < 4; i++) out[cat][i] = a[cat][i]! + b[cat][i]!;
  return out;
}

/**
 * The flat counters of SPEC §3 "Plant in status data": inv_warn_1..4, grid_warn_1..4, env_warn_1..4 and
 * total_x, b_x (breaking), nb_x (normal), g_x (generating), ng_x (stopped) for x in inv, grid, env.
 */
export type StatusDataCounters = Record<
  `${DeviceCategory}_warn_${1 | 2 | 3 | 4}` | `${"total" | "b" | "nb" | "g" | "ng"}_${DeviceCategory}`,
  number
>;

export function statusDataCounters(op: OperationTotals, warn: WarningTotals): StatusDataCounters {
  const out: Record<string, number> = {};
  for (const cat of DEVICE_CATEGORIES) {
    warn[cat].forEach((n, i) => (out[`${cat}_warn_${i + 1}`] = n));
    out[`total_${cat}`] = op[cat].total;
    out[`b_${cat}`] = op[cat].breaking;
    out[`nb_${cat}`] = op[cat].normal;
    out[`g_${cat}`] = op[cat].generating;
    out[`ng_${cat}`] = op[cat].stopped;
  }
  return out as StatusDataCounters;
}
