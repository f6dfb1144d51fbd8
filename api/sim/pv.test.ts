import { describe, expect, it } from "vitest";
import {
  LV_LINE_VOLTAGE_V,
  MV_LINE_VOLTAGE_V,
  createPlantModel,
  createPlantReadings,
  createPlantState,
  fixedWeather,
  inverterAcPowerKw,
  moduleTemperature,
  stepPlant,
  type PlantConditions,
  type PlantReadings,
  type PlantSpec,
} from "./pv";
import { kstDayIndex, kstDayStartMs, STEP_MS } from "./time";

const kst = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h - 9, mi);

const SPEC: PlantSpec = {
  seed: "영암 솔라파크 2호",
  latDeg: 34.8,
  lonDeg: 126.7,
  locality: "전라남도 영암군",
  inverters: [{ capacityKw: 100 }, { capacityKw: 100 }, { capacityKw: 50, dcCapacityKw: 80 }],
  connectionBoards: [
    { inverterIndex: 0, channels: 12 },
    { inverterIndex: 1, channels: 12 },
    { inverterIndex: 2, channels: 8 },
    { inverterIndex: 2, channels: 8 },
  ],
  envSensors: 1,
  vcbs: 1,
  acbs: 1,
};

/** Step from `fromMs` (exclusive) to `toMs` (inclusive), returning a snapshot of the readings at toMs. */
function runTo(
  spec: PlantSpec,
  fromMs: number,
  toMs: number,
  opts: Parameters<typeof createPlantModel>[1] = {},
  conditions?: PlantConditions,
) {
  const model = createPlantModel(spec, opts);
  const state = createPlantState(model, fromMs);
  const out = createPlantReadings(model);
  while (state.tMs < toMs) stepPlant(model, state, conditions, out);
  return { model, state, out };
}

const snapshot = (r: PlantReadings) => JSON.parse(JSON.stringify(r, (_k, v) => (v instanceof Float64Array ? Array.from(v) : v)));

describe("device models", () => {
  it("module temperature follows the NOCT model", () => {
    expect(moduleTemperature(25, 800)).toBeCloseTo(50, 9);
    expect(moduleTemperature(10, 0)).toBe(10);
  });

  it("inverter output: zero below start-up, clipped at capacity", () => {
    const inv = { capacityKw: 100, dcCapacityKw: 150, derate: 0.93, efficiency: 0.97 };
    expect(inverterAcPowerKw(10, 20, inv)).toBe(0);
    expect(inverterAcPowerKw(1000, 45, inv)).toBe(100);
    const small = inverterAcPowerKw(300, 30, { ...inv, dcCapacityKw: 100 });
    expect(small).toBeGreaterThan(20);
    expect(small).toBeLessThan(30);
  });
});

