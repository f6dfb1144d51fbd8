/**
 * Plants (SPEC §7 Plants): list, read, create, edit, delete, copy from another instance, and the
 * management views (/management/plant…). Reads need a settled member and are scoped to what the
 * member may see; writes need the 'plant' admin area (SPEC §6: level ≥ 2) and a node in the member's subtree.
 */
import { Router, type Request } from "express";
import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { PlantBodySchema, RemoteUrlSchema, UID_PATTERN, type PlantBody } from "../../domain/fleet";
import { plantStatusFromAlarms, statusCategories, isStatusCategory, type PlantStatus } from "../../domain/status";
import { normalizeLocality } from "../../domain/locality";
import { requireAdmin, requireSettled } from "../auth/guards";
import { copyPlantFromInstance } from "../crawling/import";
import type { ApiContext } from "../context";
import type { PlantRow } from "../../domain/contract/fleet";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { canEditPlant, canSeeRtu, reachesNode } from "../../domain/visibility";
import { deletePlant, likeLower, newUid, nodeOptions, packageList } from "../store/fleet";
import { plantOf, reachOf, requirePlant, visiblePlantUids, type Reach } from "../store/visibility";
import type { Database } from "../store/schema";
import { packageExists, queryString, requireDeleteConfirmation, type FleetOptions } from "./fleet-common";

/** Plant status per plant from open alarms and current inverter output (SPEC §4). */
async function plantStatuses(db: Kysely<Database>, uids: string[]): Promise<Map<string, PlantStatus>> {
  const out = new Map<string, PlantStatus>();
  if (!uids.length) return out;
  const alarms = await db
    .selectFrom("alarm")
    .select((eb) => [
      "plant_uid",
      eb.fn.countAll<number>().as("alarm_count"),
      sql<number>`sum(case when code = 1000001 then 1 else 0 end)`.as("alarm_1000001_count"),
      sql<number>`sum(case when code = 1000003 then 1 else 0 end)`.as("alarm_1000003_count"),
      sql<number>`sum(case when code = 1000004 then 1 else 0 end)`.as("alarm_1000004_count"),
      sql<number>`sum(case when code = 1000006 then 1 else 0 end)`.as("alarm_1000006_count"),
    ])
    .where("released_at", "is", null)
    .where("plant_uid", "in", uids)
    .groupBy("plant_uid")
    .execute();
  const output = await db
    .selectFrom("device_latest")
    .innerJoin("device", "device.uid", "device_latest.device_uid")
    .select((eb) => ["device.plant_uid", eb.fn.sum<number>("device_latest.iw").as("iw")])
    .where("device.plant_uid", "in", uids)
    .where("device.kind", "=", 1)
    .groupBy("device.plant_uid")
    .execute();
  const rows = new Map<string, Record<string, unknown>>();
  for (const a of alarms) rows.set(a.plant_uid, { ...a });
  for (const o of output) if (o.plant_uid) rows.set(o.plant_uid, { ...(rows.get(o.plant_uid) ?? {}), iw: o.iw });
  for (const uid of uids) out.set(uid, plantStatusFromAlarms(rows.get(uid) ?? null));
  return out;
}

/** Plant rows with node, package, counts and status, for the given uids (or all). */
export async function plantRows(
  db: Kysely<Database>,
  scope: Reach,
  filter: { uids?: string[]; where?: (q: any) => any } = {},
): Promise<PlantRow[]> {
  // A member who reaches everything needs no list of uids.
  const visible = filter.uids ?? (scope.all && !scope.only ? "all" : await visiblePlantUids(db, scope));
  let q = db
    .selectFrom("plant")
    .leftJoin("node", "node.seq", "plant.node_seq")
    .leftJoin("package", "package.seq", "plant.package_seq")
    .select([
      "plant.uid",
      "plant.name",
      "plant.alias",
      "plant.capa",
      "plant.locality",
      "plant.address",
      "plant.lat",
      "plant.lng",
      "plant.node_seq",
      "node.name as nodeName",
      "plant.package_seq",
      "package.name as packageName",
      "plant.created_at",
      "plant.updated_at",
    ])
    .select((eb) => [
      eb.selectFrom("rtu").select(eb.fn.countAll<number>().as("n")).whereRef("rtu.plant_uid", "=", "plant.uid").as("rtu_count"),
      eb
        .selectFrom("device")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("device.plant_uid", "=", "plant.uid")
        .as("device_count"),
    ])
    .orderBy("plant.name")
    .orderBy("plant.uid");
  if (visible !== "all") {
    if (!visible.length) return [];
    q = q.where("plant.uid", "in", visible);
  }
  if (filter.where) q = filter.where(q);
  const rows = await q.execute();
  const statuses = await plantStatuses(
    db,
    rows.map((r) => r.uid),
  );
  return rows.map((r) => {
    const st = statuses.get(r.uid) ?? { status: 0, statusName: "" };
    return {
      ...r,
      capa: Number(r.capa),
      lat: r.lat === null ? null : Number(r.lat),
      lng: r.lng === null ? null : Number(r.lng),
      plantLocality: normalizeLocality(r.locality),
      rtu_count: Number(r.rtu_count ?? 0),
      device_count: Number(r.device_count ?? 0),
      status: st.status,
      statusName: st.statusName,
      editable: canEditPlant(scope, { uid: r.uid, node_seq: r.node_seq === null ? null : Number(r.node_seq) }),
      created_at: Number(r.created_at),
      updated_at: Number(r.updated_at),
    };
  });
}

