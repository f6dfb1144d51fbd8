import { describe, expect, it } from "vitest";
import { isRated, rankingRow, ratingCoverage, sortRanking, splitByRating, type RankingPlant } from "./diagnose-ranking";
import { performanceSums, stepBucket } from "./performance";

const plant = (over: Partial<RankingPlant> = {}): RankingPlant => ({
  uid: "P1",
  name: "가",
  capacityKw: 100,
  inverters: 2,
  ratedInverters: 2,
  ...over,
});
// The worked example: 100 kWp at G 800 W/m², T 45 °C, 60 kW measured for one step → EPI 0.94.
const sums = performanceSums([stepBucket({ capacityKw: 100, powerKw: 60, poaWm2: 800, moduleC: 45 })]);

describe("fleet ranking: unrated inverters", () => {
  it("only a positive own rating counts", () => {
    expect([isRated(5000), isRated(0), isRated(null), isRated(undefined), isRated(Number.NaN), isRated(-1)]).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("a plant is complete, partial or missing by how many of its inverters are rated", () => {
    expect(ratingCoverage(2, 2)).toBe("complete");
    expect(ratingCoverage(0, 0)).toBe("complete");
    expect(ratingCoverage(3, 1)).toBe("partial");
    expect(ratingCoverage(3, 0)).toBe("missing");
  });

  it("a plant with rated inverters gets the figures of its sums; one without a rating gets none, not a number", () => {
    const rated = rankingRow(plant(), sums, { availability: 0.75, coverage: 0.9 });
    expect(rated.epi).toBeCloseTo(0.94, 2);
    // Availability is the one definition's (domain/analytics/availability.ts), passed through, never from the sums.
    expect(rated).toMatchObject({ availability: 0.75, availabilityCoverage: 0.9 });
    expect(rankingRow(plant(), sums).availability).toBeNull();
    expect(rated).toMatchObject({ rating: "complete", unratedInverters: 0 });
    const partial = rankingRow(plant({ inverters: 3 }), sums);
    expect(partial.epi).toBeCloseTo(0.94, 2);
    expect(partial).toMatchObject({ rating: "partial", unratedInverters: 1 });
    const missing = rankingRow(plant({ ratedInverters: 0 }), sums, { availability: 1, coverage: 1 });
    expect(missing).toMatchObject({ rating: "missing", unratedInverters: 2, epi: null, pr: null, availability: null });
    expect(missing.energyKwh).toBe(0);
    expect(rankingRow(plant(), undefined).epi).toBeNull();
  });

  it("generate and produce split their inverters by the same rule: rated ones count, unrated ones are named", () => {
    const inv = [
      { uid: "a", capa: 5000 },
      { uid: "b", capa: null },
      { uid: "c", capa: 0 },
    ];
    const s = splitByRating(inv);
    expect(s.rated.map((i) => i.uid)).toEqual(["a"]);
    expect(s.unrated.map((i) => i.uid)).toEqual(["b", "c"]);
    expect(s.rating).toBe("partial");
    expect(splitByRating([inv[1]!]).rating).toBe("missing");
    expect(splitByRating([inv[0]!]).rating).toBe("complete");
  });

  it("sorts the lowest EPI first and plants without one last, by name", () => {
    const rows = sortRanking([
      { ...rankingRow(plant({ uid: "a", name: "다" }), sums) },
      { ...rankingRow(plant({ uid: "b", name: "나", ratedInverters: 0 }), sums) },
      { ...rankingRow(plant({ uid: "c", name: "가" }), sums), epi: 0.5 },
      { ...rankingRow(plant({ uid: "d", name: "가", ratedInverters: 0 }), sums) },
    ]);
    expect(rows.map((r) => r.plantUid)).toEqual(["c", "a", "d", "b"]);
  });
});
