/**
 * Queries of the measurement calls: the newest reading of devices (device_latest, whose values_json is the
 * reading as ingested), their RTU's configuration, open alarms, the fault-code table, and 10-minute series of
 * an RTU's devices over a window.
 */
import { sql, type Kysely } from "kysely";
import type { DeviceMeasurement, DeviceRef, DeviceSeries } from "../../domain/contract/measurement";
import { decodeFaultRegister, type FaultCodeRow } from "../../domain/fault-register";
import { checkStrings, conversionEfficiency } from "../../domain/performance";
import { hasRtuConfig } from "../../domain/rtu-config";
import { sanitizeGeneration, sanitizeIrradiance, sanitizeModuleTemperature } from "../../domain/sanitize";
import { capacityKw } from "../../domain/units";
import { canSeePlant, type Reach } from "../../domain/visibility";
import type { Database } from "./schema";

type Db = Kysely<Database>;

const num = (v: unknown): number | null =>
  typeof v === "number" && Number.isFinite(v)
    ? v
    : typeof v === "string" && v !== "" && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const div = (v: number | null, d: number) => (v === null ? null : v / d);

export async function faultTable(db: Db): Promise<FaultCodeRow[]> {
  return (await db.selectFrom("fault_code").selectAll().orderBy("code").execute()).map((r) => ({
    ...r,
    code: Number(r.code),
    level: Number(r.level),
  }));
}

/** Device rows with plant name and RTU config, in the order given (or by name). */
export async function deviceRefs(db: Db, where: { uids?: string[]; plantUid?: string; rtuUid?: string; kinds?: number[] }) {
  let q = db
    .selectFrom("device")
    .leftJoin("plant", "plant.uid", "device.plant_uid")
    .leftJoin("rtu", "rtu.uid", "device.rtu_uid")
    .select([
      "device.uid",
      "device.kind",
      "device.name",
      "device.capa",
      "device.address",
      "device.plant_uid",
      "device.rtu_uid",
      "plant.name as plant_name",
      "rtu.config",
      "rtu.mac",
    ])
    .where("device.use_yn", "=", 1);
  if (where.uids) q = q.where("device.uid", "in", where.uids.length ? where.uids : [""]);
  if (where.plantUid) q = q.where("device.plant_uid", "=", where.plantUid);
  if (where.rtuUid) q = q.where("device.rtu_uid", "=", where.rtuUid);
  if (where.kinds) q = q.where("device.kind", "in", where.kinds);
  const rows = await q.orderBy("device.kind").orderBy("device.address").orderBy("device.uid").execute();
  return rows.map((r) => ({
    ref: {
      uid: r.uid,
      kind: Number(r.kind),
      name: r.name,
      plantUid: r.plant_uid,
      plantName: r.plant_name ?? null,
      rtuUid: r.rtu_uid,
      capacityKw: r.capa === null ? null : capacityKw(Number(r.capa)),
      address: r.address === null ? null : Number(r.address),
      mac: r.mac ?? null,
    } satisfies DeviceRef,
    invDetail: hasRtuConfig(r.config === null ? null : Number(r.config), "invDetail"),
  }));
}

