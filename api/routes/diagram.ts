/**
 * Diagram calls (SPEC §7 GET /diagram (plantName), GET /node/diagrams (uid, nodeUserId)) and the upload of a
 * drawing, which SPEC does not show: PUT /diagram/{plantUid}/svg {svg, bindings}, DELETE /diagram/{plantUid}/svg.
 * Every plant goes through api/store/visibility.ts: a plant the member may not see answers 404. Uploading
 * needs the plant administration level (SPEC §6) and a plant the member may edit; the drawing is sanitised
 * (api/svg/sanitize.ts) and its bindings must name elements of it and devices of that plant.
 */
import { Router, type Request } from "express";
import { canAdminister } from "../../domain/admin-levels";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  DiagramListQuery,
  DiagramQuery,
  DiagramUpload,
  type DiagramListResponse,
  type DiagramResponse,
  type DiagramUploadResponse,
} from "../../domain/contract/diagram";
import { buildSingleLine, deviceStates, sensorReadings } from "../../domain/diagram";
import { requireAdmin, requireSettled } from "../auth/guards";
import type { Clock } from "../clock";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, parse } from "../http";
import { plantDevices } from "../store/devices";
import { deleteDiagram, plantsWithDrawing, plantTopology, saveDiagram, storedDiagram } from "../store/diagrams";
import { namedPlants } from "../store/plants";
import { reachOf, requirePlant, visiblePlantUids } from "../store/visibility";
import { sanitizeSvg, SvgRejected } from "../../domain/svg-sanitize";

/** Diagrams are for members who have them (SPEC §3 user state `diagram`). */
function requireDiagramMember(req: Request): AccessClaims {
  const m = requireSettled(req);
  if (!m.diagram) throw forbidden("diagram_not_enabled");
  return m;
}

const plantParam = (req: Request) => parse(DiagramQuery, { plantName: req.params.plantUid }).plantName;

export function diagramRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/diagram",
    handle(async (req): Promise<DiagramResponse> => {
      const me = requireDiagramMember(req);
      const { plantName } = parse(DiagramQuery, req.query);
      const reach = await reachOf(db, me);
      const plant = await requirePlant(db, reach, plantName, "see");
      const [{ devices, alarms }, stored] = await Promise.all([plantTopology(db, plant.uid), storedDiagram(db, plant.uid)]);
      const at = clock.now();
      const states = deviceStates(devices, alarms, at);
      const byUid = new Map(states.map((s) => [s.device_uid, s]));
      const editable =
        !me.readOnly &&
        canAdminister("plant", me.auth) &&
        (await requirePlant(db, reach, plant.uid, "edit").then(
          () => true,
          () => false,
        ));
      return {
        plant: { plant_uid: plant.uid, name: plant.name, capa: Number(plant.capa), locality: plant.locality },
        kind: stored ? "svg" : "auto",
        root: buildSingleLine(devices, alarms, at),
        devices: states.filter((s) => s.kind !== 4),
        sensors: sensorReadings(devices, states),
        svg: stored?.svg ?? null,
        // A binding whose device was removed since is left out.
        bindings: (stored?.bindings ?? []).filter((b) => byUid.has(b.device_uid)),
        uploaded_at: stored?.uploaded_at ?? null,
        uploaded_by: stored?.uploaded_by ?? null,
        editable,
        now: at,
      };
    }),
  );

  r.get(
    "/node/diagrams",
    handle(async (req): Promise<DiagramListResponse> => {
      const me = requireDiagramMember(req);
      const q = parse(DiagramListQuery, req.query);
      // The member's own list only: another member's id reveals nothing.
      if (q.nodeUserId && q.nodeUserId !== me.id) throw forbidden("own_list_only");
      const reach = await reachOf(db, me);
      let uids = await visiblePlantUids(db, reach, "see");
      if (q.uid) uids = uids.filter((u) => u === q.uid);
      if (q.uid && !uids.length) await requirePlant(db, reach, q.uid, "see");
      const plants = await namedPlants(db, uids);
      const drawn = await plantsWithDrawing(db, uids);
      return {
        diagramList: plants.map((p) => ({
          plant_uid: p.uid,
          name: p.name,
          locality: p.locality,
          kind: drawn.has(p.uid) ? "svg" : "auto",
        })),
      };
    }),
  );

  r.put(
    "/diagram/:plantUid/svg",
    handle(async (req): Promise<DiagramUploadResponse> => {
      const me = requireAdmin(req, "plant");
      if (!me.diagram) throw forbidden("diagram_not_enabled");
      const uid = plantParam(req);
      const body = parse(DiagramUpload, req.body);
      const reach = await reachOf(db, me);
      const plant = await requirePlant(db, reach, uid, "edit");
      let clean;
      try {
        clean = sanitizeSvg(body.svg);
      } catch (e) {
        if (e instanceof SvgRejected) throw badRequest("invalid_input", { svg: "not_svg" });
        throw e;
      }
      const ids = new Set(clean.ids);
      const deviceUids = new Set((await plantDevices(db, plant.uid, [1, 2, 7, 8])).map((d) => d.uid));
      const fields: Record<string, string> = {};
      const seen = new Set<string>();
      body.bindings.forEach((b, i) => {
        if (!ids.has(b.element)) fields[`bindings.${i}.element`] ??= "no_such_element";
        else if (seen.has(b.element)) fields[`bindings.${i}.element`] ??= "duplicate";
        if (!deviceUids.has(b.device_uid)) fields[`bindings.${i}.device_uid`] ??= "no_such_device";
        seen.add(b.element);
      });
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      await saveDiagram(db, plant.uid, { svg: clean.svg, bindings: body.bindings, uploaded_by: me.id, uploaded_at: Date.now() });
      return { plant_uid: plant.uid, elements: clean.ids, bindings: body.bindings, removed: clean.removed };
    }),
  );

  r.delete(
    "/diagram/:plantUid/svg",
    handle(async (req) => {
      const me = requireAdmin(req, "plant");
      if (!me.diagram) throw forbidden("diagram_not_enabled");
      const uid = plantParam(req);
      const reach = await reachOf(db, me);
      const plant = await requirePlant(db, reach, uid, "edit");
      await deleteDiagram(db, plant.uid);
      return undefined;
    }),
  );

  return r;
}
