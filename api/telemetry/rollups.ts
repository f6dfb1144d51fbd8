/**
 * Hourly and daily rollups, recomputed from the raw rows of exactly the hours and days a batch
 * touched. Recomputing (rather than adding) makes late and repeated data harmless.
 * Days are Asia/Seoul calendar days: day_ts is the epoch ms of local midnight.
 */
import { sql, type RawBuilder } from "kysely";
import { rawWrite } from "../store/table-writes";
import { DAY_MS, HOUR_MS, SEOUL_OFFSET_MS } from "../../domain/seoul-time";
import { DEFAULT_COEFFICIENTS, MERGE_BELOW_SHARE } from "../../domain/performance";
import type { MeasurementTable } from "./readings";

export const hourOf = (ts: number) => ts - (ts % HOUR_MS);

/**
 * Per measurement table: the hourly aggregate columns (energy from 10-minute power samples: W × 1/6 h).
 * The last four feed the IEC 61724-1 figures (migration 0006): Σ POA·T_module·τ, steps with POA > 100 W/m²
 * (availability), steps with POA ≥ 20 W/m² (inverter start-up) and producing inverter steps.
 */
const HOURLY_AGG: Record<MeasurementTable, string> = {
  m_inverter:
    "count(*), sum(iw) / 6.0, avg(iw), max(iw), null, null, null, null, max(today_wh), max(total_wh), null, null, null, count(case when iw > 0 then 1 end)",
  m_env:
    "count(*), null, null, null, sum(his) / 6.0, sum(iis) / 6.0, avg(sts), avg(ats), null, null, sum(iis * sts) / 6.0, " +
    "count(case when iis > 100 then 1 end), count(case when iis >= 20 then 1 end), null",
  m_board:
    "count(*), sum(v * total_a) / 6.0, avg(v * total_a), max(v * total_a), null, null, null, null, null, null, null, null, null, null",
  m_breaker: "count(*), sum(w) / 6.0, avg(w), max(w), null, null, null, null, null, null, null, null, null, null",
};

export function hourlyRollupSql(table: MeasurementTable, deviceFilter: string): string {
  return `insert into rollup_hourly (device_uid, hour_ts, kind, samples, energy_wh, avg_w, max_w, his_wh, iis_wh, avg_sts, avg_ats, max_today_wh, max_total_wh, iis_sts_wh, sun_samples, lit_samples, run_samples)
    select device_uid, ts - (ts % ${HOUR_MS}), cast(? as integer), ${HOURLY_AGG[table]}
    from ${table} where ${deviceFilter} and ts >= ? and ts < ?
    group by device_uid, ts - (ts % ${HOUR_MS})
    on conflict (device_uid, hour_ts) do update set samples = excluded.samples, energy_wh = excluded.energy_wh,
      avg_w = excluded.avg_w, max_w = excluded.max_w, his_wh = excluded.his_wh, iis_wh = excluded.iis_wh,
      avg_sts = excluded.avg_sts, avg_ats = excluded.avg_ats, max_today_wh = excluded.max_today_wh, max_total_wh = excluded.max_total_wh,
      iis_sts_wh = excluded.iis_sts_wh, sun_samples = excluded.sun_samples, lit_samples = excluded.lit_samples, run_samples = excluded.run_samples`;
}

/** An inverter's daily energy is its own daily counter when it reports one, else the integrated power. */
export function dailyRollupSql(deviceFilter: string): string {
  return `insert into rollup_daily (device_uid, day_ts, kind, samples, energy_wh, max_w, his_wh, iis_wh, avg_sts, avg_ats, total_wh, iis_sts_wh, sun_samples, lit_samples, run_samples)
    select device_uid, hour_ts - ((hour_ts + ${SEOUL_OFFSET_MS}) % ${DAY_MS}), kind, sum(samples),
      coalesce(max(max_today_wh), sum(energy_wh)), max(max_w), sum(his_wh), sum(iis_wh),
      sum(avg_sts * samples) / sum(samples), sum(avg_ats * samples) / sum(samples), max(max_total_wh),
      sum(iis_sts_wh), sum(sun_samples), sum(lit_samples), sum(run_samples)
    from rollup_hourly where ${deviceFilter} and hour_ts >= ? and hour_ts < ?
    group by device_uid, kind, hour_ts - ((hour_ts + ${SEOUL_OFFSET_MS}) % ${DAY_MS})
    on conflict (device_uid, day_ts) do update set samples = excluded.samples, energy_wh = excluded.energy_wh,
      max_w = excluded.max_w, his_wh = excluded.his_wh, iis_wh = excluded.iis_wh, avg_sts = excluded.avg_sts,
      avg_ats = excluded.avg_ats, total_wh = excluded.total_wh,
      iis_sts_wh = excluded.iis_sts_wh, sun_samples = excluded.sun_samples, lit_samples = excluded.lit_samples, run_samples = excluded.run_samples`;
}

