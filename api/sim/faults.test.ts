import { describe, expect, it } from "vitest";
import { demoFleet } from "./fleet";
import {
  BASE_FAULT_RATES,
  DEMO_FAULT_INTENSITY,
  DEMO_STANDING_DEFECTS,
  FAULT_KINDS,
  FaultSchedule,
  INVERTER_FAULT_CODES,
  createFaultFrame,
  faultCodeInfo,
  faultHex,
  type FaultKind,
} from "./faults";
import { createPlantModel, createPlantReadings, createPlantState, stepPlant } from "./pv";
import { Rng } from "./random";
import { DAY_MS, HOUR_MS, STEP_MS, kstDayIndex, kstDayStartMs, kstHourOfDay } from "./time";

const START = Date.UTC(2026, 2, 31, 15); // 2026-04-01 00:00 KST

describe("fault code table", () => {
  it("has unique numeric codes with 4-digit hex and Korean/English names", () => {
    const codes = INVERTER_FAULT_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of INVERTER_FAULT_CODES) {
      expect(c.hex).toMatch(/^0x[0-9A-F]{4}$/);
      expect(parseInt(c.hex, 16)).toBe(c.code);
      expect(c.nameKo).toMatch(/[가-힣]/);
      expect(c.nameEn).toMatch(/^[A-Z][A-Za-z ]+$/);
      expect([1, 2, 3, 4]).toContain(c.level);
      expect(faultCodeInfo(c.code)).toBe(c);
    }
    const names = INVERTER_FAULT_CODES.map((c) => c.nameKo);
    for (const n of ["DC 과전압", "계통 과전압", "계통 저전압", "계통 주파수 이상", "절연 저항 이상", "인버터 과온", "DC 지락"])
      expect(names).toContain(n);
    expect(faultHex(0x0088)).toBe("0x0088");
    expect(faultCodeInfo(12345)).toBeUndefined();
  });
});