export const SEARCH_TYPES = ["name", "uid", "address", "locality"] as const;

const ManagementQuery = z.object({
  plantStatus: z
    .string()
    .optional()
    .refine((v) => !v || v === "all" || isStatusCategory(v), "bad_status"),
  packageSeq: z.coerce.number().int().positive().optional(),
  searchType: z.enum(SEARCH_TYPES).optional(),
  searchText: z.string().max(100).optional(),
});

const CopyPlantBody = z.object({
  url: RemoteUrlSchema,
  plantUid: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(UID_PATTERN, "bad_uid").optional()),
  id: z.string().trim().min(1, "required").max(64),
  password: z.string().min(1, "required").max(256),
  nodeSeq: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().positive().optional()),
});

export function plantRoutes(ctx: ApiContext, opts: FleetOptions): Router {
  const r = Router();
  const db = ctx.store.db;

  /** The plant's row when the member may see it; 404 `no_such_plant` otherwise (as for a plant that does not exist). */
  async function loadVisible(req: Request, uid: string, scope: Reach) {
    await requirePlant(db, scope, uid, "see", "no_such_plant");
    const [row] = await plantRows(db, scope, { uids: [uid] });
    if (!row) throw notFound("no_such_plant");
    return row;
  }

  /** Checks node, package and uid of a plant body; resolves coordinates; returns the row values. */
  async function plantValues(scope: Reach, body: PlantBody, existing?: PlantRow) {
    const fields: Record<string, string> = {};
    const nodeSeq = body.nodeSeq ?? existing?.node_seq ?? scope.nodeSeq;
    if (nodeSeq == null) fields.nodeSeq = "required";
    else if (!reachesNode(scope, nodeSeq)) fields.nodeSeq = "not_in_your_group";
    if (body.packageSeq != null && !(await packageExists(db, body.packageSeq))) fields.packageSeq = "no_such_package";
    if (!existing && body.uid && (await db.selectFrom("plant").select("uid").where("uid", "=", body.uid).executeTakeFirst())) {
      fields.uid = "taken";
    }
    if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
    let lat = body.lat ?? null;
    let lng = body.lng ?? null;
    let geocoded = false;
    if (lat == null && body.address && opts.geocoder) {
      try {
        const point = await opts.geocoder.geocode(body.address);
        if (point) (({ lat, lng } = point), (geocoded = true));
      } catch (error) {
        ctx.log("geocoding failed", String(error));
      }
    }
    return {
      values: {
        name: body.name,
        alias: body.alias ?? null,
        capa: body.capa,
        locality: body.locality ?? null,
        address: body.address ?? null,
        lat,
        lng,
        node_seq: nodeSeq!,
        package_seq: body.packageSeq ?? null,
      },
      geocoded,
    };
  }

  r.get(
    "/plant",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      return { plantList: await plantRows(db, scope) };
    }),
  );

  r.get(
    "/management/plant",
    handle(async (req) => {
      requireAdmin(req, "plant");
      const scope = await reachOf(db, req.member!);
      const q = parse(ManagementQuery, req.query);
      const text = q.searchText?.trim();
      const type = q.searchType ?? "name";
      let rows = await plantRows(db, scope, {
        where: (query) => {
          let next = query;
          if (q.packageSeq) next = next.where("plant.package_seq", "=", q.packageSeq);
          if (text) next = next.where(likeLower(`plant.${type}`, text));
          return next;
        },
      });
      if (q.plantStatus && q.plantStatus !== "all") {
        const wanted = q.plantStatus;
        rows = rows.filter((p) => p.status !== 0 && (statusCategories(p.status) as string[]).includes(wanted));
      }
      return {
        packageList: await packageList(db),
        plantList: rows,
        nodeList: await nodeOptions(db, scope),
        geocoding: !!opts.geocoder,
      };
    }),
  );

  /** Choices for admin forms: packages, and the nodes the member may file things under. */
  r.get(
    "/management/options",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      return { packageList: await packageList(db), nodeList: await nodeOptions(db, scope), geocoding: !!opts.geocoder };
    }),
  );

  r.get(
    "/management/plant/setting",
    handle(async (req) => {
      requireAdmin(req, "plant");
      const scope = await reachOf(db, req.member!);
      const uid = queryString(req, "plantUid");
      if (!uid) throw badRequest("invalid_input", { plantUid: "required" });
      const plant = await loadVisible(req, uid, scope);
      const rtuList = await db.selectFrom("rtu").selectAll().where("plant_uid", "=", uid).orderBy("uid").execute();
      const deviceList = await db
        .selectFrom("device")
        .selectAll()
        .where("plant_uid", "=", uid)
        .orderBy("kind")
        .orderBy("name")
        .execute();
      return {
        plant,
        rtuList: rtuList.map(({ credential_hash, ...rtu }) => ({ ...rtu, hasCredential: !!credential_hash })),
        deviceList,
        packageList: await packageList(db),
        nodeList: await nodeOptions(db, scope),
        geocoding: !!opts.geocoder,
      };
    }),
  );

  /** RTUs that could be assigned to a plant: visible ones not already in the excluded plant. */
  r.get(
    "/management/plant/rtu",
    handle(async (req) => {
      requireAdmin(req, "plant");
      const scope = await reachOf(db, req.member!);
      const exclude = queryString(req, "exclude");
      const rows = await db
        .selectFrom("rtu")
        .leftJoin("plant", "plant.uid", "rtu.plant_uid")
        .select([
          "rtu.uid",
          "rtu.alias",
          "rtu.name",
          "rtu.mac",
          "rtu.kind",
          "rtu.plant_uid",
          "rtu.node_seq",
          "plant.name as plantName",
          "plant.node_seq as plantNodeSeq",
        ])
        .orderBy("rtu.uid")
        .execute();
      const rtuList = rows
        .filter((rtu) => (exclude ? rtu.plant_uid !== exclude : true) && canSeeRtu(scope, rtu, plantOf(rtu)))
        .map(({ plantNodeSeq: _, ...rtu }) => rtu);
      return { rtuList };
    }),
  );

  r.get(
    "/plant/:id",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      return { plant: await loadVisible(req, String(req.params.id), scope) };
    }),
  );

  r.post(
    "/plant",
    handle(async (req, res) => {
      const me = requireAdmin(req, "plant");
      const scope = await reachOf(db, me);
      const body = parse(PlantBodySchema, req.body);
      const { values, geocoded } = await plantValues(scope, body);
      const now = Date.now();
      const uid = body.uid ?? (await newUid(db, "plant", "P"));
      await db
        .insertInto("plant")
        .values({ uid, ...values, created_at: now, updated_at: now })
        .execute();
      res.status(201);
      return { plant: await loadVisible(req, uid, await reachOf(db, me)), geocoded };
    }),
  );

  r.put(
    "/plant/:id",
    handle(async (req) => {
      const me = requireAdmin(req, "plant");
      const scope = await reachOf(db, me);
      const existing = await loadVisible(req, String(req.params.id), scope);
      if (!existing.editable) throw forbidden("not_in_your_group");
      const body = parse(PlantBodySchema, req.body);
      const { values, geocoded } = await plantValues(scope, { ...body, uid: undefined }, existing);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("plant")
          .set({ ...values, updated_at: now })
          .where("uid", "=", existing.uid)
          .execute();
        // RTUs follow their plant's node (the group tree lists them there).
        if (values.node_seq !== existing.node_seq) {
          await trx
            .updateTable("rtu")
            .set({ node_seq: values.node_seq, updated_at: now })
            .where("plant_uid", "=", existing.uid)
            .execute();
        }
      });
      return { plant: await loadVisible(req, existing.uid, scope), geocoded };
    }),
  );

  r.delete(
    "/plant/:id",
    handle(async (req) => {
      const me = requireAdmin(req, "plant");
      const scope = await reachOf(db, me);
      const existing = await loadVisible(req, String(req.params.id), scope);
      if (!existing.editable) throw forbidden("not_in_your_group");
      requireDeleteConfirmation(req);
      return { deleted: existing.uid, ...(await deletePlant(db, existing.uid)) };
    }),
  );

  /**
   * Copies a plant (with its RTUs and devices) from another instance of this portal. The other
   * instance is reached with an account there (id + password, any level that can see the plant).
   */
  r.post(
    "/plant/copyplant",
    handle(async (req, res) => {
      const me = requireAdmin(req, "plant");
      const scope = await reachOf(db, me);
      const body = parse(CopyPlantBody, req.body);
      const nodeSeq = body.nodeSeq ?? scope.nodeSeq;
      if (nodeSeq == null || !reachesNode(scope, nodeSeq)) throw badRequest("invalid_input", { nodeSeq: "not_in_your_group" });
      const result = await copyPlantFromInstance(ctx, scope, { ...body, nodeSeq });
      res.status(201);
      return result;
    }),
  );

  return r;
}
