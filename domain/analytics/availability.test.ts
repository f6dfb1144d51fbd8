import { describe, expect, it } from "vitest";
import { expectedPowerKw } from "../performance";
import {
  availabilityWithinBounds,
  counterEnergyKwh,
  plantAvailability,
  resolveCounter,
  type AvailabilityInverter,
} from "./availability";

const STEP = 600_000; // 10 minutes
const TAU = 1 / 6;
const T0 = Date.UTC(2026, 5, 1, 2); // 11:00 in Seoul
const grid = (n: number) => Array.from({ length: n }, (_, i) => T0 + i * STEP);

/** An inverter from its power per step; its counter advances by P·τ where it reported (null: no reading at all). */
function inverter(
  id: string,
  capacityKw: number,
  power: (number | null)[],
  counterFrom = 1000,
): AvailabilityInverter & { counterKwh: (number | null)[] } {
  let c = counterFrom;
  const counterKwh = power.map((p) => {
    if (p === null) return null;
    c += p * TAU;
    return c;
  });
  return { id, capacityKw, powerKw: power, counterKwh };
}

describe("time-based availability, capacity-weighted over sunny steps", () => {
  it("60 kW always on, 40 kW off for 3 of 6 sunny steps → 0.8, coverage 1", () => {
    const r = plantAvailability({
      steps: grid(6),
      stepHours: TAU,
      poaWm2: Array(6).fill(800),
      inverters: [inverter("a", 60, Array(6).fill(40)), inverter("b", 40, [30, 30, 30, 0, 0, 0])],
    });
    expect(r.time.availability).toBeCloseTo(0.8, 12);
    expect(r.time.coverage).toBe(1);
    expect(r.time.availableHours + r.time.unavailableHours).toBeCloseTo(1, 12); // six 10-minute steps, whole plant
    expect(r.energy.availability).toBeCloseTo(0.8, 12); // constant sun: energy-weighted = time-weighted
    expect(r.energy.lostKwh).toBeCloseTo(3 * expectedPowerKw(40, 800, 25) * TAU, 9);
  });

  it("steps at or below 100 W/m² do not count; an outage at high sun costs more energy than at low sun", () => {
    const r = plantAvailability({
      steps: grid(4),
      stepHours: TAU,
      poaWm2: [100, 200, 800, 50],
      inverters: [inverter("a", 100, [0, 0, 50, 0])],
    });
    expect(r.time.availability).toBeCloseTo(0.5, 12); // steps 1 (off) and 2 (on)
    expect(r.energy.availability).toBeCloseTo(1 - 200 / 1000, 12);
  });
});

describe("a data gap is neither available nor unavailable", () => {
  const sun = Array(6).fill(700);
  it("counter advanced across the gap: a communication gap — out of the time figure (coverage), available by energy", () => {
    const inv = inverter("a", 100, [60, null, null, null, 60, 60]);
    inv.counterKwh[4] = inv.counterKwh[0]! + 40; // it made 40 kWh while silent
    const r = plantAvailability({ steps: grid(6), stepHours: TAU, poaWm2: sun, inverters: [inv] });
    expect(r.time.availability).toBe(1);
    expect(r.time.coverage).toBeCloseTo(0.5, 12);
    expect(r.time.gapHours).toBeCloseTo(0.5, 12);
    expect(r.energy.communicationGapHours).toBeCloseTo(0.5, 12);
    expect(r.energy.availability).toBe(1);
    expect(r.energy.coverage).toBe(1);
  });

  it("counter flat across a daylight gap: an outage by energy; the time figure still does not count it as available", () => {
    const inv = inverter("a", 100, [60, null, null, null, 0, 60]);
    inv.counterKwh[4] = inv.counterKwh[0]!; // nothing made
    const r = plantAvailability({ steps: grid(6), stepHours: TAU, poaWm2: sun, inverters: [inv] });
    expect(r.time.availability).toBeCloseTo(2 / 3, 12); // measured: on, off, on
    expect(r.time.coverage).toBeCloseTo(0.5, 12);
    expect(r.energy.outageGapHours).toBeCloseTo(0.5, 12);
    expect(r.energy.availability).toBeCloseTo(2 / 6, 12);
  });

  it("no counter after the gap (or no reading at all): unresolved, in neither figure, in both coverages", () => {
    const r = plantAvailability({
      steps: grid(6),
      stepHours: TAU,
      poaWm2: sun,
      inverters: [inverter("a", 100, [60, 60, 60, null, null, null]), inverter("b", 100, Array(6).fill(null))],
    });
    expect(r.time.availability).toBe(1);
    expect(r.time.coverage).toBeCloseTo(3 / 12, 12);
    expect(r.energy.unresolvedGapHours).toBeCloseTo((9 * TAU * 100) / 200, 12);
    expect(r.energy.availability).toBe(1);
    expect(r.energy.coverage).toBeCloseTo(3 / 12, 12);
  });

  it("no inverter data at all: no availability (null), never 100 %", () => {
    const r = plantAvailability({
      steps: grid(3),
      stepHours: TAU,
      poaWm2: [800, 800, 800],
      inverters: [inverter("a", 50, [null, null, null])],
    });
    expect(r.time.availability).toBeNull();
    expect(r.energy.availability).toBeNull();
    expect(r.time.coverage).toBe(0);
  });

  it("a sensor fault (no irradiance while inverters produce) is an irradiance gap, not availability", () => {
    const r = plantAvailability({
      steps: grid(4),
      stepHours: TAU,
      poaWm2: [800, null, null, 800],
      inverters: [inverter("a", 100, [50, 50, 50, 50])],
    });
    expect(r.time.availability).toBe(1);
    expect(r.irradianceGapHours).toBeCloseTo(2 * TAU, 12);
    expect(r.time.coverage).toBeCloseTo(0.5, 12);
    expect(r.energy.coverage).toBeCloseTo(0.5, 12);
    // At night (no irradiance, nothing produced) nothing is missing.
    const night = plantAvailability({
      steps: grid(2),
      stepHours: TAU,
      poaWm2: [null, null],
      inverters: [inverter("a", 100, [0, null])],
    });
    expect(night.time.coverage).toBeNull();
    expect(night.irradianceGapHours).toBe(0);
  });
});

