/**
 * The total list (SPEC §3 Total, §7 GET /total) and loading a plant's history from another instance
 * (POST /total/loadData), plus the history export that such a load reads (GET /plant/{uid}/history).
 */
import { Router } from "express";
import { z } from "zod";
import { DEVICE_KIND } from "../../domain/device";
import { LoadHistoryBody } from "../../domain/fleet";
import { requireAdmin, requireSettled } from "../auth/guards";
import { adapterFor } from "../crawling/adapters";
import { DAY_MS, loadPlantHistory, parsePlantUrl } from "../crawling/import";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, parse } from "../http";
import { seoulDayStart } from "../../domain/seoul-time";
import { reachesNode } from "../../domain/visibility";
import { fleetInventory, plantHistory } from "../store/totals";
import { plantSet, reachOf, requirePlant } from "../store/visibility";

export const RTU_LIST_SEPARATOR = "^";

const HistoryQuery = z
  .object({
    start: z.coerce.number().int().min(0),
    end: z.coerce.number().int().min(0),
  })
  .refine((q) => q.end > q.start && q.end - q.start <= DAY_MS, { message: "at_most_one_day", path: ["end"] });

export function totalRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/total",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const visible = await plantSet(db, scope);
      const inventory = await fleetInventory(db);
      const plants = inventory.plants.filter((p) => visible.has(p.uid));
      const { rtus, devices } = inventory;
      const byPlant = new Map<string, typeof rtus>();
      for (const rtu of rtus) if (rtu.plant_uid) byPlant.set(rtu.plant_uid, [...(byPlant.get(rtu.plant_uid) ?? []), rtu]);
      const kinds = new Map<string, Record<string, number>>();
      for (const d of devices) {
        if (!d.plant_uid || !visible.has(d.plant_uid)) continue;
        const k = kinds.get(d.plant_uid) ?? {};
        k[d.kind] = (k[d.kind] ?? 0) + 1;
        kinds.set(d.plant_uid, k);
      }
      const totalList = plants.map((p) => {
        const list = byPlant.get(p.uid) ?? [];
        return {
          plant_uid: p.uid,
          name: p.name,
          capa: Number(p.capa),
          node_seq: p.node_seq,
          nodeName: p.nodeName,
          rtu_count: list.length,
          rtu_alias_list: list.map((x) => (x.alias || x.name).replaceAll(RTU_LIST_SEPARATOR, " ")).join(RTU_LIST_SEPARATOR),
          rtu_mac_list: list.map((x) => x.mac ?? "").join(RTU_LIST_SEPARATOR),
        };
      });
      const totalOfPlantList = plants.map((p) => {
        const k = kinds.get(p.uid) ?? {};
        return {
          plant_uid: p.uid,
          name: p.name,
          inverter: k[DEVICE_KIND.inverter] ?? 0,
          connectionBoard: k[DEVICE_KIND.connectionBoard] ?? 0,
          environmentSensor: k[DEVICE_KIND.environmentSensor] ?? 0,
          vcb: k[DEVICE_KIND.vcb] ?? 0,
          acb: k[DEVICE_KIND.acb] ?? 0,
        };
      });
      const unassigned = rtus.filter((x) => !x.plant_uid && reachesNode(scope, x.node_seq));
      const total = {
        plantCount: plants.length,
        capa: plants.reduce((s, p) => s + Number(p.capa), 0),
        rtuCount: totalList.reduce((s, p) => s + p.rtu_count, 0),
        rtusNotInPlant: unassigned.length,
        deviceCount: totalOfPlantList.reduce(
          (s, p) => s + p.inverter + p.connectionBoard + p.environmentSensor + p.vcb + p.acb,
          0,
        ),
      };
      return { totalList, total, totalOfPlantList };
    }),
  );

  /**
   * Copies history of a plant that exists here (same plant and device uids, e.g. after copyplant or an
   * import) from another instance of this portal, day by day, for the last `days` days.
   */
  r.post(
    "/total/loadData",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const body = parse(LoadHistoryBody, req.body);
      if (!(await plantSet(db, scope)).has(body.uid)) throw badRequest("invalid_input", { uid: "no_such_plant" });
      if (!(await plantSet(db, scope, "edit")).has(body.uid)) throw forbidden("not_in_your_group");
      const { baseUrl } = parsePlantUrl(body.url);
      const adapter = adapterFor({ site: "portal", baseUrl, id: body.id, password: body.password });
      const end = seoulDayStart(Date.now()) + DAY_MS;
      const start = end - body.days * DAY_MS;
      return loadPlantHistory(db, adapter, body.uid, { start, end });
    }),
  );

  /** One window (≤ 1 day) of a visible plant's stored history: raw measurements and rollups. */
  r.get(
    "/plant/:id/history",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      const uid = String(req.params.id);
      await requirePlant(db, scope, uid, "see", "no_such_plant");
      const q = parse(HistoryQuery, req.query);
      const { devices, tables } = await plantHistory(db, uid, q.start, q.end);
      return { plantUid: uid, start: q.start, end: q.end, devices, tables };
    }),
  );

  return r;
}
