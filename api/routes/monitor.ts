/**
 * Monitoring rows (SPEC §2 Monitoring screen, §3 Monitoring rows, §5 "200 or 204 accepted for
 * monitoring data", §7 GET /monitor/{kind}, default gen). One row per plant the member may see:
 *
 * GET /monitor/gen   plant_name, time (newest inverter reading), capa, iw, dailys, genTime, status…
 * GET /monitor/grid  plant_name, time (newest grid-side reading), devices, reporting, w, v, a, closed, open…
 *                    — only plants with grid-side devices (connection boards, VCB, ACB)
 *
 * Query: keyword (part of the plant name or alias), sortType name|time, order asc|desc (default name asc).
 * 204 when no row is left (no plants, or the keyword matched none).
 */
import { Router } from "express";
import { z } from "zod";
import { MONITOR_KEYWORD_MAX, MONITOR_KINDS, MONITOR_SORTS, matchesKeyword, orderMonitorRows } from "../../domain/monitoring";
import type { GenMonitorRow, GridMonitorRow, MonitorResponse, MonitorRowBase } from "../../domain/contract/monitor";
import { generationHours } from "../../domain/units";
import type { Clock } from "../clock";
import { requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { handle, parse } from "../http";
import { FRESH_MS, plantStatusRows } from "../store/plant-status";
import { gridSummaries } from "../store/watch";
import { reachOf, visiblePlantUids } from "../store/visibility";

const MonitorParams = z.object({ kind: z.enum(MONITOR_KINDS).default("gen") });
const MonitorQuery = z.object({
  keyword: z.string().trim().max(MONITOR_KEYWORD_MAX).default(""),
  sortType: z.enum(MONITOR_SORTS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
});

export function monitorRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  const monitor = handle(async (req, res): Promise<MonitorResponse | undefined> => {
    requireSettled(req);
    const { kind } = parse(MonitorParams, req.params);
    const q = parse(MonitorQuery, req.query);
    const plantUids = await visiblePlantUids(db, await reachOf(db, req.member!));
    const now = clock.now();
    const rows = (await plantStatusRows(db, plantUids, now)).filter((p) => matchesKeyword(q.keyword, p.name, p.alias));
    const base = (p: (typeof rows)[number]): Omit<MonitorRowBase, "time"> => ({
      plant_uid: p.plant_uid,
      plant_name: p.name,
      alias: p.alias,
      locality: p.locality,
      status: p.status,
      statusName: p.statusName,
      alarm_count: p.alarm_count,
    });
    let list: Array<GenMonitorRow | GridMonitorRow>;
    if (kind === "gen") {
      list = rows.map((p) => ({
        ...base(p),
        time: p.lastTs,
        capa: p.capa,
        iw: p.iw,
        dailys: p.dailys,
        dailysZeroed: p.dailysZeroed,
        genTime: generationHours(p.dailys, p.capa),
      }));
    } else {
      const grid = await gridSummaries(
        db,
        rows.map((p) => p.plant_uid),
        now,
        FRESH_MS,
      );
      list = rows.flatMap((p) => {
        const g = grid.get(p.plant_uid);
        return g ? [{ ...base(p), ...g }] : [];
      });
    }
    if (!list.length) {
      res.status(204);
      return undefined;
    }
    return { kind, monitorList: orderMonitorRows(list, q.sortType, q.order, ctx.plantNames), now };
  });
  r.get("/monitor", monitor);
  r.get("/monitor/:kind", monitor);
  return r;
}