/** Each device's newest reading, decoded per kind. */
export async function latestMeasurements(
  db: Db,
  devices: Array<{ ref: DeviceRef; invDetail: boolean }>,
  includeInverterDetails: boolean,
): Promise<DeviceMeasurement[]> {
  const uids = devices.map((d) => d.ref.uid);
  const latest = uids.length
    ? await db.selectFrom("device_latest").select(["device_uid", "ts", "values_json"]).where("device_uid", "in", uids).execute()
    : [];
  const byUid = new Map(latest.map((l) => [l.device_uid, l]));
  const breakers = devices.filter((d) => d.ref.kind === 7 || d.ref.kind === 8 || d.ref.kind === 2).map((d) => d.ref.uid);
  const alarms = new Map<string, number>();
  if (breakers.length) {
    const rows = await db
      .selectFrom("alarm")
      .select(["device_uid", (eb) => eb.fn.countAll<number>().as("n")])
      .where("device_uid", "in", breakers)
      .where("released_at", "is", null)
      .groupBy("device_uid")
      .execute();
    for (const r of rows) alarms.set(r.device_uid!, Number(r.n));
  }
  const faults = devices.some((d) => d.ref.kind === 1) ? await faultTable(db) : [];
  return devices.map(({ ref, invDetail }) => {
    const l = byUid.get(ref.uid);
    let v: Record<string, unknown> = {};
    try {
      v = l ? (JSON.parse(l.values_json) as Record<string, unknown>) : {};
    } catch {
      v = {};
    }
    const out: DeviceMeasurement = { device: ref, ts: l ? Number(l.ts) : null, invDetail };
    if (ref.kind === 1) {
      const details = invDetail && includeInverterDetails;
      const acW = num(v.iw);
      const dcW = num(v.dc_w);
      const code = num(v.fault_code) ?? 0;
      out.inverter = {
        acPowerKw: div(acW, 1000),
        todayKwh: div(num(v.today_wh), 1000),
        totalKwh: div(num(v.total_wh), 1000),
        running: (acW ?? 0) > 0,
        faultCode: code,
        faults: decodeFaultRegister(code, faults),
        acVoltageV: details ? num(v.ac_v) : null,
        acCurrentA: details ? num(v.ac_a) : null,
        frequencyHz: details ? num(v.hz) : null,
        powerFactor: details ? num(v.pf) : null,
        dcVoltageV: details ? num(v.dc_v) : null,
        dcCurrentA: details ? num(v.dc_a) : null,
        dcPowerKw: details ? div(dcW, 1000) : null,
        efficiency: details ? conversionEfficiency(acW, dcW) : null,
      };
    } else if (ref.kind === 2) {
      const channels =
        typeof v.channels === "string"
          ? v.channels
              .split(",")
              .map(Number)
              .filter((x) => Number.isFinite(x))
          : [];
      const check = checkStrings(channels);
      out.board = {
        voltageV: num(v.v),
        totalCurrentA: num(v.total_a),
        median: check.median,
        strings: check.strings,
        lowStrings: check.strings.filter((s) => s.low).length,
      };
    } else if (ref.kind === 4) {
      out.env = { poa: num(v.iis), horizontal: num(v.his), moduleC: num(v.sts), ambientC: num(v.ats) };
    } else if (ref.kind === 7 || ref.kind === 8) {
      out.breaker = {
        voltageV: num(v.v),
        currentA: num(v.a),
        powerKw: div(num(v.w), 1000),
        powerFactor: num(v.pf),
        state: num(v.state),
        leakageMa: num(v.gf_ma),
        activeAlarms: alarms.get(ref.uid) ?? 0,
      };
    }
    return out;
  });
}

/** Named series per device kind: column expression and how a value is sanitised (SPEC §5). */
const SERIES: Record<number, { table: string; cols: Record<string, string> }> = {
  1: {
    table: "m_inverter",
    cols: {
      power: "iw / 1000.0",
      dcPower: "dc_w / 1000.0",
      acVoltage: "ac_v",
      acCurrent: "ac_a",
      dcVoltage: "dc_v",
      dcCurrent: "dc_a",
      frequency: "hz",
      powerFactor: "pf",
      today: "today_wh / 1000.0",
    },
  },
  2: { table: "m_board", cols: { current: "total_a", voltage: "v" } },
  4: { table: "m_env", cols: { his: "his", iis: "iis", sts: "sts", ats: "ats" } },
  7: { table: "m_breaker", cols: { power: "w / 1000.0", voltage: "v", current: "a", leakage: "gf_ma", state: "state" } },
  8: { table: "m_breaker", cols: { power: "w / 1000.0", voltage: "v", current: "a", leakage: "gf_ma", state: "state" } },
};

function sanitized(kind: number, name: string, values: Array<number | null>, capKw: number | null): Array<number | null> {
  const apply = (f: (xs: number[]) => number[]) => values.map((x) => (x === null ? null : f([x])[0]!));
  if (kind === 1 && name === "power") return apply((xs) => sanitizeGeneration(xs, capKw));
  if (kind === 4 && (name === "his" || name === "iis")) return apply(sanitizeIrradiance);
  if (kind === 4 && name === "sts") return apply(sanitizeModuleTemperature);
  return values;
}