/**
 * The per-plant daily aggregate rollup_plant_daily (migration 0013), recomputed from rollup_daily for the plants
 * `plantFilter(column)` selects over [?, ?) of day_ts — delete, then insert, so a plant-day that lost its rows goes.
 * A row is the plant's day as one bucket of its rated inverters (domain/diagnose-ranking.ts: an unrated one is left
 * out) with the per-bucket terms of domain/performance.ts performanceSums written in SQL, so the fleet ranking only
 * adds them up per plant (api/store/diagnose.ts fleetSums):
 *   x  per plant and day: the rated inverters' energy, Σ P0 and Σ P0·producing steps, and the environment sensors'
 *      insolation H, Σ G·T·τ (only when every sensor has it), sunny and lit steps (averaged over sensors, rounded);
 *   z  C-corrected insolation with the plant's γ, its η, producing share = sunny steps · min(1, rating-weighted
 *      producing steps / lit steps);
 *   the row: kept (energy and irradiance both present) or dropped, and the terms of a kept bucket;
 *   regular: every rated inverter's own bucket adds up with its siblings' into these terms (none without energy,
 *      none whose highest power reaches MERGE_BELOW_SHARE of its rating, which may be clipping and is not linear,
 *      none that produced in more steps than the day was lit, whose availability is capped alone), so the diagnosis
 *      of the whole plant takes the day from this row without reading an inverter row (api/routes/diagnose.ts).
 * The terms use the ratings and coefficients of the moment, so a change to either marks the plant stale (the
 * device and plant triggers of 0013) and the ranking recomputes its rows before reading them.
 * Each statement takes the filter's parameters, then the day range.
 */
export function plantDailySql(plantFilter: (column: string) => string): { remove: string; insert: string } {
  const rated = "r.kind = 1 and d.capa > 0";
  const kept = "z.e is not null and z.h is not null";
  const gamma = `coalesce(p.temp_coeff, ${DEFAULT_COEFFICIENTS.temperatureCoefficient})`;
  const odd = `r.energy_wh is null or r.max_w >= ${MERGE_BELOW_SHARE * 10} * d.capa`;
  return {
    remove: `delete from rollup_plant_daily where ${plantFilter("plant_uid")} and day_ts >= ? and day_ts < ?`,
    insert: `insert into rollup_plant_daily (plant_uid, day_ts, inverters, kept, dropped, energy, expected, yref, corrw, sunw, runw, downtime, regular)
    select z.plant_uid, z.day_ts, z.ni,
      case when ${kept} then 1 else 0 end,
      case when not (${kept}) and (z.e is not null or coalesce(z.h, 0) > 0) then 1 else 0 end,
      case when ${kept} then z.e else 0 end,
      case when ${kept} then z.cap * z.corr * z.eta else 0 end,
      case when ${kept} then z.cap * z.h else 0 end,
      case when ${kept} then z.cap * z.corr else 0 end,
      case when ${kept} and z.sun > 0 then z.cap * z.sun else 0 end,
      case when ${kept} and z.sun > 0 then z.cap * z.run else 0 end,
      case when ${kept} and z.sun > 0 then z.cap * z.corr * z.eta * ((z.sun - z.run) / z.sun) else 0 end,
      case when z.odd = 0 and not (z.lit > 0 and coalesce(z.mrs, 0) > z.lit) then 1 else 0 end
    from (
      select y.plant_uid, y.day_ts, y.ni, y.e, y.cap, y.h, y.sun, y.lit, y.odd, y.mrs, coalesce(p.system_factor, ${DEFAULT_COEFFICIENTS.systemFactor}) as eta,
        case when y.h is null then 0 when y.ht is null then y.h
          when y.h + ${gamma} * (y.ht - 25 * y.h) > 0 then y.h + ${gamma} * (y.ht - 25 * y.h)
          else 0 end as corr,
        case when y.lit > 0 then y.sun * (case when y.rr >= y.lit then 1 else y.rr / y.lit end) else 0 end as run
      from (
        select x.*, case when x.cap > 0 then x.caprun / x.cap else 0 end as rr
        from (
          select d.plant_uid, r.day_ts,
            count(case when ${rated} then 1 end) as ni,
            sum(case when ${rated} then r.energy_wh end) / 1000.0 as e,
            sum(case when ${rated} then d.capa end) / 100.0 as cap,
            sum(case when ${rated} then d.capa * coalesce(r.run_samples, 0) end) / 100.0 as caprun,
            max(case when ${rated} then case when ${odd} then 1 else 0 end end) as odd,
            max(case when ${rated} then r.run_samples end) as mrs,
            avg(case when r.kind = 4 then r.iis_wh end) / 1000.0 as h,
            case when count(case when r.kind = 4 then r.iis_sts_wh end) = count(case when r.kind = 4 then r.iis_wh end)
              then avg(case when r.kind = 4 then r.iis_sts_wh end) / 1000.0 end as ht,
            cast(coalesce(round(avg(case when r.kind = 4 then r.sun_samples end)), 0) as double precision) as sun,
            cast(coalesce(round(avg(case when r.kind = 4 then r.lit_samples end)), 0) as double precision) as lit
          from rollup_daily r join device d on d.uid = r.device_uid
          where ${plantFilter("d.plant_uid")} and d.plant_uid is not null and r.kind in (1, 4) and r.day_ts >= ? and r.day_ts < ?
          group by d.plant_uid, r.day_ts
        ) x
        where x.ni > 0
      ) y join plant p on p.uid = y.plant_uid
    ) z`,
  };
}

/**
 * A statement written with '?' placeholders that writes `table`, as a Kysely raw builder with bound parameters
 * (the table declared for the kept answers' watch, api/store/table-writes.ts).
 */
export function withParams(table: string, text: string, params: unknown[]): RawBuilder<unknown> {
  const parts = text.split("?");
  if (parts.length !== params.length + 1) throw new Error("withParams: placeholder count mismatch");
  return rawWrite(
    [table],
    sql.join(
      parts.flatMap((p, i) => (i < params.length ? [sql.raw(p), sql.val(params[i])] : [sql.raw(p)])),
      sql.raw(""),
    ),
  );
}
