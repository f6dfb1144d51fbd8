/**
 * The benchmarks' one way to seed a fleet straight into a store: plants of one RTU each (a gateway with its own
 * credential, or one secret shared by all), a number of inverters and optionally a weather sensor, inserted in
 * transactions of `perTransaction` plants with multi-row statements. Each benchmark says only what differs: uid
 * prefix, names, capacity and place per plant, group, and whether devices start with a fresh latest reading.
 */
import { randomBytes } from "node:crypto";
import { hashGatewaySecret, newGatewaySecret } from "../api/auth/gateway-credential";
import type { Insertable } from "kysely";
import type { Store } from "../api/store/db";
import type { DeviceLatestTable, DeviceTable, PlantTable, RtuTable } from "../api/store/schema";

export interface SeededGateway {
  plant: string;
  rtu: string;
  secret: string;
  inverters: string[];
  /** The weather sensor's uid, when seeded. */
  sensor: string | null;
  capaKw: number;
  /** The plant's group (node). */
  node: number;
}

export interface PlantLook {
  name: string;
  capaKw: number;
  locality?: string | null;
  lat?: number | null;
  lng?: number | null;
  /** The plant's group; default the root group. */
  node?: number;
}

export interface SeedFleetOptions {
  count: number;
  /** Two letters starting every uid (plant `<p>P<tag><i>`, RTU `<p>R…`, devices `<p>D…I<k>` and `<p>D…E`). */
  prefix: string;
  inverters: number;
  /** Each inverter's rating; default the plant's capacity shared between its inverters. */
  inverterCapaKw?: number;
  /** A weather sensor per plant (kind 4). */
  sensor?: boolean;
  /** Name, capacity, place and group of plant i. */
  look: (i: number) => PlantLook;
  /** One secret for every gateway (faster: hashed once); default a fresh secret per gateway. */
  sharedSecret?: string;
  /** The RTUs' last_seen_at (default null: never heard). */
  lastSeenAt?: number | null;
  /** Each inverter's latest reading, when the fleet should start "live" (device_latest rows). */
  latest?: (inverter: number) => { iw: number; today_wh: number; total_wh: number; ageMs: number };
  perTransaction?: number;
}

/** The root group, made when the store has none. */
export async function rootNode(store: Store, now = Date.now()): Promise<number> {
  const found = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirst();
  if (found) return found.seq;
  const made = await store.db
    .insertInto("node")
    .values({ parent_seq: null, name: "bench", sort_order: 0, created_at: now })
    .returning("seq")
    .executeTakeFirstOrThrow();
  return made.seq;
}

export async function seedFleet(store: Store, o: SeedFleetOptions): Promise<SeededGateway[]> {
  const now = Date.now();
  const root = await rootNode(store, now);
  const tag = randomBytes(2).toString("hex").toUpperCase();
  const sharedHash = o.sharedSecret ? hashGatewaySecret(o.sharedSecret) : null;
  const step = o.perTransaction ?? 200;
  const out: SeededGateway[] = [];
  for (let start = 0; start < o.count; start += step) {
    const plants: Insertable<PlantTable>[] = [];
    const rtus: Insertable<RtuTable>[] = [];
    const devices: Insertable<DeviceTable>[] = [];
    const latest: Insertable<DeviceLatestTable>[] = [];
    for (let i = start; i < Math.min(o.count, start + step); i++) {
      const look = o.look(i);
      const id = `${tag}${String(i).padStart(6, "0")}`;
      const plant = `${o.prefix}P${id}`;
      const rtu = `${o.prefix}R${id}`;
      const node = look.node ?? root;
      const secret = o.sharedSecret ?? newGatewaySecret();
      const inverters = Array.from({ length: o.inverters }, (_, k) => `${o.prefix}D${id}I${k}`);
      const sensor = o.sensor ? `${o.prefix}D${id}E` : null;
      plants.push({
        uid: plant,
        name: look.name,
        alias: null,
        capa: Math.round(look.capaKw * 100),
        locality: look.locality ?? null,
        address: null,
        lat: look.lat ?? null,
        lng: look.lng ?? null,
        node_seq: node,
        package_seq: null,
        created_at: now,
        updated_at: now,
      });
      rtus.push({
        uid: rtu,
        alias: null,
        name: rtu,
        mac: null,
        kind: 1,
        plant_uid: plant,
        node_seq: node,
        package_seq: null,
        config: 0,
        credential_hash: sharedHash ?? hashGatewaySecret(secret),
        use_yn: 1,
        created_at: now,
        updated_at: now,
        last_seen_at: o.lastSeenAt ?? null,
      });
      const device = { rtu_uid: rtu, plant_uid: plant, use_yn: 1, created_at: now, updated_at: now };
      for (const [k, uid] of inverters.entries()) {
        devices.push({
          ...device,
          uid,
          kind: 1,
          name: `인버터 ${k + 1}`,
          address: k + 1,
          capa: Math.round((o.inverterCapaKw ?? look.capaKw / o.inverters) * 100),
        });
        const l = o.latest?.(k);
        if (l)
          latest.push({
            device_uid: uid,
            kind: 1,
            ts: now - (now % 600_000) - 600_000,
            received_at: now - l.ageMs,
            iw: l.iw,
            today_wh: l.today_wh,
            total_wh: l.total_wh,
            fault_code: 0,
            his: null,
            iis: null,
            sts: null,
            ats: null,
            state: null,
            values_json: "{}",
          });
      }
      if (sensor) devices.push({ ...device, uid: sensor, kind: 4, name: "기상", address: 9, capa: null });
      out.push({ plant, rtu, secret, inverters, sensor, capaKw: look.capaKw, node });
    }
    await store.db.transaction().execute(async (trx) => {
      await trx.insertInto("plant").values(plants).execute();
      await trx.insertInto("rtu").values(rtus).execute();
      for (let d = 0; d < devices.length; d += 400)
        await trx
          .insertInto("device")
          .values(devices.slice(d, d + 400))
          .execute();
      for (let d = 0; d < latest.length; d += 400)
        await trx
          .insertInto("device_latest")
          .values(latest.slice(d, d + 400))
          .execute();
    });
  }
  return out;
}

