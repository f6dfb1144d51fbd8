/**
 * Writes validated readings: measurements (insert-if-absent), latest values, RTU last-seen and
 * rollups, all in one transaction. Two implementations of one contract: SQLite through cached
 * prepared statements (the embedded default's hot path), PostgreSQL through Kysely.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from "kysely";
import type { Store } from "../store/db";
import type { Database } from "../store/schema";
import { KIND_FIELDS, type MeasurementTable, type ValidReading } from "./readings";
import { DAY_MS, HOUR_MS, seoulDayStart } from "../../domain/seoul-time";
import { dailyRollupSql, hourOf, hourlyRollupSql, plantDailySql, withParams } from "./rollups";
import { dataChanged } from "../store/data-changes";
import { rawWrite } from "../store/table-writes";
import { rebuildPlantStatDays, writePlantStatDays, writePlantStatDaysSync } from "../store/plant-stat-days";

export interface WriteOptions {
  /** Skip rollups (a bulk loader recomputes them once at the end with rebuildRollups). */
  deferRollups?: boolean;
  /**
   * When the gateway handed the readings over (default: now). A replay of history (the simulator's
   * backfill) passes the time the readings would have arrived, so RTU last-seen stays truthful.
   */
  receivedAt?: number;
}

export interface TelemetryWriter {
  /** Returns how many readings were new (the rest were already stored). */
  write(rtuUid: string, readings: ValidReading[], now: number, opts?: WriteOptions): Promise<number>;
}

const TABLE_COLUMNS: Record<MeasurementTable, string[]> = Object.fromEntries(
  Object.values(KIND_FIELDS).map((k) => [k.table, Object.keys(k.fields)]),
) as Record<MeasurementTable, string[]>;

/** PostgreSQL element types of (device_uid, ts, value columns…) per table. */
const PG_TYPES: Record<MeasurementTable, string[]> = Object.fromEntries(
  Object.values(KIND_FIELDS).map((k) => [
    k.table,
    ["text", "bigint", ...Object.values(k.fields).map((f) => (f === "number" ? "float8" : f === "integer" ? "int4" : "text"))],
  ]),
) as Record<MeasurementTable, string[]>;

/** Groups readings by (table, kind) with the device set and time span each group touched. */
function spans(readings: ValidReading[]) {
  const groups = new Map<
    string,
    { table: MeasurementTable; kind: number; uids: Set<string>; from: number; to: number; rows: ValidReading[] }
  >();
  for (const r of readings) {
    const key = `${r.table}:${r.device.kind}`;
    let g = groups.get(key);
    if (!g)
      groups.set(key, (g = { table: r.table, kind: r.device.kind, uids: new Set(), from: Infinity, to: -Infinity, rows: [] }));
    g.uids.add(r.device.uid);
    g.from = Math.min(g.from, r.ts);
    g.to = Math.max(g.to, r.ts + 1);
    g.rows.push(r);
  }
  return [...groups.values()];
}

/**
 * The inverters and environment sensors a batch's rollups touched, and their days: their plants' rows of
 * rollup_plant_daily are recomputed once per batch, after every device's daily rollup.
 */
function plantDayScope(groups: ReturnType<typeof spans>): { uids: string[]; dayFrom: number; dayTo: number } | null {
  const touched = groups.filter((g) => g.kind === 1 || g.kind === 4);
  if (!touched.length) return null;
  return {
    uids: [...new Set(touched.flatMap((g) => [...g.uids]))],
    dayFrom: seoulDayStart(Math.min(...touched.map((g) => g.from))),
    dayTo: seoulDayStart(Math.max(...touched.map((g) => g.to)) - 1) + DAY_MS,
  };
}

/** Second key of a plant's lock while its rollup_plant_daily rows are recomputed (PostgreSQL; "PLD"). */
export const PLANT_DAY_LOCK_CLASS = 0x504c44;

function newestPerDevice(readings: ValidReading[]): ValidReading[] {
  const newest = new Map<string, ValidReading>();
  for (const v of readings) {
    const cur = newest.get(v.device.uid);
    if (!cur || v.ts > cur.ts) newest.set(v.device.uid, v);
  }
  return [...newest.values()];
}