/** 10-minute series of devices over [from, to) on the given keys (missing readings stay null). */
export async function windowSeries(
  db: Db,
  devices: DeviceRef[],
  from: number,
  to: number,
  keys: number[],
): Promise<DeviceSeries[]> {
  const index = new Map(keys.map((k, i) => [k, i]));
  const out: DeviceSeries[] = [];
  const byKind = new Map<number, DeviceRef[]>();
  for (const d of devices) if (SERIES[d.kind]) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
  for (const [kind, list] of byKind) {
    const spec = SERIES[kind]!;
    const names = Object.keys(spec.cols);
    const select = names.map((n) => `${spec.cols[n]} as ${n}`).join(", ");
    const rows = await sql<Record<string, unknown>>`select device_uid, ts, ${sql.raw(select)} from ${sql.table(spec.table)}
      where device_uid in (${sql.join(list.map((d) => d.uid))}) and ts >= ${from} and ts < ${to}`.execute(db);
    const per = new Map(
      list.map((d) => [d.uid, Object.fromEntries(names.map((n) => [n, new Array<number | null>(keys.length).fill(null)]))]),
    );
    for (const r of rows.rows) {
      const i = index.get(Number(r.ts));
      const target = per.get(String(r.device_uid));
      if (i === undefined || !target) continue;
      for (const n of names) target[n]![i] = num(r[n]);
    }
    for (const d of list) {
      const values = per.get(d.uid)!;
      for (const n of names)
        values[n] = sanitized(kind, n, values[n]!, d.capacityKw).map((x) => (x === null ? null : Number(x.toFixed(3))));
      out.push({ uid: d.uid, name: d.name, kind, values });
    }
  }
  return out;
}

/**
 * The measurement screen's pickers: the plants the member sees that have devices (by name), the chosen one
 * (the requested plant when among them, else the first), and that plant's devices (kind, name, uid order).
 * A device of a plant is visible exactly when its plant is (domain/visibility.ts canSeeDevice), so this reads
 * plants and one plant's devices instead of every device of the fleet.
 */
export async function measurementPicker(
  db: Db,
  reach: Reach,
  requested: string | undefined,
  find?: { q: string; limit: number },
) {
  const rows = await db
    .selectFrom("plant")
    .select(["uid", "name", "node_seq"])
    .where((eb) => eb.exists(eb.selectFrom("device").select("device.uid").whereRef("device.plant_uid", "=", "plant.uid")))
    .orderBy("uid")
    .execute();
  const plants = rows
    .filter((p) => canSeePlant(reach, { uid: p.uid, node_seq: p.node_seq === null ? null : Number(p.node_seq) }))
    .map((p) => ({ uid: p.uid, name: p.name }))
    .sort((a, b) => a.name.localeCompare(b.name, "ko"));
  const plant = (requested && plants.find((p) => p.uid === requested)) || plants[0] || null;
  const plantUid = plant?.uid ?? null;
  // A name search answers a handful of names (the screen's search field), never the whole fleet.
  let matches: { plants: Array<{ uid: string; name: string }>; more: boolean } | null = null;
  if (find) {
    const needle = find.q.toLowerCase();
    const found = plants.filter((p) => p.name.toLowerCase().includes(needle));
    matches = { plants: found.slice(0, find.limit), more: found.length > find.limit };
  }
  const devices = plantUid
    ? (
        await db
          .selectFrom("device")
          .select(["uid", "kind", "name", "rtu_uid", "capa"])
          .where("plant_uid", "=", plantUid)
          .orderBy("kind")
          .orderBy("name")
          .orderBy("uid")
          .execute()
      ).map((d) => ({
        uid: d.uid,
        kind: Number(d.kind),
        name: d.name,
        rtu_uid: d.rtu_uid,
        capa: d.capa === null ? null : Number(d.capa),
      }))
    : [];
  return { plant, plantUid, devices, matches };
}

/** The device of this kind at a bus address of the RTU (SPEC §7 setGridAlarmRelease), undefined when none. */
export async function deviceOfRtuAt(db: Db, rtuUid: string, address: number, kind: number) {
  return db
    .selectFrom("device")
    .select("uid")
    .where("rtu_uid", "=", rtuUid)
    .where("address", "=", address)
    .where("kind", "=", kind)
    .executeTakeFirst();
}

/** Releases every open alarm of a device at `now`; how many were released. */
export async function releaseDeviceAlarms(db: Db, deviceUid: string, now: number): Promise<number> {
  const res = await db
    .updateTable("alarm")
    .set({ released_at: now })
    .where("device_uid", "=", deviceUid)
    .where("released_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
