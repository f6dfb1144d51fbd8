import { describe, expect, it } from "vitest";
import { alarmFigure, alarmFigures, isNuisance, type FigureAlarm } from "./alarm-figures";

const MIN = 60_000;
const T = Date.UTC(2026, 10, 1);
const a = (o: Partial<FigureAlarm>): FigureAlarm => ({
  plant_uid: "A",
  group: 10,
  code: 1000006,
  raised_at: T,
  released_at: null,
  ack_at: null,
  ...o,
});

// Hand-computed set, 4 plants (A, B in group 10; C in 20; D no group), 2 days:
//  1. A 1000006: acked at +4 min, cleared at +30 min
//  2. A 1000006: cleared at +5 min, never acked          → nuisance
//  3. B 1000001: cleared at +10 min exactly, never acked  → nuisance (within 10 min)
//  4. C 1000001: cleared at +11 min, never acked          → not nuisance
//  5. C 1000006: acked at +20 min, still open
const set: FigureAlarm[] = [
  a({ ack_at: T + 4 * MIN, released_at: T + 30 * MIN }),
  a({ released_at: T + 5 * MIN }),
  a({ plant_uid: "B", code: 1000001, released_at: T + 10 * MIN }),
  a({ plant_uid: "C", group: 20, code: 1000001, released_at: T + 11 * MIN }),
  a({ plant_uid: "C", group: 20, ack_at: T + 20 * MIN }),
];
const plants = [
  { uid: "A", group: 10 },
  { uid: "B", group: 10 },
  { uid: "C", group: 20 },
  { uid: "D", group: null },
];

describe("alarm figures", () => {
  it("nuisance: cleared within 10 minutes, never acknowledged", () => {
    expect(set.map(isNuisance)).toEqual([false, true, true, false, false]);
  });

  it("in all: 5 alarms / 4 plants / 2 days × 100 = 62.5; 2 of 5 nuisance; ack (4+20)/2 = 12 min; clear (30+5+10+11)/4 = 14 min", () => {
    const f = alarmFigure(set, 4, 2);
    expect(f).toEqual({
      count: 5,
      perHundredPlantsPerDay: 62.5,
      nuisance: 2,
      nuisanceShare: 0.4,
      acknowledged: 2,
      meanToAckMs: 12 * MIN,
      cleared: 4,
      meanToClearMs: 14 * MIN,
    });
  });

  it("per code, plant and group; rates over each one's plants", () => {
    const f = alarmFigures(set, plants, 2);
    expect(f.total.count).toBe(5);
    const code6 = f.byCode.find((r) => r.key === 1000006)!;
    // 3 alarms over all 4 plants, 2 days: 37.5; 1 nuisance of 3; ack (4+20)/2; clear (30+5)/2.
    expect(code6).toMatchObject({
      count: 3,
      perHundredPlantsPerDay: 37.5,
      nuisance: 1,
      meanToAckMs: 12 * MIN,
      meanToClearMs: 17.5 * MIN,
    });
    const plantA = f.byPlant.find((r) => r.key === "A")!;
    // 2 alarms, 1 plant, 2 days: 100.
    expect(plantA).toMatchObject({ count: 2, perHundredPlantsPerDay: 100, nuisanceShare: 0.5, meanToAckMs: 4 * MIN });
    const g10 = f.byGroup.find((r) => r.key === 10)!;
    // Group 10: A and B, 3 alarms over 2 plants and 2 days: 75; nuisance 2 of 3.
    expect(g10).toMatchObject({ count: 3, perHundredPlantsPerDay: 75, nuisance: 2 });
    expect(f.byGroup.map((r) => r.key)).toEqual([10, 20]);
    expect(f.byPlant.map((r) => r.key)).toEqual(["A", "C", "B"]);
  });

  it("no alarms: zero rate, no shares or means", () => {
    expect(alarmFigure([], 4, 2)).toMatchObject({
      count: 0,
      perHundredPlantsPerDay: 0,
      nuisanceShare: null,
      meanToAckMs: null,
      meanToClearMs: null,
    });
    expect(alarmFigure([], 0, 2).perHundredPlantsPerDay).toBeNull();
  });
});

describe("figure table", () => {
  it("the total and per code as text rows", async () => {
    const { figureTableLines } = await import("./alarm-figures");
    const f = alarmFigures(set, plants, 2);
    const lines = figureTableLines(f, "ko");
    expect(lines[0]).toBe("알람 지표");
    expect(lines[2]).toBe("전체 | 5 | 62.50 | 40.0% | 12.0 | 14.0");
    expect(lines[3]).toBe("코드 1000006 | 3 | 37.50 | 33.3% | 12.0 | 17.5");
    expect(lines[4]).toBe("코드 1000001 | 2 | 25.00 | 50.0% | – | 10.5");
    expect(figureTableLines(alarmFigures([], plants, 2), "en")[2]).toBe("All | 0 | 0.00 | – | – | –");
  });
});