describe("exclusions are reported, not hidden", () => {
  it("a curtailment order and planned maintenance take their steps out of both figures and are counted by kind", () => {
    const steps = grid(6);
    const r = plantAvailability({
      steps,
      stepHours: TAU,
      poaWm2: Array(6).fill(900),
      inverters: [inverter("a", 100, [80, 0, 0, 0, 80, 80])],
      exclusions: [
        { from: steps[1]!, to: steps[3]!, kind: "curtailment" },
        { from: steps[3]!, to: steps[4]!, kind: "maintenance" },
      ],
    });
    expect(r.time.availability).toBe(1);
    expect(r.energy.availability).toBe(1);
    expect(r.exclusions.curtailment.hours).toBeCloseTo(2 * TAU, 12);
    expect(r.exclusions.curtailment.expectedKwh).toBeCloseTo(2 * expectedPowerKw(100, 900, 25) * TAU, 9);
    expect(r.exclusions.maintenance.hours).toBeCloseTo(TAU, 12);
    expect(r.exclusions.grid_outage.hours).toBe(0);
  });
});

describe("counters that reset or jump never make a negative or absurd step", () => {
  it("a reset is reported and adds nothing; a gap across it is unresolved", () => {
    const steps = grid(6);
    const inv: AvailabilityInverter = {
      id: "a",
      capacityKw: 100,
      powerKw: [60, 60, null, null, 60, 60],
      counterKwh: [5000, 5010, null, null, 3, 13],
    };
    const { anomalies, gaps } = resolveCounter(steps, TAU, inv);
    expect(anomalies).toEqual([{ inverterId: "a", t: steps[4], kind: "reset", fromKwh: 5010, toKwh: 3 }]);
    expect(gaps.slice(2, 4)).toEqual(["unresolved", "unresolved"]);
    expect(counterEnergyKwh(steps, TAU, inv)).toBe(20); // 10 before, 10 after; never 3 − 5010
    const r = plantAvailability({ steps, stepHours: TAU, poaWm2: Array(6).fill(700), inverters: [inv] });
    expect(r.counterAnomalies).toHaveLength(1);
    expect(r.energy.unresolvedGapHours).toBeCloseTo(2 * TAU, 12);
  });

  it("a rollback at a measured step is a reset too; a jump beyond 1.5 × rating × time is absurd", () => {
    const steps = grid(4);
    const inv: AvailabilityInverter = { id: "b", capacityKw: 10, powerKw: [5, 5, 5, 5], counterKwh: [100, 99.5, 100.3, 900] };
    const { anomalies } = resolveCounter(steps, TAU, inv);
    expect(anomalies.map((a) => a.kind)).toEqual(["reset", "jump"]);
    expect(counterEnergyKwh(steps, TAU, inv)).toBeCloseTo(0.8, 12);
  });
});

describe("the cost of one diagnosis is bounded", () => {
  const DAY = 86_400_000;
  it("a year of hours for 3 or 34 inverters, not for 35; never more than 366 days; 31 days of 10-minute steps for 60", () => {
    expect(availabilityWithinBounds(366 * DAY, 3, 60)).toBe(true);
    expect(availabilityWithinBounds(366 * DAY, 34, 1440)).toBe(true);
    expect(availabilityWithinBounds(366 * DAY, 35, 60)).toBe(false);
    expect(availabilityWithinBounds(367 * DAY, 1, 60)).toBe(false);
    expect(availabilityWithinBounds(31 * DAY, 60, 10)).toBe(true);
    expect(availabilityWithinBounds(120 * DAY, 100, 60)).toBe(true);
  });
});
