import { describe, expect, it } from "vitest";
import {
  addOperationTotals,
  addWarningTotals,
  deviceCategory,
  isGenerating,
  operationTotals,
  statusDataCounters,
  warningTotals,
  type DeviceState,
} from "./operation-totals";

const NOW = 1_800_000_000_000;
const fresh = NOW - 10 * 60_000;
const stale = NOW - 31 * 60_000;

describe("deviceCategory", () => {
  it("files kinds as SPEC §3 names them", () => {
    expect([1, 2, 4, 7, 8, 9].map(deviceCategory)).toEqual(["inv", "grid", "env", "grid", "grid", null]);
  });
});

describe("isGenerating", () => {
  const d = (x: Partial<DeviceState>): DeviceState => ({ kind: 1, ts: fresh, faulted: false, ...x });
  it("needs a fresh reading", () => {
    expect(isGenerating(d({ w: 5000 }), NOW)).toBe(true);
    expect(isGenerating(d({ w: 5000, ts: stale }), NOW)).toBe(false);
    expect(isGenerating(d({ w: 5000, ts: null }), NOW)).toBe(false);
  });
  it("judges each kind by what it measures", () => {
    expect(isGenerating(d({ w: 0 }), NOW)).toBe(false);
    expect(isGenerating(d({ kind: 4, iis: 300 }), NOW)).toBe(true);
    expect(isGenerating(d({ kind: 4, iis: 0, his: 0 }), NOW)).toBe(false);
    expect(isGenerating(d({ kind: 2, a: 12.5 }), NOW)).toBe(true);
    expect(isGenerating(d({ kind: 2, a: 0 }), NOW)).toBe(false);
    expect(isGenerating(d({ kind: 7, state: 1, w: 100_000 }), NOW)).toBe(true);
    expect(isGenerating(d({ kind: 8, state: 0, w: 100_000 }), NOW)).toBe(false);
    expect(isGenerating(d({ kind: 7, state: 1, w: 0 }), NOW)).toBe(false);
  });
});

describe("operationTotals and warningTotals", () => {
  const devices: DeviceState[] = [
    { kind: 1, ts: fresh, w: 1000, faulted: false },
    { kind: 1, ts: fresh, w: 0, faulted: true },
    { kind: 1, ts: null, faulted: false },
    { kind: 4, ts: fresh, iis: 200, faulted: false },
    { kind: 7, ts: fresh, state: 1, w: 20_000, faulted: false },
    { kind: 2, ts: stale, a: 3, faulted: true },
    { kind: 9, ts: fresh, faulted: true },
  ];
  it("counts total, breaking, normal, generating and stopped per category", () => {
    expect(operationTotals(devices, NOW)).toEqual({
      inv: { total: 3, breaking: 1, normal: 2, generating: 1, stopped: 2 },
      env: { total: 1, breaking: 0, normal: 1, generating: 1, stopped: 0 },
      grid: { total: 2, breaking: 1, normal: 1, generating: 1, stopped: 1 },
    });
  });
  it("counts alarms by level, RTU-level ones under inverters, unknown levels not at all", () => {
    const t = warningTotals([
      { deviceKind: 1, level: 3 },
      { deviceKind: 1, level: 2 },
      { deviceKind: null, level: 4 },
      { deviceKind: 4, level: 1 },
      { deviceKind: 8, level: 4 },
      { deviceKind: 1, level: 7 },
    ]);
    expect(t).toEqual({ inv: [0, 1, 1, 1], env: [1, 0, 0, 0], grid: [0, 0, 0, 1] });
  });
  it("adds up and flattens to the SPEC §3 counter names", () => {
    const op = addOperationTotals(operationTotals(devices, NOW), operationTotals(devices.slice(0, 1), NOW));
    const warn = addWarningTotals(warningTotals([{ deviceKind: 2, level: 2 }]), warningTotals([{ deviceKind: 7, level: 2 }]));
    const flat = statusDataCounters(op, warn);
    expect(flat).toMatchObject({
      total_inv: 4,
      b_inv: 1,
      nb_inv: 3,
      g_inv: 2,
      ng_inv: 2,
      grid_warn_2: 2,
      inv_warn_1: 0,
      total_env: 1,
    });
    expect(Object.keys(flat)).toHaveLength(27);
  });
});
