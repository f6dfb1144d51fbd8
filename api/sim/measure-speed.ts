// Prints how fast the physics core backfills a demo-sized fleet. Not a test: run it by hand
//   npx tsx api/sim/measure-speed.ts
// (A figure for bench/README.md; move it under bench/ if that is where scripts should live.)
import { DEMO_FAULT_INTENSITY, FaultSchedule, createFaultFrame } from "./faults";
import { createPlantModel, createPlantReadings, createPlantState, stepPlant, type PlantSpec } from "./pv";
import { Rng } from "./random";
import { STEPS_PER_DAY, kstDayIndex, kstDayStartMs } from "./time";

const PLANTS = 40;
const DAYS = 90;
const rng = new Rng("measure-speed");
const fleet = Array.from({ length: PLANTS }, (_, p) => {
  const inverters = rng.int(1, 6) + (p % 5 === 0 ? 2 : 0);
  const spec: PlantSpec = {
    seed: `plant-${p}`,
    latDeg: rng.uniform(34.5, 37.8),
    lonDeg: rng.uniform(126.3, 129.2),
    locality: `locality-${p % 12}`,
    inverters: Array.from({ length: inverters }, () => ({ capacityKw: rng.pick([50, 100, 250]) })),
    connectionBoards: p % 3 === 0 ? [{ inverterIndex: 0, channels: 12 }] : [],
    envSensors: 1,
    vcbs: p % 4 === 0 ? 1 : 0,
    acbs: 1,
  };
  const model = createPlantModel(spec);
  const devices = inverters + (spec.connectionBoards?.length ?? 0) + 1 + (spec.vcbs ?? 0) + (spec.acbs ?? 0);
  const layout = { seed: spec.seed, inverters, devices, rtus: 1 };
  return {
    model,
    devices,
    schedule: new FaultSchedule(layout, { intensity: DEMO_FAULT_INTENSITY }),
    frame: createFaultFrame(layout),
  };
});
const inverterCount = fleet.reduce((a, p) => a + p.model.inverterCount, 0);
const deviceCount = fleet.reduce((a, p) => a + p.devices, 0);

const start = kstDayStartMs(kstDayIndex(Date.now()) - DAYS);
const t0 = performance.now();
let checksum = 0;
for (const p of fleet) {
  const state = createPlantState(p.model, start);
  const out = createPlantReadings(p.model);
  for (let k = 0; k < DAYS * STEPS_PER_DAY; k++) {
    p.schedule.frameAt(state.tMs + 600_000, p.frame);
    stepPlant(p.model, state, p.frame, out);
  }
  checksum += out.plantTotalKwh;
}
const ms = performance.now() - t0;
const plantSteps = PLANTS * DAYS * STEPS_PER_DAY;
console.log(`${PLANTS} plants, ${inverterCount} inverters, ${deviceCount} devices, ${DAYS} days × ${STEPS_PER_DAY} steps`);
console.log(`elapsed ${(ms / 1000).toFixed(2)} s`);
console.log(
  `${Math.round(plantSteps / (ms / 1000)).toLocaleString("en")} plant-steps/s, ${Math.round((plantSteps * (deviceCount / PLANTS)) / (ms / 1000)).toLocaleString("en")} device-readings/s`,
);
console.log(
  `${((ms * 1e3) / (DAYS * STEPS_PER_DAY * inverterCount)).toFixed(2)} µs per inverter-step (faults + weather + sun included)`,
);
console.log(`fleet lifetime energy after backfill: ${(checksum / 1000).toFixed(0)} MWh`);
