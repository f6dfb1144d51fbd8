/**
 * Plant status calls (SPEC §7 "Plant status", §3 payloads, §4 status and ordering, §5 sanitising):
 *   GET  /pvstatus              overview of the member's plants: devices, calcValues, derived totals, counts
 *   GET  /pvstatus/new          one plant's fresh card data (plantUid), never cached
 *   POST /pvstatus/group        the ordered, filtered, searched, limited list of plant cards + counts
 *   GET  /plant/pvstatus        plant-status records (with today's hourly series unless series=0)
 * Every answer holds only plants the member may see (store/visibility.ts).
 */
import { Router, type Request } from "express";
import { z } from "zod";
import { UID_PATTERN } from "../../domain/fleet";
import { irradianceMode } from "../../domain/irradiance";
import { isShownByStatusFilter, STATUS_CATEGORIES, tallyStatusCodes, type StatusCategory } from "../../domain/status";
import { orderPlants, SORT_TYPES, VIEW_MODES } from "../../domain/ordering";
import {
  PVSTATUS_COUNT_TYPES,
  PVSTATUS_GROUP_TYPES,
  PVSTATUS_SEARCH_TYPES,
  type CardFault,
  type PlantCardData,
  type PlantStatusRecord,
  type PvstatusGroupResponse,
  type PvstatusOverviewResponse,
  type PvstatusSummaryResponse,
} from "../../domain/contract/pvstatus";
import { referenceGenerationSeries } from "../../domain/reference-generation";
import { sanitizePlantGeneration } from "../../domain/sanitize";
import { formatSeries } from "../../domain/series";
import { formatEnergy, formatPower, generationHours } from "../../domain/units";
import { requireSettled } from "../auth/guards";
import type { Clock } from "../clock";
import type { ApiContext } from "../context";
import { handle, JsonText, notFound, parse } from "../http";
import { reachOf, subtreeSeqs, visiblePlantUids } from "../store/visibility";
import { dailyReports, deviceOverview, fleetTotals } from "../store/fleet-totals";
import type { PlantStatusRow } from "../../domain/contract/status";
import { FETCH_LIMIT } from "../../domain/chart";
import { plantStatusRows } from "../store/plant-status";
import { todaySeries, type RawPlantSeries } from "../store/pvstatus-series";
import { TableAnswers } from "../cache/table-answers";
import { shared } from "../cache/kept-tables";
import { openFaults } from "../store/pvstatus-faults";
import { devicesAwaitingReading } from "../store/commands";
import { SMALL_SELECTION, StatusRows } from "../cache/status-rows";
import type { ClusterNotices } from "../cache/answer-cache";
import type { AlarmEngine } from "../telemetry/alarm-engine";
import type { IngestService } from "../telemetry/ingest";

export interface PvstatusDeps {
  clock: Clock;
  ingest?: IngestService;
  alarms?: AlarmEngine;
  /**
   * The cluster's notices: the kept visible-plant sets (api/cache/table-answers.ts) and the plants' status rows
   * (api/cache/status-rows.ts) are dropped on every server.
   */
  notices?: ClusterNotices;
}

/** The most a single list may hold (the map asks for every plant at once). */
export const MAX_LIST_LIMIT = 10_000;

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const boolish = z.preprocess((v) => (v === "1" || v === "true" ? true : v === "0" || v === "false" ? false : v), z.boolean());

const StatusList = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? [] : v.split(",").map((s) => s.trim())) : v),
  z.array(z.enum(STATUS_CATEGORIES as [StatusCategory, ...StatusCategory[]])).max(STATUS_CATEGORIES.length),
);

export const GroupBody = z
  .object({
    type: z.enum(PVSTATUS_GROUP_TYPES).default("node"),
    selnode: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
    uid: z.preprocess(emptyToUndefined, z.string().regex(UID_PATTERN, "bad_uid").optional()),
    viewMode: z.enum(VIEW_MODES as ["gd", "gh", "map"]).default("gd"),
    countType: z.enum(PVSTATUS_COUNT_TYPES).default("all"),
    st: StatusList.optional(),
    // SPEC §9's fetch limit, for a caller that names none (the portal always asks for the page it shows).
    limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(FETCH_LIMIT.initial),
    searchType: z.enum(PVSTATUS_SEARCH_TYPES).default("name"),
    searchText: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
    sortType: z.enum(SORT_TYPES as ["name", "capa", "iw", "today", "genTime"]).default("name"),
    order: z.enum(["asc", "desc"]).default("asc"),
    series: boolish.optional(),
    resolution: z.enum(["tenMinute", "hourly"]).default("tenMinute"),
  })
  .strict()
  .refine((b) => b.type !== "plant" || !!b.uid, { message: "required", path: ["uid"] });
