/**
 * Custom page calls (SPEC §7 POST /custom {plantName, unique, invStr, envStr}, GET /node/customs), plus
 * GET /custom/{unique} (the page with what each widget shows now) and DELETE /custom/{unique}.
 * Pages are the calling member's own: another member's page does not exist for them (404). Every widget's
 * plant goes through api/store/visibility.ts: saving a widget of a plant the member may not see answers 404;
 * a page whose plant has since gone out of reach shows that widget empty (plant null).
 */
import { Router, type Request } from "express";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  CustomListQuery,
  CustomPageInput,
  CustomUnique,
  PAGES_PER_MEMBER_MAX,
  type CustomListResponse,
  type CustomPageResponse,
  type CustomSaveResponse,
  type CustomWidgetView,
} from "../../domain/contract/custom";
import { deviceStates, sensorReadings } from "../../domain/diagram";
import { requireSettled, requireWriter } from "../auth/guards";
import type { Clock } from "../clock";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { deletePage, memberPage, memberPages, savePageWithin } from "../store/custom-pages";
import { plantDevices } from "../store/devices";
import { plantTopology } from "../store/diagrams";
import { namedPlants } from "../store/plants";
import { plantStatusRows } from "../store/plant-status";
import { todaySeries } from "../store/pvstatus-series";
import { reachOf, requirePlant, visiblePlantUids } from "../store/visibility";
import { openFaults } from "../store/pvstatus-faults";
import { plantCard } from "./pvstatus";

/** Custom pages are for members who have them (SPEC §3 user state `page`). */
function pageMember(req: Request, write = false): AccessClaims {
  const m = write ? requireWriter(req) : requireSettled(req);
  if (!m.page) throw forbidden("page_not_enabled");
  return m;
}

const uniqueParam = (req: Request) => parse(CustomUnique, req.params.unique);

export function customRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/node/customs",
    handle(async (req): Promise<CustomListResponse> => {
      const me = pageMember(req);
      const q = parse(CustomListQuery, req.query);
      const reach = await reachOf(db, me);
      const pages = await memberPages(db, me.id);
      const uids = await visiblePlantUids(db, reach, "see");
      const plants = await namedPlants(db, uids);
      const out: CustomListResponse = {
        customList: pages.map((p) => ({
          unique: p.unique,
          title: p.title,
          widgetCount: p.widgets.length,
          updated_at: p.updated_at,
        })),
        plantList: plants.map((p) => ({ plant_uid: p.uid, name: p.name })),
      };
      if (q.plant) {
        const plant = await requirePlant(db, reach, q.plant, "see");
        const devices = await plantDevices(db, plant.uid, [1, 4], { inUse: true });
        out.deviceList = devices.map((d) => ({ device_uid: d.uid, kind: d.kind, name: d.name }));
      }
      return out;
    }),
  );

  r.get(
    "/custom/:unique",
    handle(async (req): Promise<CustomPageResponse> => {
      const me = pageMember(req);
      const unique = uniqueParam(req);
      const page = await memberPage(db, me.id, unique);
      if (!page) throw notFound("page_not_found");
      const now = clock.now();
      const visible = new Set(await visiblePlantUids(db, await reachOf(db, me), "see"));
      const plantUids = [...new Set(page.widgets.map((w) => w.plantName))].filter((u) => visible.has(u));
      const rows = new Map((await plantStatusRows(db, plantUids, now)).map((p) => [p.plant_uid, p]));
      const chartUids = [
        ...new Set(page.widgets.filter((w) => w.kind === "chart" && rows.has(w.plantName)).map((w) => w.plantName)),
      ];
      const series = chartUids.length ? await todaySeries(db, chartUids, now) : new Map();
      const faults = await openFaults(db, plantUids);
      const topology = new Map<string, Awaited<ReturnType<typeof plantTopology>>>();
      for (const uid of new Set(
        page.widgets
          .filter((w) => (w.kind === "inverter" || w.kind === "environment") && rows.has(w.plantName))
          .map((w) => w.plantName),
      )) {
        topology.set(uid, await plantTopology(db, uid));
      }
      const widgets: CustomWidgetView[] = page.widgets.map((w, index) => {
        const row = rows.get(w.plantName);
        if (!row) return { ...w, index, plant: null };
        const view: CustomWidgetView = { ...w, index, plant: { plant_uid: row.plant_uid, name: row.name } };
        const pick = (list: string) => (list ? new Set(list.split(",")) : null);
        if (w.kind === "status") view.card = plantCard(row, undefined, faults.get(row.plant_uid) ?? []);
        if (w.kind === "chart") view.card = plantCard(row, series.get(row.plant_uid), faults.get(row.plant_uid) ?? []);
        if (w.kind === "inverter" || w.kind === "environment") {
          const t = topology.get(row.plant_uid)!;
          const states = deviceStates(t.devices, t.alarms, now);
          const chosen = pick(w.kind === "inverter" ? w.invStr : w.envStr);
          if (w.kind === "inverter") view.inverters = states.filter((s) => s.kind === 1 && (!chosen || chosen.has(s.device_uid)));
          else view.sensors = sensorReadings(t.devices, states).filter((s) => !chosen || chosen.has(s.device_uid));
        }
        return view;
      });
      return { page, widgets, now };
    }),
  );

  r.post(
    "/custom",
    handle(async (req, res): Promise<CustomSaveResponse> => {
      const me = pageMember(req, true);
      const input = parse(CustomPageInput, req.body);
      const reach = await reachOf(db, me);
      const fields: Record<string, string> = {};
      for (const [i, w] of input.widgets.entries()) {
        // A plant the member may not see: 404, as if it did not exist.
        await requirePlant(db, reach, w.plantName, "see");
        const want = (list: string, kind: number, field: "invStr" | "envStr") => async () => {
          if (!list) return;
          const uids = list.split(",");
          const found = await plantDevices(db, w.plantName, [kind], { uids });
          if (found.length !== uids.length) fields[`widgets.${i}.${field}`] = "no_such_device";
        };
        await want(w.invStr, 1, "invStr")();
        await want(w.envStr, 4, "envStr")();
      }
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      const created = await savePageWithin(db, me.id, input, PAGES_PER_MEMBER_MAX, Date.now());
      if (created === "full") throw badRequest("invalid_input", { unique: "too_many_pages" });
      res.status(created ? 201 : 200);
      return { unique: input.unique, created };
    }),
  );

  r.delete(
    "/custom/:unique",
    handle(async (req) => {
      const me = pageMember(req, true);
      const unique = uniqueParam(req);
      const gone = await deletePage(db, me.id, unique);
      if (!gone) throw notFound("page_not_found");
      return undefined;
    }),
  );

  return r;
}
