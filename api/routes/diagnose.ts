/**
 * Diagnosis (SPEC §7 Diagnosis, §2/§6 service bits, §5 only inverters): is the plant producing what it should?
 *
 * POST /diagnose/produce    generation and specific yield per inverter against its plant's median, worst first
 * POST /diagnose/generate   a plant's generation against the temperature-corrected reference, with the
 *                           IEC 61724-1 figures, the loss breakdown and its availability (time and energy, with
 *                           coverage: domain/analytics/availability.ts; docs/analytics.md)
 * GET  /diagnose/compare    devices side by side for one data type; the first selection is remembered (§4)
 * DELETE /diagnose/compare/selection   forget the remembered selection
 * GET  /diagnose/ranking    the member's plants by EPI, lowest first
 * PUT  /diagnose/coefficients/{plantUid}   a plant's γ and η (writers who may edit the plant)
 *
 * produce/generate/ranking need the diagnoseAll service bit; compare needs diagnoseCompare or diagnoseAll.
 */
import { Router, type Request } from "express";
import { availabilityStepMinutes, availabilityWithinBounds, plantAvailability } from "../../domain/analytics/availability";
import { prWithAvailability } from "../../domain/analytics/capacity-test";
import { bucketKeys, bucketOf, checkPeriod, type Period } from "../../domain/diagnose-period";
import {
  COMPARE_TYPES,
  CoefficientsSchema,
  CompareQuerySchema,
  DiagnoseRequestSchema,
  RankingQuerySchema,
  type CompareKind,
  type CompareResponse,
  type CompareType,
  type DiagnosePeriodEcho,
  type GenerateResponse,
  type ProduceResponse,
  type ProducerRow,
  type RankingResponse,
} from "../../domain/contract/diagnose";
import { isRated, rankingRow, sortRanking, splitByRating } from "../../domain/diagnose-ranking";
import { irradianceMode } from "../../domain/irradiance";
import {
  addSums,
  deviationFromMedian,
  expectedEnergyKwh,
  figuresFromSums,
  median,
  performanceSums,
  type PerformanceBucket,
  type PerformanceCoefficients,
  type PerformanceSums,
} from "../../domain/performance";
import { formatSeoul } from "../../domain/seoul-time";
import { shiftHourly } from "../../domain/series";
import { hasService } from "../../domain/service-bits";
import { canSeeDevice } from "../../domain/visibility";
import type { Clock } from "../clock";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import {
  compareSeries,
  deviceNames,
  devicesWithPlaces,
  availabilityGrid,
  envBuckets,
  fleetAvailability,
  fleetSums,
  forgetSelection,
  refreshStalePlants,
  inverterBuckets,
  inverterEnergy,
  inverterGroups,
  inverterInfos,
  performanceBucket,
  plantDays,
  plantCoefficients,
  plantsFor,
  rememberedSelection,
  rememberFirstSelection,
  rtuInverterUids,
  setPlantCoefficients,
  type InverterBucket,
  type InverterInfo,
  type PlantDay,
} from "../store/diagnose";
import { ordersOf } from "../store/curtailment";
import {
  curtailmentExclusions,
  curtailmentLoss,
  inOrder,
  orderHours,
  withoutEnergyOf,
  type CurtailmentLoss,
  type OrderInterval,
} from "../../domain/curtailment";
import { reachOf, requirePlant, requireRtu, visiblePlantUids, type Reach } from "../store/visibility";
import type { Database } from "../store/schema";
import type { Kysely } from "kysely";

function periodOf(start: string, end: string, unit: number): Period {
  const c = checkPeriod(start, end, unit);
  if (!c.ok) throw badRequest(c.problem, { [c.field]: c.problem });
  // Whole buckets: a daily diagnosis starting at 09:00 covers that whole day.
  return { ...c.period, from: bucketOf(c.period.from, c.period.unit) };
}

/** A bucket's label in Seoul time ('YYYY-MM-DD' at unit day, else 'YYYY-MM-DD HH:mm'). */
export function labelOf(t: number, unit: number): string {
  return formatSeoul(t, unit === 1440 ? "YYYY-MM-DD" : "YYYY-MM-DD HH:mm");
}

/**
 * Devices of a request, each visible to the member (404 otherwise, as for a missing one), read with their plant and
 * RTU in one query (visibility depends only on those).
 */