export type GroupBodyInput = z.input<typeof GroupBody>;

const NewQuery = z.object({ plantUid: z.string().regex(UID_PATTERN, "bad_uid") });
const SeriesQuery = z.object({
  series: boolish.optional(),
  resolution: z.enum(["tenMinute", "hourly"]).optional(),
});
/** GET /pvstatus: `part=summary` answers the figures without the lists (PvstatusSummaryResponse). */
const OverviewQuery = SeriesQuery.extend({ part: z.enum(["summary"]).optional() });

/** Lower-case NFC text for substring search (Hangul typed on another OS may arrive decomposed). */
const folded = (s: string | null | undefined) => (s ?? "").normalize("NFC").toLowerCase();

function searchHaystack(row: PlantStatusRow, type: (typeof PVSTATUS_SEARCH_TYPES)[number]): string {
  if (type === "locality") return folded(row.locality);
  if (type === "uid") return folded(row.plant_uid);
  return folded(`${row.name} ${row.alias ?? ""}`);
}

/**
 * One plant's card (SPEC §3 Plant card data). Series, when given, are sanitised (SPEC §5). Today's
 * generation is the status row's, whose alarm rule was decided once in the store
 * (api/store/plant-status.ts, domain/sanitize.ts todayGeneration), so the card shows what the main
 * page, watch and detail show; it is not decided again here from the series.
 */
export function plantCard(
  row: PlantStatusRow,
  series: RawPlantSeries | undefined,
  faults: CardFault[],
  awaitingDevices = 0,
): PlantCardData {
  const s = sanitizePlantGeneration({ ...(series ?? {}), capa: row.capa, dailys: row.dailys, iw: row.iw });
  const mode = irradianceMode(s.his, s.iis);
  const source = mode === 0 ? null : mode === 1 ? "his" : "iis";
  const env = source === "his" ? s.his : source === "iis" ? s.iis : s.his;
  // Module temperature corrects the reference; without a reporting sensor there is no correction.
  const temperature = s.sts.some((v) => v !== 0) ? s.sts : [];
  const reference = series ? referenceGenerationSeries(s.capacityKw, env, temperature) : [];
  return {
    name: row.name,
    plant_uid: row.plant_uid,
    genData: {
      total_capa: s.capacityKw,
      capaUnit: "kW",
      labels: s.labels.join(","),
      invDatas: series ? formatSeries(s.generation, 3) : "",
      envDatas: series ? formatSeries(env, 1) : "",
      stsDatas: series ? formatSeries(reference, 3) : "",
      envInfo: { mode, source, unit: "W/m²" },
      iw: formatPower(row.iw),
      day_accrue: formatEnergy(s.dailys),
      month_accrue: formatEnergy(row.month),
      year_accrue: formatEnergy(row.year),
    },
    statusData: { status: row.status, statusName: row.statusName },
    totalGenTime: generationHours(s.dailys, row.capa),
    dailys: s.dailys,
    dailysZeroed: row.dailysZeroed,
    capa: row.capa,
    iwW: row.iw,
    locality: row.locality,
    lat: row.lat,
    lng: row.lng,
    faults,
    awaitingDevices,
  };
}

