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
 * GET /statistics/subscriptions     the member's own scheduled reports (with the next run) and their e-mail address
 * POST /statistics/subscriptions    subscribe: report, frequency daily|weekly|monthly, plant | isGroup&group | (fleet), email, lang
 * DELETE /statistics/subscriptions/:seq   unsubscribe (another member's subscription answers 404)
 */
import { Router, type Request, type Response } from "express";
import type { AccessClaims } from "../../domain/contract/auth";
import { z } from "zod";
import {
  ExportQuery,
  ReportQuery,
  ScopeQuery,
  SubscriptionBody,
  type ReportKind,
  type StatisticsScopeResponse,
  type StatScope,
} from "../../domain/contract/statistics";
import { nextRunAt } from "../../domain/statistics-schedule";
import type { Clock } from "../clock";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { TableAnswers } from "../cache/table-answers";
import { shared } from "../cache/kept-tables";
import { badRequest, handle, JsonText, notFound, parse } from "../http";
import { exportFileName, writeCsv, writeXlsx } from "../statistics/export";
import { pdfFileName, pdfFontPath, writePdf } from "../statistics/pdf-report";
import { detailOfUnit, detailUnit } from "../../domain/statistics-table";
import { prepareReport, reportAnswer, type ScopeResolver } from "../statistics/report";
import { ReportCache, type ClusterNotices } from "../statistics/report-cache";
import { onDataChange } from "../store/data-changes";
import type { IngestService } from "../telemetry/ingest";
import { STEP_MS } from "../../domain/seoul-time";
import { groupOptions, resolveScope, rtuConfigOf, scopeMembers, type ResolvedScope } from "../store/statistics";
import {
  deleteSubscription,
  findSame,
  insertSubscription,
  listSubscriptions,
  subscriptionsWithEmail,
  toSubscription,
  type SubscriptionRow,
} from "../store/report-subscriptions";
import { reachOf, type Reach } from "../store/visibility";

/** At most this many scheduled reports per member. */
export const MAX_SUBSCRIPTIONS = 20;
const SeqParam = z.object({
  seq: z.coerce.number({ invalid_type_error: "not_an_id" }).int("not_an_id").min(1, "not_an_id").max(2_147_483_647, "not_an_id"),
});

const fleetName = (m: AccessClaims) => m.nodeName || m.id;

/** Memory of the report answer cache, and the longest an answer is kept (a safety net: changes drop answers at once). */
const REPORT_CACHE_BYTES = 48 * 1024 * 1024;
const REPORT_CACHE_TTL_MS = 15 * 60_000;
/**
 * Memory and longest life of the scope choices' and resolved scopes' answers. A write drops them at once, whoever
 * makes it (api/cache/table-answers.ts); the life is a safety net (a notice lost while a server was deaf is made up
 * for by dropping everything, but nothing is perfect).
 */
const SCOPE_CACHE = { maxBytes: 4 * 1024 * 1024, ttlMs: 60_000 };

export function statisticsRoutes(
  ctx: ApiContext,
  clock: Clock,
  deps: { ingest?: IngestService; notices?: ClusterNotices } = {},
): Router {
  const r = Router();
  const db = ctx.store.db;

  // Repeated reports are answered from a cache that every data change they read drops (api/statistics/report-cache.ts).
  const cache = new ReportCache({ maxBytes: REPORT_CACHE_BYTES, ttlMs: REPORT_CACHE_TTL_MS });
  deps.ingest?.onIngest(({ accepted }) => {
    let from = Infinity;
    let to = -Infinity;
    const devices = new Set<string>();
    for (const r of accepted) {
      devices.add(r.device.uid);
      from = Math.min(from, r.ts);
      to = Math.max(to, r.ts + 1);
    }
    cache.changed({ devices: [...devices], from, to });
  });
  onDataChange((change) => cache.changed(change));
  if (deps.notices) cache.share(deps.notices);
  // Answers read from the scope's tables, kept until a row of one of them is written (api/cache/table-answers.ts):
  // the member (enabled, node), their linked plants, the groups, plants and devices.
  const scopeAnswers = (channel: string) =>
    new TableAnswers({
      channel,
      reads: "reportScopes",
      ...SCOPE_CACHE,
      notices: deps.notices,
      store: ctx.store,
    });
  // The scope choices, which the report screen asks for on every page.
  const scopes = scopeAnswers("solar_stat_scope");
  // A report's resolved scope (the member's reach, the plants and devices with their names, ratings and places): a
  // report asked again costs no query for it. The RTUs' configuration is read apart (the rtu table is written by
  // every ingest). A kept scope is parsed once.
  const resolvedScopes = scopeAnswers("solar_stat_resolved");
  const parsedScopes = new WeakMap<JsonText, Omit<ResolvedScope, "rtuConfig">>();
  const keptScope: ScopeResolver = async (claims, sel, fleet) => {
    const { deviceUid, rtuUid, isGroup, group, plant } = sel;
    const text = await resolvedScopes.of(
      {
        id: claims.id,
        only: claims.scope ?? null,
        limit: claims.apiToken?.plants ?? null,
        fleet,
        sel: { deviceUid, rtuUid, isGroup, group, plant },
      },
      async () => scopeMembers(db, await reachOf(db, claims), sel, fleet),
    );
    let kept = parsedScopes.get(text);
    if (!kept) parsedScopes.set(text, (kept = shared(JSON.parse(text.body.toString()) as Omit<ResolvedScope, "rtuConfig">)));
    return { ...kept, rtuConfig: await rtuConfigOf(db, kept.devices) };
  };

  const report = (kind: ReportKind, categoryType?: "plant" | "group") =>
    handle(async (req: Request) => {
      const member = requireSettled(req);
      const parsed = parse(ReportQuery, req.query);
      const q = { ...parsed, categoryType: categoryType ?? parsed.categoryType };
      const now = clock.now();
      // The scope is resolved (kept until a table it reads is written): member-scoped 404s, and any edit of it is a new key.
      const p = await prepareReport(db, member, kind, q, now, fleetName(member), keptScope);
      const { period } = p.ctx;
      const key = ReportCache.keyOf({
        kind,
        unit: q.unit,
        sunRise: q.sunRise,
        per: q.categoryType ?? "plant",
        period,
        offset: q.offset ?? 0,
        limit: q.limit ?? null,
        series: !!q.series,
        resolved: p.resolved,
        hide: [p.hideCo2, p.hideRevenue],
        // A period reaching the present expects more readings with every 10-minute step.
        live: period.end > now - (now % STEP_MS) ? Math.floor(now / STEP_MS) : 0,
      });
      const kept = cache.get(key);
      if (kept) return kept;
      const since = cache.begin();
      const text = new JsonText(JSON.stringify(await reportAnswer(db, p, q, now)));
      cache.put(key, since, {
        text,
        devices: new Set(p.resolved.devices.map((d) => d.uid)),
        // Breaker operations compare with the reading before the period.
        from: period.start - STEP_MS,
        to: period.end,
      });
      return text;
    });

  r.get("/rpi", report("inverter"));
  r.get("/rpe", report("env"));
  r.get("/rpv", report("vcb"));
  r.get("/rpa", report("acb"));
  r.get("/rpi/statistics/group/plant", report("integrated", "plant"));
  r.get("/rpi/statistics/group/group", report("integrated", "group"));
  r.get("/rpe/statistics/group", report("env"));

  r.get(
    "/rpi/statistics/scope",
    handle(async (req) => {
      const member = requireSettled(req);
      const q = parse(ScopeQuery, req.query);
      const fleet = fleetName(member);
      // Besides the tables, the answer depends on who asks (and a detail window's narrower scope) and the query.
      return scopes.of(
        { id: member.id, only: member.scope ?? null, limit: member.apiToken?.plants ?? null, fleet, q },
        async (): Promise<StatisticsScopeResponse> => {
          const reach = await reachOf(db, member);
          const resolved = await resolveScope(db, reach, q, fleet);
          const all = await resolveScope(db, reach, {}, fleet);
          return {
            scope: resolved.scope,
            kinds: [...new Set(resolved.devices.map((d) => d.kind))].sort((a, b) => a - b),
            plants: all.plants.map((p) => ({ uid: p.uid, name: p.name, node_seq: p.node_seq })),
            groups: await groupOptions(db, reach),
          };
        },
      );
    }),
  );

  r.get(
    "/statistics/export",
    handle(async (req, res) => {
      const member = requireSettled(req);
      const q = parse(ExportQuery, req.query);
      const now = clock.now();
      if (q.format === "pdf") return pdfExport(res, member, q, now);
      const p = await prepareReport(db, member, q.report, q, now, fleetName(member), keptScope);
      const name = exportFileName(p, q.format);
      res.status(200);
      res.setHeader("Content-Disposition", `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
      res.type(
        q.format === "csv" ? "text/csv; charset=utf-8" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      try {
        if (q.format === "csv") await writeCsv(db, p, q.lang, res);
        else await writeXlsx(db, p, q.lang, res, member.id, now);
      } catch (e) {
        // Half a file is already on its way: cut the connection so the client sees a failed download, not a short file.
        ctx.log("statistics export failed", e);
        res.destroy();
      }
    }),
  );

  /**
   * The PDF (issue 26): complete at the detail asked (summary only, or every step by day or by hour: the detail
   * sets the unit), streamed page by page (api/statistics/pdf-report.ts). 404 no_font without a Hangul font.
   */
  async function pdfExport(
    res: Response,
    member: ReturnType<typeof requireSettled>,
    q: ReturnType<typeof ExportQuery.parse>,
    now: number,
  ) {
    const fontPath = pdfFontPath();
    if (!fontPath) throw notFound("no_font");
    const detail = q.detail ?? detailOfUnit(q.unit);
    const p = await prepareReport(
      db,
      member,
      q.report,
      { ...q, unit: detailUnit(detail, q.unit) },
      now,
      fleetName(member),
      keptScope,
    );
    const name = pdfFileName(p, detail);
    res.status(200);
    res.setHeader("Content-Disposition", `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    res.setHeader("Cache-Control", "private, no-store");
    res.type("application/pdf");
    try {
      await writePdf(db, p, { lang: q.lang, detail, by: member.id, at: now, fontPath }, res);
    } catch (e) {
      ctx.log("statistics PDF failed", e);
      res.destroy();
    }
  }

  const scopeOf = async (
    reach: Reach,
    row: Pick<SubscriptionRow, "plant_uid" | "group_seq">,
    fleet: string,
  ): Promise<StatScope> => {
    const sel =
      row.group_seq !== null ? { isGroup: true, group: Number(row.group_seq) } : row.plant_uid ? { plant: row.plant_uid } : {};
    try {
      return (await resolveScope(db, reach, sel, fleet)).scope;
    } catch {
      // No longer visible: the list still shows it (so it can be deleted), by its id only.
      return row.group_seq !== null
        ? { kind: "group", uid: String(row.group_seq), name: `#${row.group_seq}` }
        : { kind: "plant", uid: row.plant_uid ?? "", name: row.plant_uid ?? "" };
    }
  };

  r.get(
    "/statistics/subscriptions",
    handle(async (req) => {
      const member = requireSettled(req);
      // With the member's own address, which a new subscription's form offers (the report screen needs no other call).
      // A disabled member gets 403 from it, as from reachOf, which is asked only for a subscription's scope.
      const { rows, email } = await subscriptionsWithEmail(db, member.id);
      const reach = rows.length ? await reachOf(db, member) : null;
      const now = clock.now();
      const subscriptions = [];
      for (const row of rows) {
        const s = toSubscription(row, await scopeOf(reach!, row, fleetName(member)));
        subscriptions.push({ ...s, next_run: nextRunAt(s.frequency, now) });
      }
      return { subscriptions, email };
    }),
  );

  r.post(
    "/statistics/subscriptions",
    handle(async (req, res) => {
      const member = requireWriter(req);
      const body = parse(SubscriptionBody, req.body);
      const reach = await reachOf(db, member);
      const group = body.isGroup && body.group !== undefined ? body.group : null;
      if (body.isGroup && body.group === undefined) throw badRequest("invalid_input", { group: "required" });
      const plant = group === null ? (body.plant ?? null) : null;
      // A foreign plant or group answers 404, as everywhere.
      const scope = (
        await resolveScope(db, reach, group !== null ? { isGroup: true, group } : plant ? { plant } : {}, fleetName(member))
      ).scope;
      const wanted = {
        report: body.report,
        frequency: body.frequency,
        plant_uid: plant,
        group_seq: group,
        email: body.email,
        lang: body.lang,
      };
      const same = await findSame(db, member.id, wanted);
      const now = clock.now();
      if (same)
        return { subscription: { ...toSubscription(same, scope), next_run: nextRunAt(body.frequency, now) }, existing: true };
      if ((await listSubscriptions(db, member.id)).length >= MAX_SUBSCRIPTIONS) throw badRequest("too_many_subscriptions");
      const row = await insertSubscription(db, member.id, wanted, now);
      res.status(201);
      return { subscription: { ...toSubscription(row, scope), next_run: nextRunAt(body.frequency, now) }, existing: false };
    }),
  );

  r.delete(
    "/statistics/subscriptions/:seq",
    handle(async (req) => {
      const member = requireWriter(req);
      const { seq } = parse(SeqParam, req.params);
      await deleteSubscription(db, member.id, seq);
    }),
  );

  return r;
}
