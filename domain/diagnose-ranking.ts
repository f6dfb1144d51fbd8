// The fleet EPI ranking (GET /diagnose/ranking): which plants to look at first, and when a plant's figures cannot be
// trusted because its inverters' ratings are missing. The rating rule below is the one rule of every diagnosis:
// the ranking, generate (POST /diagnose/generate) and produce (POST /diagnose/produce) all apply it.
//
// Every capacity-weighted figure (expected energy, PR, EPI, availability) needs each inverter's rating P0. An
// inverter without one (device capa null or 0) used to weigh 0 kW while its energy still counted: its plant's
// expected energy was too low and its EPI too high — a failing plant could look healthy. No rating is invented
// (an equal share of the plant's rating is a guess whenever some inverters are rated): an unrated inverter is left
// out of the plant's figures altogether, its energy with its capacity, and counted. A plant with some rated
// inverters is ranked on those and marked "partial"; a plant with none has no figures and is marked "missing", so
// the screen says "rating missing" instead of a number. Generate does the same for the inverters asked for (its
// figures, generation and reference are over the rated ones; the unrated are named in the answer), and produce gives
// an unrated inverter its energy but no specific yield and keeps it out of its plant's median. The store applies the
// same test in SQL (capa > 0: api/telemetry/rollups.ts plantDailySql).
import type { RankingRow } from "./contract/diagnose";
import { figuresFromSums, performanceSums, type PerformanceSums } from "./performance";

/** Whether an inverter's own rating (raw device capa) can weigh its figures. */
export function isRated(capa: number | null | undefined): boolean {
  return typeof capa === "number" && Number.isFinite(capa) && capa > 0;
}

export type RatingCoverage = "complete" | "partial" | "missing";

/** How much of a plant's inverter fleet carries a rating: every one, some, or none (of at least one). */
export function ratingCoverage(inverters: number, rated: number): RatingCoverage {
  if (rated >= inverters) return "complete";
  return rated > 0 ? "partial" : "missing";
}

/**
 * The inverters of a diagnosis split by the rule: those whose figures count (rated) and those left out (unrated),
 * with the coverage the screen shows.
 */
export function splitByRating<T extends { capa: number | null }>(
  inverters: readonly T[],
): { rated: T[]; unrated: T[]; rating: RatingCoverage } {
  const rated = inverters.filter((i) => isRated(i.capa));
  const unrated = inverters.filter((i) => !isRated(i.capa));
  return { rated, unrated, rating: ratingCoverage(inverters.length, rated.length) };
}

export interface RankingPlant {
  uid: string;
  name: string;
  /** The plant's own rating, kW (P0 of the yields). */
  capacityKw: number;
  /** Inverters of the plant now, and of those the ones with a rating. */
  inverters: number;
  ratedInverters: number;
}

/**
 * One plant's row of the ranking from the sums over its rated inverters' days (null: no such day) and its
 * time-based availability (domain/analytics/availability.ts plantAvailability; null when not computed).
 */
export function rankingRow(
  plant: RankingPlant,
  sums: PerformanceSums | null | undefined,
  availability: { availability: number | null; coverage: number | null } | null = null,
): RankingRow {
  const rating = ratingCoverage(plant.inverters, plant.ratedInverters);
  const f = figuresFromSums(rating === "missing" || !sums ? performanceSums([]) : sums, plant.capacityKw);
  return {
    plantUid: plant.uid,
    name: plant.name,
    capacityKw: plant.capacityKw,
    energyKwh: f.energyKwh,
    expectedKwh: f.expectedKwh,
    epi: f.energyPerformanceIndex,
    pr: f.performanceRatio,
    availability: rating === "missing" ? null : (availability?.availability ?? null),
    availabilityCoverage: rating === "missing" ? null : (availability?.coverage ?? null),
    withheld: f.withheld,
    rating,
    unratedInverters: plant.inverters - Math.min(plant.inverters, plant.ratedInverters),
  };
}

/** Lowest EPI first; plants without one (no irradiance, no energy, or no rating) last; then by name. */
export function sortRanking(rows: RankingRow[]): RankingRow[] {
  return rows.sort((a, b) => (a.epi ?? Infinity) - (b.epi ?? Infinity) || a.name.localeCompare(b.name));
}
