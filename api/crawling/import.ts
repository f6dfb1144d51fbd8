/**
 * Writes what a source offers into this portal: plants, RTUs and devices into a chosen node
 * (PUT /crawling/plant|rtu|device, POST /plant/copyplant), and a plant's history (POST /total/loadData).
 * Existing uids are never overwritten: such records are reported as skipped. One transaction per call
 * (per day for history), so a failure leaves nothing half-written.
 */
import type { Kysely, Transaction } from "kysely";
import type { ImportReport } from "../../domain/contract/fleet";
import { inKorea, normalizeMac } from "../../domain/fleet";
import type { ApiContext } from "../context";
import { ApiError, badRequest } from "../http";
import { reachesNode } from "../../domain/visibility";
import { plantSet, type Reach } from "../store/visibility";
import type { Database } from "../store/schema";
import { SourceError, type CrawlAdapter, type SourceOffer } from "./adapter";
import { adapterFor } from "./adapters";
import { cleanHistoryRow, HISTORY_TABLE_NAMES, HISTORY_TABLES } from "./history-tables";
import { dataChanged } from "../store/data-changes";
import { markPlantStatStale } from "../store/plant-stat-days";
import { MAX_LOAD_DAYS } from "../../domain/fleet";

export interface Selection {
  plants?: string[];
  rtus?: string[];
  devices?: string[];
}

/** A source failure as an API answer: 502 for the source's own trouble, 400 for a bad login. */
export function sourceFailure(error: unknown): never {
  if (error instanceof SourceError) {
    if (error.code === "login_failed") throw badRequest("source_login_failed", { id: "source_login_failed" });
    if (error.code === "not_found") throw new ApiError(404, "not_found_on_source");
    if (error.code === "forbidden") throw new ApiError(502, "source_forbidden");
    throw new ApiError(502, `source_${error.code}`);
  }
  throw error;
}