describe("stepPlant", () => {
  it("clips an oversized array at the inverter's AC capacity on a clear June noon", () => {
    const spec: PlantSpec = {
      ...SPEC,
      inverters: [{ capacityKw: 100, dcCapacityKw: 160 }],
      connectionBoards: [{ inverterIndex: 0, channels: 16 }],
    };
    const { out } = runTo(spec, kst(2026, 6, 15, 0), kst(2026, 6, 15, 12, 30), { weather: fixedWeather(1, 28) });
    const inv = out.inverters[0]!;
    expect(inv.acPowerKw).toBe(100);
    expect(inv.running).toBe(true);
    // While clipping the DC side only delivers what the AC side can pass.
    expect(inv.dcPowerKw).toBeGreaterThan(100);
    expect(inv.dcPowerKw).toBeLessThan(106);
    expect(out.plantAcKw).toBe(100);
  });

  it("produces plausible electricals at midday", () => {
    const { out } = runTo(SPEC, kst(2026, 5, 10, 0), kst(2026, 5, 10, 12, 0), { weather: fixedWeather(0.95, 22) });
    expect(out.poa).toBeGreaterThan(out.ghi); // iis above his at midday for a 30° tilt
    for (const inv of out.inverters) {
      expect(inv.acPowerKw).toBeGreaterThan(0);
      expect(inv.dcVoltageV).toBeGreaterThan(550);
      expect(inv.dcVoltageV).toBeLessThan(720);
      expect(inv.dcCurrentA).toBeCloseTo((inv.dcPowerKw * 1000) / inv.dcVoltageV, 6);
      expect(inv.acVoltageV).toBeGreaterThan(370);
      expect(inv.acVoltageV).toBeLessThan(395);
      expect(inv.powerFactor).toBeGreaterThan(0.97);
      expect(inv.powerFactor).toBeLessThanOrEqual(1);
      expect(inv.acCurrentA).toBeCloseTo((inv.acPowerKw * 1000) / (Math.sqrt(3) * inv.acVoltageV * inv.powerFactor), 6);
      expect(Math.abs(inv.frequencyHz - 60)).toBeLessThan(0.03);
      expect(inv.acPowerKw).toBeLessThan(inv.dcPowerKw);
      expect(inv.acPowerKw / inv.dcPowerKw).toBeGreaterThan(0.94);
    }
    // The 100 kW inverters with a 110 kWp array at ~1000 W/m² and ~50 °C modules: ≈ 85–95 kW.
    expect(out.inverters[0]!.acPowerKw).toBeGreaterThan(80);
    expect(out.inverters[0]!.acPowerKw).toBeLessThan(100);

    // Connection boards split the inverter's DC current across its strings at the DC bus voltage.
    const cbTotal = out.connectionBoards[2]!.totalCurrentA + out.connectionBoards[3]!.totalCurrentA;
    expect(cbTotal).toBeCloseTo(out.inverters[2]!.dcCurrentA, -0.5);
    for (const a of out.connectionBoards[0]!.channelCurrentA)
      expect(Math.abs(a / (out.inverters[0]!.dcCurrentA / 12) - 1)).toBeLessThan(0.1);
    expect(Math.abs(out.connectionBoards[0]!.voltageV - out.inverters[0]!.dcVoltageV)).toBeLessThan(5);

    // Breakers: ACB at 380 V, VCB at 22.9 kV, both carrying the plant's power less a little loss.
    const acb = out.acbs[0]!;
    const vcb = out.vcbs[0]!;
    expect(acb.closed && vcb.closed).toBe(true);
    expect(acb.voltageRsV / LV_LINE_VOLTAGE_V).toBeGreaterThan(0.97);
    expect(acb.voltageRsV / LV_LINE_VOLTAGE_V).toBeLessThan(1.04);
    expect(vcb.voltageStV / MV_LINE_VOLTAGE_V).toBeGreaterThan(0.98);
    expect(vcb.voltageStV / MV_LINE_VOLTAGE_V).toBeLessThan(1.03);
    expect(acb.powerKw).toBeLessThanOrEqual(out.plantAcKw);
    expect(vcb.powerKw).toBeGreaterThan(out.plantAcKw * 0.97);
    expect(vcb.powerKw).toBeLessThan(acb.powerKw);
    const pVcb = (Math.sqrt(3) * vcb.voltageRsV * ((vcb.currentRA + vcb.currentSA + vcb.currentTA) / 3) * vcb.powerFactor) / 1000;
    expect(pVcb / vcb.powerKw).toBeGreaterThan(0.98);
    expect(pVcb / vcb.powerKw).toBeLessThan(1.02);
    expect(vcb.groundFaultMa).toBeGreaterThanOrEqual(0);
    expect(vcb.groundFaultMa).toBeLessThan(20);

    const env = out.envSensors[0]!;
    expect(env.iis).toBeGreaterThan(env.his);
    expect(Math.abs(env.his / out.ghi - 1)).toBeLessThan(0.05);
    expect(env.sts).toBeGreaterThan(env.ats + 15); // modules well above ambient in full sun
  });

  it("is silent at night: zero irradiance, power, DC voltage and current", () => {
    const { out } = runTo(SPEC, kst(2026, 6, 20, 0), kst(2026, 6, 21, 2, 0));
    expect(out.sunElevationDeg).toBeLessThan(0);
    expect(out.ghi).toBe(0);
    expect(out.poa).toBe(0);
    expect(out.plantAcKw).toBe(0);
    for (const inv of out.inverters) {
      expect([inv.acPowerKw, inv.dcPowerKw, inv.dcVoltageV, inv.dcCurrentA, inv.acCurrentA, inv.powerFactor]).toEqual([
        0, 0, 0, 0, 0, 0,
      ]);
      expect(inv.running).toBe(false);
      expect(inv.todayKwh).toBe(0);
      expect(inv.totalKwh).toBeGreaterThan(0);
      expect(inv.acVoltageV).toBeGreaterThan(370); // the grid is still there
    }
    expect(out.envSensors[0]).toMatchObject({ his: 0, iis: 0 });
    expect(out.connectionBoards[0]!.totalCurrentA).toBe(0);
    expect(out.vcbs[0]!.powerKw).toBe(0);
  });

  it("keeps module temperature above ambient whenever the sun shines", () => {
    const model = createPlantModel(SPEC);
    const state = createPlantState(model, kst(2026, 4, 1, 0));
    const out = createPlantReadings(model);
    let sunny = 0;
    for (let k = 0; k < 144 * 7; k++) {
      stepPlant(model, state, undefined, out);
      if (out.poa > 50) {
        sunny++;
        expect(out.moduleC).toBeGreaterThan(out.ambientC);
        expect(out.inverters[0]!.moduleTempC).toBe(out.moduleC);
      } else if (out.poa === 0) {
        expect(out.moduleC).toBe(out.ambientC);
      }
    }
    expect(sunny).toBeGreaterThan(7 * 40);
  });

  it("resets today's energy at 00:00 KST while lifetime energy keeps growing", () => {
    const model = createPlantModel(SPEC);
    const state = createPlantState(model, kst(2026, 8, 1, 0), { totalKwh: 500_000 });
    const out = createPlantReadings(model);
    expect(state.totalKwh.reduce((a, b) => a + b, 0)).toBeCloseTo(500_000, 6);
    let lastTotal = 500_000;
    let dayStartTotal = 500_000;
    let days = 0;
    for (let k = 0; k < 144 * 4; k++) {
      const prevToday = state.todayKwh[0]!;
      stepPlant(model, state, undefined, out);
      expect(out.plantTotalKwh).toBeGreaterThanOrEqual(lastTotal);
      lastTotal = out.plantTotalKwh;
      const t = out.tMs;
      if (t === kstDayStartMs(kstDayIndex(t))) {
        // Midnight: the new day starts at zero; the finished day's counter equals the lifetime increase.
        expect(out.plantTodayKwh).toBe(0);
        expect(prevToday).toBeGreaterThan(5); // even a wet August day yields something
        days++;
        dayStartTotal = out.plantTotalKwh;
      } else {
        expect(out.inverters[0]!.todayKwh).toBeGreaterThanOrEqual(prevToday);
        expect(out.plantTodayKwh).toBeCloseTo(out.plantTotalKwh - dayStartTotal, 6);
      }
    }
    expect(days).toBe(4);
    expect(lastTotal).toBeGreaterThan(500_000 + 4 * 200);
  });

  it("yields a plausible clear June day (≈ 5–6.5 kWh per kWp)", () => {
    const spec: PlantSpec = { ...SPEC, inverters: [{ capacityKw: 100 }], connectionBoards: [] };
    const { out } = runTo(spec, kst(2026, 6, 1, 0), kst(2026, 6, 1, 23, 50), { weather: fixedWeather(0.97, 24) });
    const hours = out.plantTodayKwh / 110; // default array: 1.1 × 100 kW
    expect(hours).toBeGreaterThan(5);
    expect(hours).toBeLessThan(6.5);
  });

  it("is deterministic: same spec and start → identical readings, independent of other plants", () => {
    const a = runTo(SPEC, kst(2026, 7, 1, 0), kst(2026, 7, 2, 13, 0));
    // Interleave another plant's steps in between to make sure no hidden shared state leaks in.
    const other = createPlantModel({ ...SPEC, seed: "다른 발전소", locality: "강원도 횡성군" });
    const otherState = createPlantState(other, kst(2026, 7, 1, 0));
    const model = createPlantModel(SPEC);
    const state = createPlantState(model, kst(2026, 7, 1, 0));
    const out = createPlantReadings(model);
    while (state.tMs < kst(2026, 7, 2, 13, 0)) {
      stepPlant(other, otherState);
      stepPlant(model, state, undefined, out);
    }
    expect(snapshot(out)).toEqual(snapshot(a.out));
    const c = runTo({ ...SPEC, seed: "영암 솔라파크 3호" }, kst(2026, 7, 1, 0), kst(2026, 7, 2, 13, 0));
    expect(c.out.inverters[0]!.acVoltageV).not.toBe(a.out.inverters[0]!.acVoltageV);
  });

  it("shares the grid frequency across plants", () => {
    const a = runTo(SPEC, kst(2026, 3, 3, 0), kst(2026, 3, 3, 10, 0));
    const b = runTo(
      { ...SPEC, seed: "p2", locality: "경기도 이천시", latDeg: 37.2, lonDeg: 127.4 },
      kst(2026, 3, 3, 0),
      kst(2026, 3, 3, 10, 0),
    );
    expect(a.out.vcbs[0]!.frequencyHz).toBe(b.out.vcbs[0]!.frequencyHz);
  });

  it("a faulted inverter stops producing, reports its code and holds open-circuit voltage", () => {
    const conditions: PlantConditions = { inverterFaultCode: [0x0008, 0, 0], inverterOutputFactor: [1, 1, 1] };
    const healthy = runTo(SPEC, kst(2026, 5, 10, 0), kst(2026, 5, 10, 12, 0), { weather: fixedWeather(0.95, 22) });
    const { out, state } = runTo(
      SPEC,
      kst(2026, 5, 10, 0),
      kst(2026, 5, 10, 12, 0),
      { weather: fixedWeather(0.95, 22) },
      conditions,
    );
    const inv = out.inverters[0]!;
    expect(inv.faultCode).toBe(0x0008);
    expect(inv.running).toBe(false);
    expect(inv.acPowerKw).toBe(0);
    expect(inv.dcCurrentA).toBe(0);
    expect(inv.dcVoltageV).toBeGreaterThan(healthy.out.inverters[0]!.dcVoltageV);
    expect(state.todayKwh[0]).toBe(0);
    expect(out.connectionBoards[0]!.totalCurrentA).toBe(0);
    expect(out.inverters[1]!.acPowerKw).toBe(healthy.out.inverters[1]!.acPowerKw);
  });

  it("underperformance cuts output; dead strings show as zero channels", () => {
    const w = { weather: fixedWeather(0.95, 22) };
    const healthy = runTo(SPEC, kst(2026, 5, 10, 0), kst(2026, 5, 10, 12, 0), w);
    const soiled = runTo(SPEC, kst(2026, 5, 10, 0), kst(2026, 5, 10, 12, 0), w, {
      inverterFaultCode: [0, 0, 0],
      inverterOutputFactor: [0.5, 1, 1],
      inverterStringLoss: [1, 0, 0],
    });
    const ratio = soiled.out.inverters[0]!.acPowerKw / healthy.out.inverters[0]!.acPowerKw;
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.55);
    const ch = Array.from(soiled.out.connectionBoards[0]!.channelCurrentA);
    expect(ch.filter((a) => a === 0)).toHaveLength(6);
    expect(ch.reduce((a, b) => a + b, 0)).toBeCloseTo(soiled.out.inverters[0]!.dcCurrentA, -0.5);
    expect(soiled.out.inverters[1]!.acPowerKw).toBe(healthy.out.inverters[1]!.acPowerKw);
  });

  it("a blown string fuse: one channel reads 0 A, the others stay at their share, the inverter loses 1/12", () => {
    const w = { weather: fixedWeather(0.9, 15) };
    const healthy = runTo(SPEC, kst(2026, 4, 10, 0), kst(2026, 4, 10, 12, 0), w);
    const blown = runTo(SPEC, kst(2026, 4, 10, 0), kst(2026, 4, 10, 12, 0), w, {
      inverterFaultCode: [0, 0, 0],
      inverterOutputFactor: [1, 1, 1],
      inverterDeadStrings: [0, 1, 0],
    });
    const ch = Array.from(blown.out.connectionBoards[1]!.channelCurrentA);
    expect(ch.filter((a) => a === 0)).toHaveLength(1);
    const live = ch.filter((a) => a > 0);
    const healthyCh = Array.from(healthy.out.connectionBoards[1]!.channelCurrentA);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    // A string's current follows irradiance, not how many siblings it has.
    expect(mean(live) / mean(healthyCh)).toBeGreaterThan(0.97);
    expect(mean(live) / mean(healthyCh)).toBeLessThan(1.03);
    const ratio = blown.out.inverters[1]!.dcPowerKw / healthy.out.inverters[1]!.dcPowerKw;
    expect(ratio).toBeGreaterThan(11 / 12 - 0.02);
    expect(ratio).toBeLessThan(11 / 12 + 0.02);
    expect(blown.out.inverters[0]!.acPowerKw).toBe(healthy.out.inverters[0]!.acPowerKw);
  });

  it("steps exactly 10 minutes and aligns the start to the grid", () => {
    const model = createPlantModel(SPEC);
    const state = createPlantState(model, kst(2026, 1, 1, 0, 7));
    expect(state.tMs).toBe(kst(2026, 1, 1, 0, 0));
    const r = stepPlant(model, state);
    expect(r.tMs).toBe(kst(2026, 1, 1, 0, 0) + STEP_MS);
    expect(state.tMs).toBe(r.tMs);
  });
});
