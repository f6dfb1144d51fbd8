/**
 * Statistics reports (SPEC §7 Statistics; payloads in domain/contract/statistics.ts, documented in
 * api/openapi/statistics.yaml). Every call is member-scoped through api/store/visibility.ts: a foreign
 * device, RTU, plant or group answers 404.
 *
 * GET /rpi   inverter history (reportInverters, with the scope's reportEnvs for irradiation)
 * GET /rpe   environment sensors (reportEnvs)        GET /rpv, /rpa   VCB, ACB (reportVcbs, reportAcbs)
 *   scope: repeated deviceUid or rtuUid; or isGroup=1&group=<node seq>; or plant=<uid>; or nothing (the fleet)
 *   unit 10|30|60|day|month (default 30), start, end ('YYYY-MM-DD[ HH:mm[:ss]]', Seoul; a bare end date is
 *   inclusive), sunRise (daylight steps only)
 * GET /rpi/statistics/group/plant   integrated report, one row per plant and step (reportPlants)
 * GET /rpi/statistics/group/group   integrated report, one row per step for the whole scope
 * GET /rpe/statistics/group         environment report of a group's (or plant's) sensors
 * GET /rpi/statistics/scope         what the report screen may offer for a scope (plants, groups, kinds)
 * GET /statistics/export            report=…&format=csv|xlsx&… — the report as a streamed file
 */
import { Router, type Request } from "express";
import type { AccessClaims } from "../../domain/contract/auth";
import {
  ExportQuery,
  ReportQuery,
  ScopeQuery,
  type ReportKind,
  type StatisticsScopeResponse,
} from "../../domain/contract/statistics";
import type { Clock } from "../clock";
import { requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { handle, parse } from "../http";
import { exportFileName, writeCsv, writeXlsx } from "../statistics/export";
import { buildReport, prepareReport } from "../statistics/report";
import { groupOptions, resolveScope } from "../store/statistics";
import { reachOf } from "../store/visibility";

const fleetName = (m: AccessClaims) => m.nodeName || m.id;

export function statisticsRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  const report = (kind: ReportKind, categoryType?: "plant" | "group") =>
    handle(async (req: Request) => {
      const member = requireSettled(req);
      const q = parse(ReportQuery, req.query);
      return buildReport(db, member, kind, { ...q, categoryType: categoryType ?? q.categoryType }, clock.now(), fleetName(member));
    });

  r.get("/rpi", report("inverter"));
  r.get("/rpe", report("env"));
  r.get("/rpv", report("vcb"));
  r.get("/rpa", report("acb"));
  r.get("/rpi/statistics/group/plant", report("integrated", "plant"));
  r.get("/rpi/statistics/group/group", report("integrated", "group"));
  r.get("/rpe/statistics/group", report("env"));

  r.get("/rpi/statistics/scope", handle(async (req): Promise<StatisticsScopeResponse> => {
    const member = requireSettled(req);
    const q = parse(ScopeQuery, req.query);
    const reach = await reachOf(db, member);
    const resolved = await resolveScope(db, reach, q, fleetName(member));
    const all = await resolveScope(db, reach, {}, fleetName(member));
    return {
      scope: resolved.scope,
      kinds: [...new Set(resolved.devices.map((d) => d.kind))].sort((a, b) => a - b),
      plants: all.plants.map((p) => ({ uid: p.uid, name: p.name, node_seq: p.node_seq })),
      groups: await groupOptions(db, reach),
    };
  }));

  r.get("/statistics/export", handle(async (req, res) => {
    const member = requireSettled(req);
    const q = parse(ExportQuery, req.query);
    const now = clock.now();
    const p = await prepareReport(db, member, q.report, q, now, fleetName(member));
    const name = exportFileName(p, q.format);
    res.status(200);
    res.setHeader("Content-Disposition", `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    res.type(q.format === "csv" ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    try {
      if (q.format === "csv") await writeCsv(db, p, q.lang, res);
      else await writeXlsx(db, p, q.lang, res, member.id, now);
    } catch (e) {
      // Half a file is already on its way: cut the connection so the client sees a failed download, not a short file.
      ctx.log("statistics export failed", e);
      res.destroy();
    }
  }));

  return r;
}