async function visibleDevices(db: Kysely<Database>, reach: Reach, uids: string[]) {
  const unique = [...new Set(uids)];
  const rows = await devicesWithPlaces(db, unique);
  if (rows.length !== unique.length) throw notFound("device_not_found");
  const seq = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  for (const d of rows) {
    const plant = d.p_uid ? { uid: d.p_uid, node_seq: seq(d.p_node) } : null;
    const rtu = d.r_uid ? { plant_uid: d.r_plant ?? null, node_seq: seq(d.r_node) } : null;
    if (!canSeeDevice(reach, { plant_uid: d.plant_uid }, plant, rtu)) throw notFound("device_not_found");
  }
  return rows;
}

/** The inverters a produce/generate request names (SPEC §5: only kind 1; an RTU stands for its inverters). */
async function requestedInverters(
  db: Kysely<Database>,
  reach: Reach,
  deviceUids: string[],
  rtuUids: string[],
): Promise<string[]> {
  const devices = await visibleDevices(db, reach, deviceUids);
  if (devices.some((d) => Number(d.kind) !== 1)) throw badRequest("only_inverters", { deviceUids: "only_inverters" });
  const uids = devices.map((d) => d.uid);
  for (const rtu of new Set(rtuUids)) {
    await requireRtu(db, reach, rtu);
    for (const uid of await rtuInverterUids(db, rtu)) if (!uids.includes(uid)) uids.push(uid);
  }
  if (!uids.length) throw badRequest("no_inverters", { deviceUids: "required" });
  return uids;
}

function requireDiagnoseAll(req: Request) {
  const me = requireSettled(req);
  if (!hasService(me.service, "diagnoseAll")) throw forbidden("service_not_allowed");
  return me;
}

