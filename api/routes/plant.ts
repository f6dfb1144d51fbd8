/**
 * Plants (SPEC §7 Plants): list, read, create, edit, delete, copy from another instance, and the
 * management views (/management/plant…). Reads need a settled member and are scoped to what the
 * member may see; writes need the 'plant' admin area (SPEC §6: level ≥ 2) and a node in the member's subtree.
 */
import { Router, type Request } from "express";
import { z } from "zod";
import { AssignableRtuQuerySchema, CopyPlantBody, PlantBodySchema, type PlantBody } from "../../domain/fleet";
import { statusCategories, isStatusCategory } from "../../domain/status";
import { requireAdmin, requireSettled } from "../auth/guards";
import { copyPlantFromInstance } from "../crawling/import";
import type { ApiContext } from "../context";
import type { PlantRow } from "../../domain/contract/fleet";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { canSeeRtu } from "../../domain/visibility";
import { deletePlant, newUid, nodeOptions, packageExists, packageList } from "../store/fleet";
import { changePlant, createPlant, plantHardware, plantRows, plantUidTaken, rtusWithPlants, SEARCH_TYPES } from "../store/plants";
import { nodeInReach, plantOf, reachOf, requirePlant, subtreeSeqs, type Reach } from "../store/visibility";
import { queryString, requireDeleteConfirmation, type FleetOptions } from "./fleet-common";

const ManagementQuery = z.object({
  plantStatus: z
    .string()
    .optional()
    .refine((v) => !v || v === "all" || isStatusCategory(v), "bad_status"),
  packageSeq: z.coerce.number().int().positive().optional(),
  searchType: z.enum(SEARCH_TYPES).optional(),
  searchText: z.string().max(100).optional(),
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
    else if (!(await nodeInReach(db, scope, nodeSeq))) fields.nodeSeq = "not_in_your_group";
    if (body.packageSeq != null && !(await packageExists(db, body.packageSeq))) fields.packageSeq = "no_such_package";
    if (!existing && body.uid && (await plantUidTaken(db, body.uid))) {
      fields.uid = "taken";
    }
    if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
    let lat = body.lat ?? null;
    let lng = body.lng ?? null;
    let geocoded = false;
    if (lat == null && body.address && opts.geocoder) {
      try {
        const point = await opts.geocoder.geocode(body.address);
        if (point) {
          ({ lat, lng } = point);
          geocoded = true;
        }
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
      let rows = await plantRows(db, scope, { packageSeq: q.packageSeq, search: text ? { column: type, text } : undefined });
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
      const { rtuList, deviceList } = await plantHardware(db, uid);
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

  /**
   * RTUs that could be assigned to a plant: visible ones not already in the excluded plant, narrowed by search,
   * where they are now and group, a page at a time (the form listed 47 checkboxes at once, issue 26 point 10).
   */
  r.get(
    "/management/plant/rtu",
    handle(async (req) => {
      requireAdmin(req, "plant");
      const q = parse(AssignableRtuQuerySchema, req.query);
      const scope = await reachOf(db, req.member!);
      const rows = await rtusWithPlants(db);
      const inGroup = q.group !== undefined ? new Set(await subtreeSeqs(db, q.group)) : null;
      const text = q.q?.toLowerCase();
      const holds = (v: string | null) => !!v && v.toLowerCase().includes(text!);
      const matching = rows.filter(
        (rtu) =>
          (q.exclude ? rtu.plant_uid !== q.exclude : true) &&
          canSeeRtu(scope, rtu, plantOf(rtu)) &&
          (q.assigned === "free" ? !rtu.plant_uid : q.assigned === "other" ? !!rtu.plant_uid : true) &&
          (!inGroup ||
            (rtu.node_seq !== null && inGroup.has(Number(rtu.node_seq))) ||
            (rtu.plantNodeSeq !== null && inGroup.has(Number(rtu.plantNodeSeq)))) &&
          (!text || holds(rtu.uid) || holds(rtu.name) || holds(rtu.alias) || holds(rtu.mac) || holds(rtu.plantName)),
      );
      const rtuList = matching.slice((q.page - 1) * q.size, q.page * q.size).map(({ plantNodeSeq: _, ...rtu }) => rtu);
      return { rtuList, total: matching.length, page: q.page, size: q.size };
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
      await createPlant(db, uid, values, now);
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
      // RTUs follow their plant's node (the group tree lists them there).
      await changePlant(db, existing, values, now);
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
      if (nodeSeq == null || !(await nodeInReach(db, scope, nodeSeq)))
        throw badRequest("invalid_input", { nodeSeq: "not_in_your_group" });
      const result = await copyPlantFromInstance(ctx, scope, { ...body, nodeSeq });
      res.status(201);
      return result;
    }),
  );

  return r;
}