const num = (v: unknown) => (typeof v === "number" ? v : null);
function latestRow(v: ValidReading, now: number) {
  return {
    device_uid: v.device.uid,
    kind: v.device.kind,
    ts: v.ts,
    received_at: now,
    iw: num(v.row.iw ?? v.row.w),
    today_wh: num(v.row.today_wh),
    total_wh: num(v.row.total_wh),
    fault_code: num(v.row.fault_code),
    his: num(v.row.his),
    iis: num(v.row.iis),
    sts: num(v.row.sts),
    ats: num(v.row.ats),
    state: num(v.row.state),
    values_json: JSON.stringify(v.row),
  };
}
const LATEST_COLUMNS = [
  "device_uid",
  "kind",
  "ts",
  "received_at",
  "iw",
  "today_wh",
  "total_wh",
  "fault_code",
  "his",
  "iis",
  "sts",
  "ats",
  "state",
  "values_json",
] as const;

const MULTI_ROW = 50;
/** First key of the per-RTU ingest lock (PostgreSQL advisory lock; "RTU" in ASCII). */
const RTU_LOCK_CLASS = 0x525455;

export class SqliteTelemetryWriter implements TelemetryWriter {
  private stmts = new Map<string, import("better-sqlite3").Statement>();
  constructor(private store: Store) {}

  private stmt(key: string, text: () => string) {
    let s = this.stmts.get(key);
    if (!s) this.stmts.set(key, (s = this.store.sqlite!.prepare(text())));
    return s;
  }

  async write(rtuUid: string, readings: ValidReading[], wallNow: number, opts: WriteOptions = {}): Promise<number> {
    const sqlite = this.store.sqlite!;
    const now = opts.receivedAt ?? wallNow;
    // Hold Kysely's connection lock so no other query interleaves with this synchronous transaction.
    return this.store.db.connection().execute(async () =>
      sqlite.transaction(() => {
        let inserted = 0;
        const groups = spans(readings);
        for (const g of groups) {
          const cols = TABLE_COLUMNS[g.table];
          // Rows go in MULTI_ROW at a time: one native call per group instead of one per reading.
          const insert = (n: number) =>
            this.stmt(
              `ins:${g.table}:${n}`,
              () =>
                `insert into ${g.table} (device_uid, ts, ${cols.join(", ")}, received_at) values ` +
                Array(n)
                  .fill(
                    `(${Array(cols.length + 3)
                      .fill("?")
                      .join(", ")})`,
                  )
                  .join(", ") +
                " on conflict do nothing",
            );
          const args: unknown[] = [];
          for (let i = 0; i < g.rows.length; i++) {
            const r = g.rows[i]!;
            args.push(r.device.uid, r.ts);
            for (const c of cols) args.push(r.row[c] ?? null);
            args.push(now);
            const filled = (i + 1) % MULTI_ROW === 0;
            if (filled || i === g.rows.length - 1) {
              inserted += insert(filled ? MULTI_ROW : (i + 1) % MULTI_ROW).run(args).changes;
              args.length = 0;
            }
          }
          if (!opts.deferRollups) {
            const uids = JSON.stringify([...g.uids]);
            const filter = "device_uid in (select value from json_each(?))";
            this.stmt(`hour:${g.table}`, () => hourlyRollupSql(g.table, filter)).run(
              g.kind,
              uids,
              hourOf(g.from),
              hourOf(g.to - 1) + HOUR_MS,
            );
            this.stmt("day", () => dailyRollupSql(filter)).run(uids, seoulDayStart(g.from), seoulDayStart(g.to - 1) + DAY_MS);
          }
        }
        const scope = opts.deferRollups ? null : plantDayScope(groups);
        if (scope) {
          const plants = plantDailySql(
            (c) => `${c} in (select plant_uid from device where uid in (select value from json_each(?)))`,
          );
          const uids = JSON.stringify(scope.uids);
          this.stmt("plant-day-", () => plants.remove).run(uids, scope.dayFrom, scope.dayTo);
          this.stmt("plant-day+", () => plants.insert).run(uids, scope.dayFrom, scope.dayTo);
        }
        if (scope) writePlantStatDaysSync(this.store, { devices: scope.uids }, scope.dayFrom, scope.dayTo);
        const upsert = this.stmt(
          "latest",
          () =>
            `insert into device_latest (${LATEST_COLUMNS.join(", ")}) values (${LATEST_COLUMNS.map(() => "?").join(", ")})
           on conflict (device_uid) do update set ${LATEST_COLUMNS.slice(1)
             .map((c) => `${c} = excluded.${c}`)
             .join(", ")}
           where excluded.ts >= device_latest.ts`,
        );
        for (const v of newestPerDevice(readings)) {
          const row = latestRow(v, now);
          upsert.run(LATEST_COLUMNS.map((c) => row[c]));
        }
        if (readings.length) {
          this.stmt("seen", () => "update rtu set last_seen_at = max(coalesce(last_seen_at, 0), ?) where uid = ?").run(
            now,
            rtuUid,
          );
        }
        return inserted;
      })(),
    );
  }
}