export function diagnoseRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  /** What produce and generate both start from: the service bit, the body, the period, the member's inverters. */
  async function diagnoseRequest(req: Request) {
    const me = requireDiagnoseAll(req);
    const body = parse(DiagnoseRequestSchema, req.body ?? {});
    const p = periodOf(body.start, body.end, body.unit);
    const uids = await requestedInverters(db, await reachOf(db, me), body.deviceUids, body.rtuUids);
    return { body, p, uids, infos: await inverterInfos(db, uids) };
  }

  /**
   * rollup_plant_daily's days of a plant when the request names every rated inverter it has (those rows are over
   * exactly them), brought up to date first; null otherwise.
   */
  async function wholePlantDays(plantUid: string, ratedAsked: number, q: Period): Promise<Map<number, PlantDay> | null> {
    const [plant] = await plantsFor(db, [plantUid]);
    if (!plant || plant.ratedInverters !== ratedAsked) return null;
    await refreshStalePlants(db, ctx.store.dialect === "postgres", [plantUid]);
    return plantDays(db, plantUid, q.from, q.to);
  }

  /**
   * PR's sums of the hours inside orders of a daily diagnosis (rollup_hourly, grouped as generate groups them at an
   * hour), to take off the days read whole: sums are linear in the buckets, so a day less its order hours is exact.
   */
  async function orderHourSums(
    plantUid: string,
    infos: InverterInfo[],
    orders: readonly OrderInterval[],
    q: Period,
    k: PerformanceCoefficients,
  ): Promise<PerformanceSums> {
    const hp: Period = { from: q.from, to: q.to, unit: 60 };
    const hours = bucketKeys(hp, clock.now()).filter((t) => inOrder(t, orders));
    if (!hours.length || !infos.length) return performanceSums([], k);
    const [groups, env] = await Promise.all([inverterGroups(db, infos, hp, hours), envBuckets(db, plantUid, hp)]);
    const buckets: PerformanceBucket[] = [];
    for (const g of groups) {
      if (!g.reported) continue;
      const inv = { t: g.t, energyKwh: g.energyKwh, maxKw: g.maxKw, runSteps: g.runSteps };
      buckets.push({ ...performanceBucket(inv, env.get(g.t), g.capacityKw * g.reported, 60), count: g.reported });
    }
    return performanceSums(buckets, k);
  }

  r.post(
    "/diagnose/produce",
    handle(async (req): Promise<ProduceResponse> => {
      const { body, p, uids, infos } = await diagnoseRequest(req);
      const energy = await inverterEnergy(db, uids, p);
      const yieldOf = (i: (typeof infos)[number]) =>
        i.capacityKw > 0 && energy.has(i.uid) ? energy.get(i.uid)! / i.capacityKw : null;
      const medians = new Map<string, number | null>();
      for (const plant of new Set(infos.map((i) => i.plantUid))) {
        medians.set(
          plant,
          median(
            infos
              .filter((i) => i.plantUid === plant)
              .map(yieldOf)
              .filter((y): y is number => y !== null),
          ),
        );
      }
      const producers: ProducerRow[] = infos.map((i) => {
        const y = yieldOf(i);
        const m = medians.get(i.plantUid) ?? null;
        return {
          deviceUid: i.uid,
          name: i.name,
          plantUid: i.plantUid,
          plantName: i.plantName,
          capacityKw: i.capacityKw,
          energyKwh: energy.get(i.uid) ?? 0,
          specificYield: y,
          plantMedian: m,
          deviation: deviationFromMedian(y, m),
          rated: isRated(i.capa),
        };
      });
      producers.sort((a, b) => (a.deviation ?? Infinity) - (b.deviation ?? Infinity) || a.name.localeCompare(b.name));
      return { ...echo(body, p), producers };
    }),
  );

  r.post(
    "/diagnose/generate",
    handle(async (req): Promise<GenerateResponse> => {
      const { body, p, uids, infos: asked } = await diagnoseRequest(req);
      const plants = new Set(asked.map((i) => i.plantUid));
      if (plants.size !== 1) throw badRequest("one_plant_only", { deviceUids: "one_plant_only" });
      const plantUid = asked[0]!.plantUid;
      const k = asked[0]!.k;
      // The rating rule (domain/diagnose-ranking.ts): everything below is over the rated inverters.
      const { rated: infos, unrated, rating } = splitByRating(asked);
      const now = clock.now();
      // SPEC §4: hourly data is read from one bucket early, then shifted by an hour with the first entry skipped.
      const hourly = p.unit === 60;
      const q: Period = hourly ? { ...p, from: p.from - 3_600_000 } : p;
      const keys = bucketKeys(q, now);
      const raw = p.unit === 10;
      // A day of the whole plant's rated inverters is one row of rollup_plant_daily (the sums its inverters' buckets
      // add up to) when the rollup writer found every inverter's bucket of that day regular (rollups.ts plantDailySql);
      // only the other days read inverter rows (inverterGroups).
      // The plant's curtailment orders in the period (api/store/curtailment.ts): their steps are left out of PR and
      // availability, and the energy lost in them reported (domain/curtailment.ts).
      const [plantRow] = await plantsFor(db, [plantUid]);
      const orders = await ordersOf(db, [plantUid], () => plantRow?.capacityKw ?? 0, p.from, p.to);
      // A bucket of a step counts in PR's sums from the period's start and outside every order; days (unit 1440) are
      // read whole and the hours inside orders taken off their sums below.
      const counted = (t: number) => t >= p.from && (p.unit === 1440 || !inOrder(t, orders));
      const [inv, env, plantDaySums] = await Promise.all([
        raw
          ? inverterBuckets(
              db,
              infos.map((i) => i.uid),
              q,
            )
          : Promise.resolve(new Map<string, InverterBucket[]>()),
        envBuckets(db, plantUid, q),
        p.unit === 1440 && infos.length ? wholePlantDays(plantUid, infos.length, q) : Promise.resolve(null),
      ]);
      const fast = new Map<number, PlantDay>();
      for (const [t, d] of plantDaySums ?? []) if (d.kept && d.regular && d.inverters === infos.length) fast.set(t, d);
      const groups = raw ? [] : await inverterGroups(db, infos, q, fast.size ? keys.filter((t) => !fast.has(t)) : undefined);
      const index = new Map(keys.map((t, i) => [t, i]));
      const gen = new Array<number>(keys.length).fill(0);
      const ref = new Array<number>(keys.length).fill(0);
      const iis = new Array<number>(keys.length).fill(0);
      const his = new Array<number>(keys.length).fill(0);
      const hours = p.unit / 60;
      for (const [t, e] of env) {
        const i = index.get(t);
        if (i === undefined) continue;
        iis[i] = e.insolation === null ? 0 : (e.insolation * 1000) / hours;
        his[i] = e.horizontal === null ? 0 : (e.horizontal * 1000) / hours;
      }
      const buckets: PerformanceBucket[] = [];
      const totalKw = infos.reduce((a, i) => a + i.capacityKw, 0);
      if (raw) {
        for (const info of infos) {
          const own = new Map((inv.get(info.uid) ?? []).map((b) => [b.t, b]));
          for (const t of keys) {
            const b = performanceBucket(own.get(t), env.get(t), info.capacityKw, p.unit);
            const i = index.get(t)!;
            if (b.energyKwh !== null) gen[i]! += b.energyKwh;
            ref[i]! += expectedEnergyKwh(b, k);
            if (counted(t)) buckets.push(b);
          }
        }
      } else {
        // Rollups: a few summed groups per step (store/diagnose.ts inverterGroups), the same sums as per inverter.
        const present = new Array<number>(keys.length).fill(0);
        for (const [t, d] of fast) {
          const i = index.get(t);
          if (i === undefined) continue;
          present[i] = infos.length;
          gen[i] = d.sums.energy;
        }
        for (const g of groups) {
          const i = index.get(g.t);
          if (i === undefined) continue;
          present[i]! += g.rows;
          const e = env.get(g.t);
          if (g.energyKwh !== null) gen[i]! += g.energyKwh;
          if (!counted(g.t)) continue;
          const inv = { t: g.t, energyKwh: g.energyKwh, maxKw: g.maxKw, runSteps: g.runSteps };
          if (g.reported) buckets.push({ ...performanceBucket(inv, e, g.capacityKw * g.reported, p.unit), count: g.reported });
          if (g.rows > g.reported)
            buckets.push({
              ...performanceBucket({ ...inv, energyKwh: null }, e, g.capacityKw * (g.rows - g.reported), p.unit),
              count: g.rows - g.reported,
            });
        }
        keys.forEach((t, i) => {
          const e = env.get(t);
          // The reference of every inverter asked for, with or without a reading.
          ref[i] = expectedEnergyKwh(performanceBucket(undefined, e, totalKw, p.unit), k);
          const missing = infos.length - present[i]!;
          if (missing > 0 && counted(t)) buckets.push({ ...performanceBucket(undefined, e, 0, p.unit), count: missing });
        });
      }
      let sums = performanceSums(buckets, k);
      for (const d of fast.values()) if (d.t >= p.from) sums = addSums(sums, d.sums);
      if (p.unit === 1440 && orders.length) sums = withoutEnergyOf(sums, await orderHourSums(plantUid, infos, orders, p, k));
      // Availability on the raw or hourly grid of the period up to the step now running (its reading may yet come),
      // bounded to a year and AVAILABILITY_MAX_INVERTER_STEPS per plant. It is the one definition of availability
      // (domain/analytics/availability.ts): the figures' `availability` and downtime loss are taken from it.
      let availability: GenerateResponse["availability"] = null;
      let loss: CurtailmentLoss | null = null;
      if (availabilityWithinBounds(p.to - p.from, infos.length, p.unit)) {
        const stepMinutes = availabilityStepMinutes(p.unit);
        const grid = await availabilityGrid(db, plantUid, infos, p.from, Math.min(p.to, bucketOf(now, stepMinutes)), stepMinutes);
        const a = plantAvailability({ ...grid, k, exclusions: curtailmentExclusions(orders) });
        loss = curtailmentLoss(grid, orders, p.from, p.to, k);
        availability = {
          ...a,
          counterAnomalies: a.counterAnomalies.slice(0, 20),
          counterAnomalyCount: a.counterAnomalies.length,
          stepMinutes,
          performanceRatioAvailable: null,
        };
      }
      const figures = {
        ...figuresFromSums(sums, totalKw, availability?.energy.lostKwh ?? 0),
        availability: availability?.time.availability ?? null,
      };
      if (availability)
        availability.performanceRatioAvailable = prWithAvailability(figures.performanceRatio, availability.energy.availability);
      let times = keys;
      let series = [gen, ref, iis, his];
      if (hourly) ({ times, series } = shiftHourly(keys, gen, ref, iis, his));
      const round = (xs: number[], d: number) => xs.map((x) => Number(x.toFixed(d)));
      return {
        ...echo(body, p),
        plantUid,
        plantName: asked[0]!.plantName,
        capacityKw: figures.capacityKw,
        deviceUids: uids,
        coefficients: k,
        times: times.map((t) => labelOf(t, p.unit)),
        generation: round(series[0]!, 3),
        reference: round(series[1]!, 3),
        iis: round(series[2]!, 1),
        his: round(series[3]!, 1),
        irradianceMode: irradianceMode(series[3], series[2]),
        figures,
        rating,
        unratedDeviceUids: unrated.map((i) => i.uid),
        availability,
        curtailment: {
          orders: orders.length,
          hours: orderHours(orders, p.from, p.to),
          expectedKwh: loss?.expectedKwh ?? null,
          actualKwh: loss?.actualKwh ?? null,
          lostKwh: loss?.lostKwh ?? null,
          list: orders,
        },
      };
    }),
  );

  r.get(
    "/diagnose/compare",
    handle(async (req): Promise<CompareResponse> => {
      const me = requireSettled(req);
      if (!hasService(me.service, "diagnoseCompare") && !hasService(me.service, "diagnoseAll"))
        throw forbidden("service_not_allowed");
      const q = parse(CompareQuerySchema, req.query);
      const p = periodOf(q.start, q.end, q.unit);
      const reach = await reachOf(db, me);
      let uids = q.compareUid;
      let kind = q.compareKind as CompareKind | undefined;
      let type = q.compareType;
      let remembered = false;
      if (!uids.length && kind === undefined && type === undefined) {
        const saved = await rememberedSelection(db, me.id);
        if (!saved) throw badRequest("no_selection", { compareUid: "required" });
        uids = saved.uids;
        kind = saved.kind as CompareKind;
        type = saved.type as CompareType;
        remembered = true;
      }
      if (!uids.length) throw badRequest("invalid_input", { compareUid: "required" });
      if (kind === undefined) throw badRequest("invalid_input", { compareKind: "required" });
      if (type === undefined || !(COMPARE_TYPES[kind] as readonly string[]).includes(type))
        throw badRequest("invalid_input", { compareType: "bad_type" });
      const devices = await visibleDevices(db, reach, uids);
      if (devices.some((d) => Number(d.kind) !== kind)) throw badRequest("invalid_input", { compareUid: "kind_mismatch" });
      if (!remembered) await rememberFirstSelection(db, me.id, uids, kind, type, clock.now());
      const keys = bucketKeys(p, clock.now());
      const series = await compareSeries(db, uids, kind, type, p, keys);
      const names = await deviceNames(db, uids);
      const nameOf = new Map(names.map((n) => [n.uid, n]));
      return {
        start: q.start,
        end: q.end,
        unit: p.unit,
        remembered,
        selectedDeviceUid: uids,
        selectedDeviceKind: kind,
        selectedDataType: type,
        times: keys.map((t) => labelOf(t, p.unit)),
        series: uids.map((u) => ({
          deviceUid: u,
          name: nameOf.get(u)?.name ?? u,
          plantName: nameOf.get(u)?.plant_name ?? "",
          values: (series.get(u) ?? []).map((v) => (v === null ? null : Number(v.toFixed(3)))),
        })),
      };
    }),
  );

  r.delete(
    "/diagnose/compare/selection",
    handle(async (req) => {
      const me = requireSettled(req);
      await forgetSelection(db, me.id);
      return undefined;
    }),
  );

  r.get(
    "/diagnose/ranking",
    handle(async (req): Promise<RankingResponse> => {
      const me = requireDiagnoseAll(req);
      const q = parse(RankingQuerySchema, req.query);
      const p = periodOf(q.start, q.end, 1440);
      const reach = await reachOf(db, me);
      const uids = await visiblePlantUids(db, reach);
      await refreshStalePlants(db, ctx.store.dialect === "postgres", uids);
      // Curtailment orders are availability's exclusions here as on the plant's own diagnosis.
      const orders = new Map<string, OrderInterval[]>();
      for (const o of await ordersOf(db, uids, () => 0, p.from, p.to)) {
        const list = orders.get(o.plantUid) ?? [];
        list.push(o);
        orders.set(o.plantUid, list);
      }
      const [plants, sums, avail] = await Promise.all([
        plantsFor(db, uids),
        fleetSums(db, uids, p.from, p.to),
        fleetAvailability(db, uids, p.from, Math.min(p.to, bucketOf(clock.now(), 60)), (uid) =>
          curtailmentExclusions(orders.get(uid) ?? []),
        ),
      ]);
      // Each plant-day is one bucket of the plant's rated inverters (store/diagnose.ts fleetSums); availability is
      // the one definition's on each plant's hourly grid (domain/analytics/availability.ts).
      const rows = sortRanking(plants.map((pl) => rankingRow(pl, sums.get(pl.uid), avail.get(pl.uid) ?? null)));
      return { start: q.start, end: q.end, plants: rows };
    }),
  );

  r.put(
    "/diagnose/coefficients/:plantUid",
    handle(async (req) => {
      const me = requireWriter(req);
      const reach = await reachOf(db, me);
      await requirePlant(db, reach, String(req.params.plantUid), "edit");
      const body = parse(CoefficientsSchema, req.body ?? {});
      await setPlantCoefficients(db, String(req.params.plantUid), body.temperatureCoefficient, body.systemFactor);
      return { plantUid: String(req.params.plantUid), coefficients: await plantCoefficients(db, String(req.params.plantUid)) };
    }),
  );

  return r;
}

function echo(body: { start: string; end: string; periodType: DiagnosePeriodEcho["periodType"] }, p: Period): DiagnosePeriodEcho {
  return { start: body.start, end: body.end, unit: p.unit, periodType: body.periodType };
}
