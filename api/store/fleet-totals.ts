/**
 * Fleet totals of SPEC §3 "Pvstatus overview response": per-inverter counters (devices), the
 * per-period counter pairs (calcValues) and the derived totals (total_capa, total_iw, total_pw,
 * yesterday_gen, today_gen, month_gen, year_gen, accrue_gen). Shared by GET /api/pvstatus and the
 * main dashboard: any screen that shows fleet totals computes them here, so they agree everywhere.
 */
import type { Kysely } from "kysely";
import { DEVICE_KIND } from "../../domain/device";
import { plausibleEnergyWh, plausiblePowerW, withinBounds } from "../../domain/physical-bounds";
import type { CalcValue, FleetTotals, OverviewDevice } from "../../domain/contract/pvstatus";
import { totalCapacityKw } from "../../domain/units";
import { DAY_MS, formatSeoul, seoulDayStart, seoulMonthStart, seoulYearStart } from "../../domain/seoul-time";
import type { PlantStatusRow } from "../../domain/contract/status";
import { FRESH_MS } from "./plant-status";
import type { Database } from "./schema";

/** Derived totals from status rows; `pw` (DC input, W) comes from the devices when known. */
export function fleetTotals(rows: readonly PlantStatusRow[], devices?: readonly OverviewDevice[]): FleetTotals {
  // Rounded to 0.01 so float noise (…9.96999997) never reaches a payload.
  const round = (n: number) => Math.round(n * 100) / 100;
  const sum = (f: (r: PlantStatusRow) => number) => round(rows.reduce((s, r) => s + (Number.isFinite(f(r)) ? f(r) : 0), 0));
  return {
    total_capa: totalCapacityKw(rows.map((r) => r.capa)),
    total_iw: sum((r) => r.iw),
    total_pw: round((devices ?? []).reduce((s, d) => s + d.pw, 0)),
    yesterday_gen: sum((r) => r.yesterday),
    today_gen: sum((r) => r.dailys),
    month_gen: sum((r) => r.month),
    year_gen: sum((r) => r.year),
    accrue_gen: sum((r) => r.accrue),
  };
}

interface DevicePast {
  month: number;
  year: number;
  yesterday: number;
}

const CHUNK = 500;
const PAST_TTL_MS = 10 * 60_000;
const pastCache = new Map<string, { at: number; day: number; past: DevicePast }>();

/** Energy of each inverter before today: this month, this year, yesterday (Wh); cached like plant-status. */
async function devicePast(db: Kysely<Database>, deviceUids: string[], today: number): Promise<Map<string, DevicePast>> {
  const out = new Map<string, DevicePast>();
  const missing: string[] = [];
  const wall = Date.now();
  for (const uid of deviceUids) {
    const hit = pastCache.get(uid);
    if (hit && hit.day === today && wall - hit.at < PAST_TTL_MS) out.set(uid, hit.past);
    else missing.push(uid);
  }
  const monthStart = seoulMonthStart(today);
  const yearStart = seoulYearStart(today);
  const yesterday = today - DAY_MS;
  for (let i = 0; i < missing.length; i += CHUNK) {
    const part = missing.slice(i, i + CHUNK);
    const rows = await db
      .selectFrom("rollup_daily")
      .select((eb) => [
        "device_uid",
        eb.fn.sum<number>(eb.case().when("day_ts", ">=", monthStart).then(eb.ref("energy_wh")).else(0).end()).as("month"),
        eb.fn.sum<number>(eb.case().when("day_ts", ">=", yearStart).then(eb.ref("energy_wh")).else(0).end()).as("year"),
        eb.fn.sum<number>(eb.case().when("day_ts", "=", yesterday).then(eb.ref("energy_wh")).else(0).end()).as("yesterday"),
      ])
      .where("device_uid", "in", part)
      .where("kind", "=", 1)
      .where("day_ts", ">=", Math.min(yearStart, yesterday))
      .where("day_ts", "<", today)
      .groupBy("device_uid")
      .execute();
    const found = new Map(rows.map((r) => [r.device_uid, r]));
    for (const uid of part) {
      const r = found.get(uid);
      const past = { month: Number(r?.month ?? 0), year: Number(r?.year ?? 0), yesterday: Number(r?.yesterday ?? 0) };
      pastCache.set(uid, { at: wall, day: today, past });
      out.set(uid, past);
    }
  }
  return out;
}

export interface DeviceOverview {
  devices: OverviewDevice[];
  calcValues: Record<"yesterday" | "thisMonth" | "thisYear" | "today" | "total", CalcValue[]>;
}

/**
 * Per-inverter counters of the given plants. Offsets are the lifetime counter at the start of each
 * period (today in Wh; month and year in kWh, SPEC §9 "offsets scaled by 1000"), so accrue − offset is
 * the period's generation.
 */