export class KyselyTelemetryWriter implements TelemetryWriter {
  constructor(private store: Store) {}

  async write(rtuUid: string, readings: ValidReading[], wallNow: number, opts: WriteOptions = {}): Promise<number> {
    const now = opts.receivedAt ?? wallNow;
    let inserted = 0;
    await this.store.db.transaction().execute(async (trx) => {
      // Batches of one RTU (its devices) are written one at a time across every server: a rollup is
      // recomputed from the rows this transaction sees, so two batches of the same device hour committing
      // side by side (READ COMMITTED) would each leave out the other's rows.
      await sql`select pg_advisory_xact_lock(${RTU_LOCK_CLASS}, hashtext(${rtuUid}))`.execute(trx);
      const groups = spans(readings);
      for (const g of groups) {
        // One array parameter per column (unnest): a batch is one short statement, however many rows.
        const cols = TABLE_COLUMNS[g.table];
        const types = PG_TYPES[g.table];
        const arrays: unknown[][] = [
          g.rows.map((r) => r.device.uid),
          g.rows.map((r) => r.ts),
          ...cols.map((c) => g.rows.map((r) => r.row[c] ?? null)),
        ];
        const result = await rawWrite(
          [g.table],
          sql`
          insert into ${sql.table(g.table)} (device_uid, ts, ${sql.join(cols.map((c) => sql.ref(c)))}, received_at)
          select u.*, ${now}::bigint from unnest(${sql.join(arrays.map((a, k) => sql`${a}::${sql.raw(types[k]!)}[]`))}) as u
          on conflict do nothing`,
        ).execute(trx);
        inserted += Number(result.numAffectedRows ?? 0);
        if (!opts.deferRollups) {
          const uids = [...g.uids];
          const filter = "device_uid = any(?::text[])";
          await withParams("rollup_hourly", hourlyRollupSql(g.table, filter), [
            g.kind,
            uids,
            hourOf(g.from),
            hourOf(g.to - 1) + HOUR_MS,
          ]).execute(trx);
          await withParams("rollup_daily", dailyRollupSql(filter), [
            uids,
            seoulDayStart(g.from),
            seoulDayStart(g.to - 1) + DAY_MS,
          ]).execute(trx);
        }
      }
      const scope = opts.deferRollups ? null : plantDayScope(groups);
      if (scope) {
        // A plant's RTUs write side by side: its plant-days are recomputed one transaction at a time, each seeing
        // the others' committed rollups (the RTU lock above does not cover another RTU of the same plant).
        await lockPlants(
          trx,
          sql`select distinct plant_uid from device where uid = any(${scope.uids}::text[]) and plant_uid is not null`,
        );
        const plants = plantDailySql((c) => `${c} in (select plant_uid from device where uid = any(?::text[]))`);
        await withParams("rollup_plant_daily", plants.remove, [scope.uids, scope.dayFrom, scope.dayTo]).execute(trx);
        await withParams("rollup_plant_daily", plants.insert, [scope.uids, scope.dayFrom, scope.dayTo]).execute(trx);
      }
      if (scope) await writePlantStatDays(trx, { devices: scope.uids }, scope.dayFrom, scope.dayTo);
      await this.upsertLatest(trx, newestPerDevice(readings), now);
      if (readings.length) {
        await trx
          .updateTable("rtu")
          .set({ last_seen_at: sql<number>`greatest(coalesce(last_seen_at, 0), ${now})` })
          .where("uid", "=", rtuUid)
          .execute();
      }
    });
    return inserted;
  }

  private async upsertLatest(trx: Transaction<Database>, rows: ValidReading[], now: number) {
    for (let i = 0; i < rows.length; i += 1_000) {
      await trx
        .insertInto("device_latest")
        .values(rows.slice(i, i + 1_000).map((v) => latestRow(v, now)))
        .onConflict((oc) =>
          oc
            .column("device_uid")
            .doUpdateSet(Object.fromEntries(LATEST_COLUMNS.slice(1).map((c) => [c, sql.ref(`excluded.${c}`)])) as never)
            .where(sql<boolean>`excluded.ts >= device_latest.ts`),
        )
        .execute();
    }
  }
}