export async function importOffer(
  db: Kysely<Database>,
  scope: Reach,
  nodeSeq: number,
  offer: SourceOffer,
  sel: Selection,
): Promise<ImportReport> {
  const report: ImportReport = {
    plants: { imported: [], skipped: [] },
    rtus: { imported: [], skipped: [] },
    devices: { imported: [], skipped: [] },
    rejected: offer.rejected,
  };
  const offeredPlants = new Map(offer.plants.map((p) => [p.uid, p]));
  const offeredRtus = new Map(offer.rtus.map((r) => [r.uid, r]));
  const offeredDevices = new Map(offer.devices.map((d) => [d.uid, d]));

  const plantUids = new Set<string>();
  for (const uid of sel.plants ?? []) {
    if (offeredPlants.has(uid)) plantUids.add(uid);
    else report.plants.skipped.push({ uid, reason: "not_offered" });
  }
  const rtuUids = new Set<string>(offer.rtus.filter((r) => r.plant_uid && plantUids.has(r.plant_uid)).map((r) => r.uid));
  for (const uid of sel.rtus ?? []) {
    if (offeredRtus.has(uid)) rtuUids.add(uid);
    else report.rtus.skipped.push({ uid, reason: "not_offered" });
  }
  const deviceUids = new Set<string>(
    offer.devices
      .filter((d) => (d.plant_uid && plantUids.has(d.plant_uid)) || (d.rtu_uid && rtuUids.has(d.rtu_uid)))
      .map((d) => d.uid),
  );
  for (const uid of sel.devices ?? []) {
    if (offeredDevices.has(uid)) deviceUids.add(uid);
    else report.devices.skipped.push({ uid, reason: "not_offered" });
  }

  const now = Date.now();
  await db.transaction().execute(async (trx: Transaction<Database>) => {
    for (const uid of plantUids) {
      const p = offeredPlants.get(uid)!;
      if (await trx.selectFrom("plant").select("uid").where("uid", "=", uid).executeTakeFirst()) {
        report.plants.skipped.push({ uid, reason: "exists" });
        continue;
      }
      const coords =
        p.lat != null && p.lng != null && inKorea(p.lat, p.lng) ? { lat: p.lat, lng: p.lng } : { lat: null, lng: null };
      await trx
        .insertInto("plant")
        .values({
          uid,
          name: p.name,
          alias: p.alias,
          capa: p.capa,
          locality: p.locality,
          address: p.address,
          ...coords,
          node_seq: nodeSeq,
          package_seq: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      report.plants.imported.push(uid);
    }
    const editable = await plantSet(trx, scope, "edit");
    for (const uid of rtuUids) {
      const r = offeredRtus.get(uid)!;
      if (await trx.selectFrom("rtu").select("uid").where("uid", "=", uid).executeTakeFirst()) {
        report.rtus.skipped.push({ uid, reason: "exists" });
        continue;
      }
      let mac: string | null = null;
      if (r.mac && /^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/.test(r.mac)) mac = normalizeMac(r.mac);
      if (mac && (await trx.selectFrom("rtu").select("uid").where("mac", "=", mac).executeTakeFirst())) {
        report.rtus.skipped.push({ uid, reason: "mac_taken" });
        continue;
      }
      // The RTU joins its plant when that plant is here and ours to edit; otherwise it waits unassigned.
      const plant =
        r.plant_uid && editable.has(r.plant_uid)
          ? await trx.selectFrom("plant").select(["uid", "node_seq"]).where("uid", "=", r.plant_uid).executeTakeFirst()
          : undefined;
      await trx
        .insertInto("rtu")
        .values({
          uid,
          alias: r.alias,
          name: r.name,
          mac,
          kind: r.kind,
          plant_uid: plant?.uid ?? null,
          node_seq: plant?.node_seq ?? nodeSeq,
          package_seq: null,
          config: r.config,
          credential_hash: null,
          use_yn: 1,
          created_at: now,
          updated_at: now,
          last_seen_at: null,
        })
        .execute();
      report.rtus.imported.push(uid);
    }
    const visible = await plantSet(trx, scope);
    for (const uid of deviceUids) {
      const d = offeredDevices.get(uid)!;
      if (await trx.selectFrom("device").select("uid").where("uid", "=", uid).executeTakeFirst()) {
        report.devices.skipped.push({ uid, reason: "exists" });
        continue;
      }
      const rtu = d.rtu_uid
        ? await trx.selectFrom("rtu").select(["uid", "plant_uid", "node_seq"]).where("uid", "=", d.rtu_uid).executeTakeFirst()
        : undefined;
      if (!rtu) {
        report.devices.skipped.push({ uid, reason: "rtu_missing" });
        continue;
      }
      const allowed = rtu.plant_uid ? editable.has(rtu.plant_uid) : reachesNode(scope, rtu.node_seq);
      if (!allowed || (rtu.plant_uid && !visible.has(rtu.plant_uid))) {
        report.devices.skipped.push({ uid, reason: "not_allowed" });
        continue;
      }
      await trx
        .insertInto("device")
        .values({
          uid,
          rtu_uid: rtu.uid,
          plant_uid: rtu.plant_uid,
          kind: d.kind,
          name: d.name,
          address: d.address,
          capa: d.kind === 1 ? d.capa : null,
          use_yn: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      report.devices.imported.push(uid);
    }
  });
  return report;
}

/** `http://host/…/plant/P123` → base URL and plant uid; an explicit plantUid wins. */
export function parsePlantUrl(url: string, plantUid?: string): { baseUrl: string; plantUid: string | null } {
  const u = new URL(url);
  const parts = u.pathname.split("/").filter(Boolean);
  const i = parts.lastIndexOf("plant");
  const fromPath = i >= 0 && parts[i + 1] ? decodeURIComponent(parts[i + 1]!) : null;
  return { baseUrl: u.origin, plantUid: plantUid ?? u.searchParams.get("plantUid") ?? fromPath };
}

export async function copyPlantFromInstance(
  ctx: ApiContext,
  scope: Reach,
  body: { url: string; plantUid?: string; id: string; password: string; nodeSeq: number },
): Promise<{ plantUid: string; report: ImportReport }> {
  const { baseUrl, plantUid } = parsePlantUrl(body.url, body.plantUid);
  if (!plantUid) throw badRequest("invalid_input", { plantUid: "required" });
  const adapter = adapterFor({ site: "portal", baseUrl, id: body.id, password: body.password });
  let offer: SourceOffer;
  try {
    offer = await adapter.plant(plantUid);
  } catch (error) {
    sourceFailure(error);
  }
  if (!offer.plants.length) throw new ApiError(404, "not_found_on_source");
  if (await ctx.store.db.selectFrom("plant").select("uid").where("uid", "=", plantUid).executeTakeFirst()) {
    throw new ApiError(409, "plant_exists", { fields: { url: "plant_exists" } });
  }
  const report = await importOffer(ctx.store.db, scope, body.nodeSeq, offer, { plants: [plantUid] });
  return { plantUid, report };
}

export const DAY_MS = 86_400_000;
export { MAX_LOAD_DAYS };
/** Rows one day of one plant may bring; more means something is wrong on the source. */
export const MAX_ROWS_PER_DAY = 200_000;

export interface LoadReport {
  plantUid: string;
  days: number;
  inserted: Record<string, number>;
  skippedRows: number;
  unknownDevices: string[];
}

/**
 * Copies a plant's history from a source day by day (bounded: at most MAX_LOAD_DAYS, each day one
 * request through the source budget and one transaction here). Rows of devices this portal does not
 * have are skipped; existing rows are kept (insert … on conflict do nothing), so a load can be repeated.
 */
export async function loadPlantHistory(
  db: Kysely<Database>,
  adapter: CrawlAdapter,
  plantUid: string,
  range: { start: number; end: number },
): Promise<LoadReport> {
  if (!adapter.history) throw new ApiError(400, "source_has_no_history");
  const local = new Set(
    (await db.selectFrom("device").select("uid").where("plant_uid", "=", plantUid).execute()).map((d) => d.uid),
  );
  const report: LoadReport = { plantUid, days: 0, inserted: {}, skippedRows: 0, unknownDevices: [] };
  const unknown = new Set<string>();
  for (let day = range.start; day < range.end; day += DAY_MS) {
    let page;
    try {
      page = await adapter.history(plantUid, day, Math.min(day + DAY_MS, range.end));
    } catch (error) {
      sourceFailure(error);
    }
    const total = Object.values(page.tables).reduce((n, rows) => n + (Array.isArray(rows) ? rows.length : 0), 0);
    if (total > MAX_ROWS_PER_DAY) throw new ApiError(502, "source_too_large");
    await db.transaction().execute(async (trx) => {
      for (const table of HISTORY_TABLE_NAMES) {
        const rows = page.tables[table];
        if (!Array.isArray(rows)) continue;
        const clean: Array<Record<string, string | number | null>> = [];
        for (const raw of rows) {
          const row = cleanHistoryRow(table, raw);
          if (!row) {
            report.skippedRows++;
            continue;
          }
          if (!local.has(String(row.device_uid))) {
            unknown.add(String(row.device_uid));
            report.skippedRows++;
            continue;
          }
          clean.push(row);
        }
        const width = HISTORY_TABLES[table].columns.length;
        const size = Math.max(1, Math.floor(900 / width));
        let inserted = 0;
        for (let i = 0; i < clean.length; i += size) {
          const res = await trx
            .insertInto(table as any)
            .values(clean.slice(i, i + size) as any)
            .onConflict((oc) => oc.columns(HISTORY_TABLES[table].key as any).doNothing())
            .executeTakeFirst();
          inserted += Number(res.numInsertedOrUpdatedRows ?? 0);
        }
        report.inserted[table] = (report.inserted[table] ?? 0) + inserted;
      }
      // Daily rollups loaded straight in: the ranking recomputes the plant's per-plant days (migration 0013).
      await trx
        .insertInto("rollup_plant_daily_stale")
        .values({ plant_uid: plantUid })
        .onConflict((oc) => oc.column("plant_uid").doNothing())
        .execute();
      await markPlantStatStale(trx, plantUid);
    });
    report.days++;
    dataChanged({ devices: [...local], from: day, to: Math.min(day + DAY_MS, range.end) });
  }
  report.unknownDevices = [...unknown];
  return report;
}