/** How `writeHourlyRollups` fills a plant's hours. */
export interface HourlyRollupPlan {
  /** The first hour (epoch ms) and how many. */
  from: number;
  hours: number;
  /** Plane-of-array irradiance of hour h, W/m² (the sensor's row). */
  poa: (h: number) => number;
  /** An inverter's energy in an hour of irradiance g0, Wh. */
  inverterWh: (g0: number) => number;
  /** Each inverter's counter at the start, Wh. */
  counterStart: number;
  /** Inverter i's counter starts again from its hour's energy at this hour (a reset), if any. */
  resetAt?: (i: number) => number | undefined;
  /** Inverter i has no row for hour h (a missing hour); asked after its counter moved. */
  missing: (h: number, i: number) => boolean;
}

/**
 * Hourly rollups written straight into rollup_hourly for a plant's sensor and inverters (the availability benchmarks'
 * history): the sensor's insolation and sunny/lit steps, each inverter's energy, highest power and running counter.
 */
export async function writeHourlyRollups(
  store: Store,
  g: { env: string; inverters: string[] },
  plan: HourlyRollupPlan,
): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  const counters = g.inverters.map(() => plan.counterStart);
  const resets = g.inverters.map((_, i) => plan.resetAt?.(i));
  for (let h = 0; h < plan.hours; h++) {
    const g0 = plan.poa(h);
    const base = {
      hour_ts: plan.from + h * 3_600_000,
      samples: 6,
      avg_w: null,
      his_wh: null,
      avg_sts: null,
      avg_ats: null,
      max_today_wh: null,
    };
    rows.push({
      ...base,
      device_uid: g.env,
      kind: 4,
      energy_wh: null,
      max_w: null,
      iis_wh: g0,
      iis_sts_wh: g0 * 35,
      max_total_wh: null,
      sun_samples: g0 > 100 ? 6 : 0,
      lit_samples: g0 > 20 ? 6 : 0,
      run_samples: null,
    });
    g.inverters.forEach((uid, i) => {
      const wh = plan.inverterWh(g0);
      counters[i]! += wh;
      if (h === resets[i]) counters[i] = wh;
      if (plan.missing(h, i)) return;
      rows.push({
        ...base,
        device_uid: uid,
        kind: 1,
        energy_wh: wh,
        max_w: wh,
        iis_wh: null,
        iis_sts_wh: null,
        max_total_wh: Math.round(counters[i]!),
        sun_samples: null,
        lit_samples: null,
        run_samples: wh > 0 ? 6 : 0,
      });
    });
  }
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 300)
      await trx
        .insertInto("rollup_hourly")
        .values(rows.slice(i, i + 300) as never)
        .execute();
  });
}