/** PostgreSQL: takes the plant-day lock of each plant the query names, in uid order (no two takers deadlock). */
export async function lockPlants(trx: Kysely<Database>, plantUids: RawBuilder<unknown>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${PLANT_DAY_LOCK_CLASS}, hashtext(p.plant_uid))
    from (select q.plant_uid from (${plantUids}) q order by q.plant_uid) p`.execute(trx);
}

export function createTelemetryWriter(store: Store): TelemetryWriter {
  return store.dialect === "sqlite" ? new SqliteTelemetryWriter(store) : new KyselyTelemetryWriter(store);
}

/** The longest time span one slice of rebuildRollupsInSlices recomputes. */
const SLICE_MS = 10 * DAY_MS;

/**
 * Recomputes every rollup over [from, to) after a deferred-rollup load (the simulator's history replay), as a row
 * of short transactions with `pause` between them: one plant (or the devices of no plant) and at most 10 days at a
 * time, each kind's hourly rollups, the daily rollups and the plant's days apart. On SQLite every statement holds
 * the process, so one transaction over every plant and the whole range kept every answer waiting for seconds; a
 * plant's slice reads its devices' rows by index. `progress` hears the share done after each plant.
 */
export async function rebuildRollupsInSlices(
  store: Store,
  from: number,
  to: number,
  opts: { pause: () => Promise<void>; progress?: (done: number) => void },
): Promise<void> {
  const plants = (await store.db.selectFrom("plant").select("uid").orderBy("uid").execute()).map((p) => p.uid);
  const scopes: Array<string | null> = [...plants, null];
  for (const [i, plant] of scopes.entries()) {
    for (let a = from; a < to; a += SLICE_MS) {
      for (const step of rebuildSteps(a, Math.min(to, a + SLICE_MS), plant)) {
        await store.db.transaction().execute(step);
        await opts.pause();
      }
    }
    opts.progress?.((i + 1) / scopes.length);
  }
  dataChanged({ from: hourOf(from), to: hourOf(to - 1) + HOUR_MS });
}

/** The same inside the caller's transaction (rollup maintenance commits its checkpoint with it), for every plant. */
export async function rebuildRollupsIn(trx: Kysely<Database>, from: number, to: number): Promise<void> {
  for (const step of rebuildSteps(from, to)) await step(trx);
}

/**
 * The statements of a rollup rebuild over [from, to), in their order (hourly per kind, daily, the plants' days): of
 * every device, or of one plant's devices, or (null) of the devices of no plant.
 */
function rebuildSteps(from: number, to: number, plant?: string | null): Array<(trx: Kysely<Database>) => Promise<unknown>> {
  const hourFrom = hourOf(from);
  const hourTo = hourOf(to - 1) + HOUR_MS;
  const dayFrom = seoulDayStart(from);
  const dayTo = seoulDayStart(to - 1) + DAY_MS;
  const scope = plant === undefined ? "" : plant === null ? " and plant_uid is null" : " and plant_uid = ?";
  const scopeParams = plant ? [plant] : [];
  return [
    ...Object.entries(KIND_FIELDS).map(([kind, spec]) => (trx: Kysely<Database>) => {
      const text = hourlyRollupSql(spec.table, `device_uid in (select uid from device where kind = ${Number(kind)}${scope})`);
      return withParams("rollup_hourly", text, [Number(kind), ...scopeParams, hourFrom, hourTo]).execute(trx);
    }),
    (trx) =>
      withParams("rollup_daily", dailyRollupSql(scope ? `device_uid in (select uid from device where 1 = 1${scope})` : "1 = 1"), [
        ...scopeParams,
        dayFrom,
        dayTo,
      ]).execute(trx),
    ...(plant === null
      ? []
      : [
          (trx: Kysely<Database>) => rebuildPlantDaily(trx, dayFrom, dayTo, plant ? [plant] : undefined),
          (trx: Kysely<Database>) =>
            plant ? writePlantStatDays(trx, { plants: [plant] }, dayFrom, dayTo) : rebuildPlantStatDays(trx, dayFrom, dayTo),
        ]),
  ];
}

/** Recomputes rollup_plant_daily of every plant, or of the plants given, over the days [dayFrom, dayTo). */
export async function rebuildPlantDaily(trx: Kysely<Database>, dayFrom: number, dayTo: number, plantUids?: string[]) {
  if (plantUids && !plantUids.length) return;
  const plants = plantDailySql((c) => (plantUids ? `${c} in (${plantUids.map(() => "?").join(", ")})` : "1 = 1"));
  const params = [...(plantUids ?? []), dayFrom, dayTo];
  await withParams("rollup_plant_daily", plants.remove, params).execute(trx);
  await withParams("rollup_plant_daily", plants.insert, params).execute(trx);
}