export function pvstatusRoutes(ctx: ApiContext, deps: PvstatusDeps): Router {
  const r = Router();
  const db = ctx.store.db;
  // Status rows kept per plant: a batch or an alarm change drops its plants' rows, here and on the other servers.
  const statusRows = new StatusRows(db, deps.clock, { notices: deps.notices, store: ctx.store });
  deps.ingest?.onIngest(({ plants }) => statusRows.plantsChanged(plants));
  deps.alarms?.onChange(({ plants }) => statusRows.plantsChanged(plants));

  /**
   * The member's visible plants (a wallboard polls every 6 s), a kept answer (api/cache/table-answers.ts): dropped
   * when the member, member_plant, node or plant table is written — at the commit on this server, when the notice
   * arrives on the others — and never served while this server's notice channel is down.
   */
  const visibleSets = new TableAnswers({
    channel: "solar_pvstatus_visible",
    reads: "visiblePlants",
    maxBytes: 8 * 1024 * 1024,
    ttlMs: 10 * 60_000,
    notices: deps.notices,
    store: ctx.store,
  });
  const parsedSets = new WeakMap<JsonText, readonly string[]>();
  async function visible(req: Request): Promise<readonly string[]> {
    const me = requireSettled(req);
    const text = await visibleSets.of({ id: me.id, scope: me.scope ?? null, limit: me.apiToken?.plants ?? null }, async () =>
      visiblePlantUids(db, await reachOf(db, me)),
    );
    let uids = parsedSets.get(text);
    if (!uids) parsedSets.set(text, (uids = shared(JSON.parse(text.body.toString()) as string[])));
    return uids;
  }

  async function cards(rows: PlantStatusRow[], withSeries: boolean, resolution: "tenMinute" | "hourly", now: number) {
    const uids = rows.map((p) => p.plant_uid);
    const [series, faults, awaiting] = await Promise.all([
      withSeries ? todaySeries(db, uids, now, resolution) : Promise.resolve(null),
      openFaults(db, uids),
      devicesAwaitingReading(db, uids),
    ]);
    return rows.map((p) => plantCard(p, series?.get(p.plant_uid), faults.get(p.plant_uid) ?? [], awaiting.get(p.plant_uid) ?? 0));
  }

  /**
   * Answers derived from one state of the kept status rows, per member and request body: many wallboards showing the
   * same view (often under one account) then cost one ordering and one card build while nothing changes. They are
   * kept serialised (a wallboard's poll then costs no JSON.stringify of a few hundred cards either), for at most
   * ANSWER_TTL_MS (rows also expire with time, which moves no generation).
   */
  const answers = new Map<string, JsonText>();
  let answersVersion = -1;
  let answersVisible = -1;
  let answersAt = 0;
  const MAX_ANSWERS = 1_000;
  const ANSWER_TTL_MS = 5_000;

  r.post(
    "/pvstatus/group",
    handle(async (req): Promise<JsonText> => {
      const body = parse(GroupBody, req.body ?? {});
      const me = requireSettled(req);
      // A repeated request within one snapshot: the answer kept for it, before any row is gathered.
      const asked = `${me.id}\u0000${me.scope ? `${me.scope.kind}:${me.scope.uid}` : ""}\u0000${JSON.stringify(body)}`;
      // Kept within one snapshot and one state of the visible-plant tables, and only while kept answers are served.
      const fresh = () =>
        statusRows.begin() === answersVersion &&
        visibleSets.begin() === answersVisible &&
        Date.now() - answersAt < ANSWER_TTL_MS &&
        statusRows.serving() &&
        visibleSets.serving();
      const hit = fresh() ? answers.get(asked) : undefined;
      if (hit) return hit;
      // The same request while its answer for this state is being computed waits for that one (a wallboard's polls
      // under live ingest, where the state changes with every batch and a kept answer rarely lives to be read).
      const flight = `${statusRows.begin()}\u0000${visibleSets.begin()}\u0000${asked}`;
      const joined = inFlight.get(flight);
      if (joined) return joined;
      const computing = groupAnswer(req, body, asked, fresh).finally(() => inFlight.delete(flight));
      inFlight.set(flight, computing);
      return computing;
    }),
  );

  const inFlight = new Map<string, Promise<JsonText>>();
  async function groupAnswer(
    req: Request,
    body: z.output<typeof GroupBody>,
    asked: string,
    fresh: () => boolean,
  ): Promise<JsonText> {
    const now = deps.clock.now();
    const visibleSince = visibleSets.begin();
    const version = statusRows.begin();
    let uids = await visible(req);
    if (body.type === "plant") uids = uids.filter((u) => u === body.uid);
    const all = await statusRows.rowsFor(uids);
    // Small selections are computed afresh each time (api/cache/status-rows.ts): their answers are not kept.
    const key = uids.length >= SMALL_SELECTION ? asked : null;
    // A change of any row, or of the visible-plant tables, makes every kept answer stale.
    if (version !== answersVersion || visibleSince !== answersVisible || Date.now() - answersAt >= ANSWER_TTL_MS) {
      answers.clear();
      answersVersion = version;
      answersVisible = visibleSince;
      answersAt = Date.now();
    }
    const cached = key && fresh() ? answers.get(key) : undefined;
    if (cached) return cached;
    let rows = all;
    if (body.type === "node" && body.selnode !== undefined) {
      const nodes = new Set(await subtreeSeqs(db, body.selnode));
      rows = rows.filter((p) => p.node_seq !== null && nodes.has(p.node_seq));
    }
    const needle = folded(body.searchText);
    const searched = needle ? rows.filter((p) => searchHaystack(p, body.searchType).includes(needle)) : rows;
    const counts = tallyStatusCodes((body.countType === "search" ? searched : rows).map((p) => p.status));
    const enabled = body.st ?? STATUS_CATEGORIES;
    const shown = searched.filter((p) => isShownByStatusFilter(p.status, enabled));
    const ordered = orderPlants(
      shown.map((p) => ({
        row: p,
        plant_uid: p.plant_uid,
        name: p.name,
        status: p.status,
        capa: p.capa,
        iw: p.iw,
        today: p.dailys,
        genTime: generationHours(p.dailys, p.capa),
      })),
      { view: body.viewMode, sortType: body.sortType, order: body.order, names: ctx.plantNames },
    );
    const page = ordered.slice(0, body.limit).map((o) => o.row);
    const withSeries = body.series ?? body.viewMode === "gh";
    const answer: PvstatusGroupResponse = {
      list: await cards(page, withSeries, body.resolution, now),
      counts,
      total: ordered.length,
      limit: body.limit,
      hasMore: ordered.length > body.limit,
      now,
    };
    const text = new JsonText(JSON.stringify(answer));
    if (key && version === answersVersion && fresh() && answers.size < MAX_ANSWERS) answers.set(key, text);
    return text;
  }

  r.get(
    "/pvstatus/new",
    handle(async (req, res): Promise<PlantCardData> => {
      const { plantUid } = parse(NewQuery, req.query);
      const { series, resolution } = parse(SeriesQuery, req.query);
      if (!(await visible(req)).includes(plantUid)) throw notFound("no_such_plant");
      res.setHeader("Cache-Control", "no-cache, no-store, must-revalidate");
      const now = deps.clock.now();
      // Fresh means fresh: straight from the store, never from the kept rows.
      const [row] = await plantStatusRows(db, [plantUid], now);
      if (!row) throw notFound("no_such_plant");
      const [card] = await cards([row], series ?? true, resolution ?? "tenMinute", now);
      return card!;
    }),
  );

  async function statusRecords(rows: PlantStatusRow[], withSeries: boolean, now: number): Promise<PlantStatusRecord[]> {
    const series = withSeries
      ? await todaySeries(
          db,
          rows.map((p) => p.plant_uid),
          now,
          "hourly",
        )
      : null;
    return rows.map((p) => {
      const s = series?.get(p.plant_uid);
      return {
        plant_uid: p.plant_uid,
        name: p.name,
        capa: p.capa,
        dailys: p.dailys,
        month: p.month,
        days: s?.days ?? "",
        times: s?.times ?? "",
        statusData: { status: p.status, statusName: p.statusName },
        iw: p.iw,
        locality: p.locality,
        lat: p.lat,
        lng: p.lng,
      };
    });
  }

  r.get(
    "/plant/pvstatus",
    handle(async (req) => {
      const { series } = parse(SeriesQuery, req.query);
      const now = deps.clock.now();
      const rows = await statusRows.rowsFor(await visible(req));
      return { plants: await statusRecords(rows, series ?? true, now), counts: tallyStatusCodes(rows.map((p) => p.status)), now };
    }),
  );

  r.get(
    "/pvstatus",
    handle(async (req): Promise<PvstatusOverviewResponse | PvstatusSummaryResponse> => {
      const { series, part } = parse(OverviewQuery, req.query);
      const now = deps.clock.now();
      const uids = await visible(req);
      const rows = await statusRows.rowsFor(uids);
      const { devices, calcValues } = await deviceOverview(db, uids, now);
      const totals = fleetTotals(rows, devices);
      const install = { plants: rows.length, inverters: devices.length, total_capa: totals.total_capa };
      const counts = tallyStatusCodes(rows.map((p) => p.status));
      if (part === "summary") return { ...totals, install, counts, now };
      return {
        pvstatus: {
          devices,
          reports: await dailyReports(db, uids, now, totals.today_gen),
          market: null,
          rec: null,
          install,
        },
        calcValues,
        ...totals,
        plants: await statusRecords(rows, series ?? false, now),
        counts,
        now,
      };
    }),
  );

  return r;
}