describe("FaultSchedule", () => {
  const layout = { seed: "당진 1호", inverters: 6, devices: 10, rtus: 2 };

  it("is deterministic for the same plant and independent of query order", () => {
    const a = new FaultSchedule(layout, { intensity: 5 });
    const b = new FaultSchedule(layout, { intensity: 5 });
    const forward = a.episodesBetween(START, START + 30 * DAY_MS);
    // Query b backwards, day by day, to defeat any order dependence in its cache.
    for (let d = 29; d >= 0; d--) b.activeAt(START + d * DAY_MS + 12 * HOUR_MS);
    expect(b.episodesBetween(START, START + 30 * DAY_MS)).toEqual(forward);
    expect(forward.length).toBeGreaterThan(10);
    const other = new FaultSchedule({ ...layout, seed: "당진 2호" }, { intensity: 5 });
    expect(other.episodesBetween(START, START + 30 * DAY_MS)).not.toEqual(forward);
  });

  it("draws episodes with the documented durations, hours and parameters", () => {
    const s = new FaultSchedule(layout, { intensity: 20 });
    const eps = s.episodesBetween(START, START + 60 * DAY_MS);
    const kinds = new Set(eps.map((e) => e.kind));
    expect([...kinds].sort()).toEqual([...FAULT_KINDS].sort());
    for (const e of eps) {
      const rate = BASE_FAULT_RATES[e.kind];
      const dur = e.endMs - e.startMs;
      expect(dur).toBeGreaterThanOrEqual(rate.minDurationMs - 60_000);
      expect(dur).toBeLessThanOrEqual(rate.maxDurationMs + 60_000);
      const h = kstHourOfDay(e.startMs);
      expect(h).toBeGreaterThanOrEqual(rate.startHours[0]);
      expect(h).toBeLessThan(rate.startHours[1]);
      if (e.kind === "inverterFault") {
        expect(faultCodeInfo(e.code!)).toBeDefined();
        expect(dur).toBeGreaterThanOrEqual(20 * 60_000);
        expect(dur).toBeLessThanOrEqual(3 * HOUR_MS);
      }
      if (e.kind === "rtuOffline") {
        expect(e.index).toBeLessThan(layout.rtus);
        expect(dur).toBeGreaterThanOrEqual(30 * 60_000);
        expect(dur).toBeLessThanOrEqual(6 * HOUR_MS);
      }
      if (e.kind === "underperformance") {
        expect(e.factor!).toBeGreaterThanOrEqual(0.3);
        expect(e.factor!).toBeLessThanOrEqual(0.6);
        expect(["soiling", "shading", "stringFailure"]).toContain(e.cause);
      }
      if (e.kind === "commLoss") expect(e.index).toBeLessThan(layout.devices);
    }
  });

  it("hits the base rate per device per month at intensity 1", () => {
    const counts: Record<FaultKind, number> = { inverterFault: 0, commLoss: 0, rtuOffline: 0, underperformance: 0 };
    const months = 24;
    let inverters = 0;
    let devices = 0;
    let rtus = 0;
    for (let p = 0; p < 30; p++) {
      const l = { seed: `p${p}`, inverters: 4, devices: 7, rtus: 1 };
      inverters += l.inverters;
      devices += l.devices;
      rtus += l.rtus;
      const s = new FaultSchedule(l, { pronenessSigma: 0 });
      const first = kstDayIndex(START);
      for (let d = first; d < first + months * 30; d++) for (const e of s.episodesStartingOn(d)) counts[e.kind]++;
    }
    const perDeviceMonth = (k: FaultKind, n: number) => counts[k] / n / months;
    expect(perDeviceMonth("inverterFault", inverters) / BASE_FAULT_RATES.inverterFault.perMonth).toBeCloseTo(1, 0);
    expect(perDeviceMonth("commLoss", devices) / BASE_FAULT_RATES.commLoss.perMonth).toBeCloseTo(1, 0);
    expect(perDeviceMonth("rtuOffline", rtus) / BASE_FAULT_RATES.rtuOffline.perMonth).toBeCloseTo(1, 0);
    expect(counts.underperformance).toBeGreaterThan(0);
  });

  it("frameAt agrees with activeAt", () => {
    const s = new FaultSchedule(layout, { intensity: 15 });
    const frame = createFaultFrame(layout);
    let seen = 0;
    for (let t = START; t < START + 20 * DAY_MS; t += STEP_MS * 3) {
      s.frameAt(t, frame);
      const active = s.activeAt(t);
      for (let i = 0; i < layout.inverters; i++) {
        const faults = active.filter((e) => e.kind === "inverterFault" && e.index === i);
        expect(frame.inverterFaultCode[i] !== 0).toBe(faults.length > 0);
        if (faults.length > 0) expect(frame.inverterFaultCode[i]).toBe(faults.at(-1)!.code);
        const under = active.filter((e) => e.kind === "underperformance" && e.index === i);
        expect(frame.inverterOutputFactor[i]).toBe(under.length ? Math.min(...under.map((e) => e.factor!)) : 1);
      }
      for (let d = 0; d < layout.devices; d++)
        expect(frame.deviceCommLost[d] === 1).toBe(active.some((e) => e.kind === "commLoss" && e.index === d));
      for (let r = 0; r < layout.rtus; r++)
        expect(frame.rtuOffline[r] === 1).toBe(active.some((e) => e.kind === "rtuOffline" && e.index === r));
      seen += active.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("at demo intensity, a ~35-plant fleet has several episodes of every kind active at once", () => {
    const rng = new Rng(2026);
    const fleet = Array.from({ length: 35 }, (_, p) => {
      const inverters = rng.int(1, 8);
      return new FaultSchedule(
        { seed: `demo-${p}`, inverters, devices: inverters + rng.int(2, 5), rtus: rng.int(1, 2) },
        { intensity: DEMO_FAULT_INTENSITY },
      );
    });
    const sums: Record<FaultKind, number> = { inverterFault: 0, commLoss: 0, rtuOffline: 0, underperformance: 0 };
    let samples = 0;
    for (let d = 0; d < 30; d++) {
      for (const h of [10, 12, 14]) {
        const t = kstDayStartMs(kstDayIndex(START) + d) + h * HOUR_MS;
        samples++;
        for (const s of fleet) for (const e of s.activeAt(t)) sums[e.kind]++;
      }
    }
    for (const k of FAULT_KINDS) {
      const mean = sums[k] / samples;
      expect(mean, k).toBeGreaterThanOrEqual(2);
      expect(mean, k).toBeLessThanOrEqual(10);
    }
  });

  it("drives the device models: a faulted inverter produces nothing while its neighbours run", () => {
    const spec = {
      seed: "당진 1호",
      latDeg: 36.9,
      lonDeg: 126.6,
      locality: "충청남도 당진시",
      inverters: Array.from({ length: 6 }, () => ({ capacityKw: 50 })),
    };
    const schedule = new FaultSchedule(layout, { intensity: 30 });
    const model = createPlantModel(spec);
    const state = createPlantState(model, START);
    const out = createPlantReadings(model);
    const frame = createFaultFrame(layout);
    let faultedDaylightSteps = 0;
    for (let k = 0; k < 144 * 20; k++) {
      schedule.frameAt(state.tMs + STEP_MS, frame);
      stepPlant(model, state, frame, out);
      for (let i = 0; i < 6; i++) {
        if (frame.inverterFaultCode[i] !== 0) {
          expect(out.inverters[i]!.acPowerKw).toBe(0);
          expect(out.inverters[i]!.faultCode).toBe(frame.inverterFaultCode[i]);
          if (out.poa > 100) faultedDaylightSteps++;
        }
      }
    }
    expect(faultedDaylightSteps).toBeGreaterThan(0);
  });
});

describe("standing defects of the demo fleet", () => {
  const layout = (seed: string) => ({ seed, inverters: 3, devices: 8, rtus: 1 });

  it("a blown string and a failing inverter hold at every instant, on the plants the demo fleet names", () => {
    const plants = new Map(demoFleet().map((p) => [p.uid, p]));
    expect(plants.get("P000100")!.inverterKw.length).toBeGreaterThan(1);
    expect(plants.get("P000113")!.inverterKw.length).toBeGreaterThan(1);
    const blown = new FaultSchedule(layout("P000100"), { intensity: 0 });
    const failing = new FaultSchedule(layout("P000113"), { intensity: 0 });
    for (const t of [Date.UTC(2026, 0, 5, 3), Date.UTC(2026, 6, 20, 4)]) {
      const a = blown.frameAt(t);
      expect(Array.from(a.inverterDeadStrings)).toEqual([0, 1, 0]);
      expect(Array.from(a.inverterOutputFactor)).toEqual([1, 1, 1]);
      const b = failing.frameAt(t);
      expect(b.inverterOutputFactor[1]).toBeCloseTo(DEMO_STANDING_DEFECTS.P000113![0]!.factor!, 12);
      expect(b.inverterOutputFactor[0]).toBe(1);
    }
    expect(
      Array.from(new FaultSchedule(layout("P000101"), { intensity: 0 }).frameAt(Date.UTC(2026, 0, 5, 3)).inverterDeadStrings),
    ).toEqual([0, 0, 0]);
  });
});