export async function deviceOverview(db: Kysely<Database>, plantUids: readonly string[], now: number): Promise<DeviceOverview> {
  const today = seoulDayStart(now);
  const rows: Array<{
    uid: string;
    plant_uid: string | null;
    capa: number | null;
    ts: number | null;
    iw: number | null;
    today_wh: number | null;
    total_wh: number | null;
    fault_code: number | null;
    values_json: string | null;
  }> = [];
  for (let i = 0; i < plantUids.length; i += CHUNK) {
    rows.push(
      ...(await db
        .selectFrom("device")
        .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
        .select([
          "device.uid",
          "device.plant_uid",
          "device.capa",
          "device_latest.ts",
          "device_latest.iw",
          "device_latest.today_wh",
          "device_latest.total_wh",
          "device_latest.fault_code",
          "device_latest.values_json",
        ])
        .where("device.plant_uid", "in", plantUids.slice(i, i + CHUNK))
        .where("device.kind", "=", 1)
        .where("device.use_yn", "=", 1)
        .orderBy("device.plant_uid")
        .orderBy("device.uid")
        .execute()),
    );
  }
  const past = await devicePast(
    db,
    rows.map((r) => r.uid),
    today,
  );
  const devices: OverviewDevice[] = [];
  const calcValues: DeviceOverview["calcValues"] = { yesterday: [], thisMonth: [], thisYear: [], today: [], total: [] };
  for (const r of rows) {
    const ts = r.ts === null ? null : Number(r.ts);
    const fresh = ts !== null && ts >= now - FRESH_MS;
    // SPEC §5 sanitising on read, with the bounds ingest applies (a row stored before them reads as 0).
    const daily = ts !== null && ts >= today ? plausibleEnergyWh(r.today_wh, r.capa, 24) : 0;
    const accrue = plausibleEnergyWh(r.total_wh, r.capa, 24 * 366 * 50);
    const p = past.get(r.uid) ?? { month: 0, year: 0, yesterday: 0 };
    let dc = 0;
    if (fresh && r.values_json) {
      try {
        dc = Number((JSON.parse(r.values_json) as { dc_w?: unknown }).dc_w ?? 0) || 0;
      } catch {
        dc = 0;
      }
    }
    const offsetDay = Math.max(0, accrue - daily);
    const offsetMonthWh = Math.max(0, accrue - daily - p.month);
    const offsetYearWh = Math.max(0, accrue - daily - p.year);
    devices.push({
      uid: r.uid,
      plant_uid: r.plant_uid ?? "",
      capa: Number(r.capa ?? 0),
      iw: fresh ? plausiblePowerW(r.iw, r.capa) : 0,
      pw: withinBounds(DEVICE_KIND.inverter, "dc_w", dc, r.capa) ? dc : 0,
      accrue,
      offset_day: offsetDay,
      offset_month: offsetMonthWh / 1000,
      offset_year: offsetYearWh / 1000,
      daily,
      fault: Number(r.fault_code ?? 0),
    });
    calcValues.today.push({ device: r.uid, start: today, accrue, offset: offsetDay });
    calcValues.yesterday.push({
      device: r.uid,
      start: today - DAY_MS,
      accrue: offsetDay,
      offset: Math.max(0, offsetDay - p.yesterday),
    });
    calcValues.thisMonth.push({ device: r.uid, start: seoulMonthStart(today), accrue, offset: offsetMonthWh });
    calcValues.thisYear.push({ device: r.uid, start: seoulYearStart(today), accrue, offset: offsetYearWh });
    calcValues.total.push({ device: r.uid, start: null, accrue, offset: 0 });
  }
  return { devices, calcValues };
}

/** Fleet generation per day for the last `days` days (today included, from the live counters). */
export async function dailyReports(
  db: Kysely<Database>,
  plantUids: readonly string[],
  now: number,
  todayGen: number,
  days = 7,
): Promise<Array<{ day: string; gen: number }>> {
  const today = seoulDayStart(now);
  const from = today - (days - 1) * DAY_MS;
  const sums = new Map<number, number>();
  for (let i = 0; i < plantUids.length; i += CHUNK) {
    const rows = await db
      .selectFrom("rollup_daily")
      .innerJoin("device", "device.uid", "rollup_daily.device_uid")
      .select((eb) => ["rollup_daily.day_ts", eb.fn.sum<number>("rollup_daily.energy_wh").as("gen")])
      .where("device.plant_uid", "in", plantUids.slice(i, i + CHUNK))
      .where("rollup_daily.kind", "=", 1)
      .where("rollup_daily.day_ts", ">=", from)
      .where("rollup_daily.day_ts", "<", today)
      .groupBy("rollup_daily.day_ts")
      .execute();
    for (const r of rows) sums.set(Number(r.day_ts), (sums.get(Number(r.day_ts)) ?? 0) + Number(r.gen ?? 0));
  }
  const out: Array<{ day: string; gen: number }> = [];
  for (let d = from; d <= today; d += DAY_MS) {
    out.push({ day: formatSeoul(d, "YYYY-MM-DD"), gen: d === today ? todayGen : (sums.get(d) ?? 0) });
  }
  return out;
}
