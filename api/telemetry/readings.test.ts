import { describe, expect, it } from "vitest";
import { MAX_FUTURE_MS, parseTimestamp, validateReading, type DeviceInfo } from "./readings";

const devices = new Map<string, DeviceInfo>([
  ["INV", { uid: "INV", kind: 1, rtu_uid: "R1", plant_uid: "P1" }],
  ["ENV", { uid: "ENV", kind: 4, rtu_uid: "R1", plant_uid: "P1" }],
  ["BRD", { uid: "BRD", kind: 2, rtu_uid: "R1", plant_uid: "P1" }],
  ["OTHER", { uid: "OTHER", kind: 4, rtu_uid: "R2", plant_uid: "P2" }],
]);
const now = Date.UTC(2026, 10, 21, 3, 0);
const check = (raw: unknown) => validateReading(raw as never, 0, "R1", devices, now);

describe("reading validation", () => {
  it("floors timestamps onto the 10-minute grid, from epoch ms or ISO 8601 with an offset", () => {
    expect(parseTimestamp(now + 9 * 60_000 + 59_999)).toBe(now);
    expect(parseTimestamp("2026-11-21T12:05:30+09:00")).toBe(now);
    expect(parseTimestamp("2026-11-21T03:00Z")).toBe(now);
    expect(parseTimestamp("2026-11-21 03:00")).toBeNull();
    expect(parseTimestamp("yesterday")).toBeNull();
    expect(parseTimestamp(-5)).toBeNull();
    expect(parseTimestamp(Number.NaN)).toBeNull();
  });

  it("maps values to the columns of the device kind", () => {
    const ok = check({ device: "BRD", ts: now, values: { v: 600, total_a: 12.5, channels: [1.5, 2, 3] } });
    expect(ok).toMatchObject({ table: "m_board", ts: now, row: { v: 600, total_a: 12.5, channels: "1.5,2,3" } });
    const inv = check({ device: "INV", ts: now, values: { iw: 0, fault_code: 8, fault_hex: "0x0008" } });
    expect(inv).toMatchObject({ table: "m_inverter", row: { iw: 0, fault_code: 8, fault_hex: "0x0008", dc_v: null } });
  });

  it.each([
    [{ device: 42, ts: now, values: {} }, "malformed"],
    [{ device: "NOPE", ts: now, values: {} }, "unknown_device"],
    [{ device: "OTHER", ts: now, values: {} }, "device_of_another_rtu"],
    [{ device: "ENV", ts: "soon", values: {} }, "bad_timestamp"],
    [{ device: "ENV", ts: now + MAX_FUTURE_MS + 600_000, values: {} }, "timestamp_in_future"],
    [{ device: "ENV", ts: now - 401 * 86_400_000, values: {} }, "timestamp_too_old"],
    [{ device: "ENV", ts: now, values: [1, 2] }, "malformed"],
    [{ device: "ENV", ts: now, values: { his: "800" } }, "not_a_number"],
    [{ device: "ENV", ts: now, values: { his: Number.POSITIVE_INFINITY } }, "not_a_number"],
    [{ device: "INV", ts: now, values: { iw: 1, fault_code: 1.5 } }, "not_a_number"],
    [{ device: "BRD", ts: now, values: { channels: [1, "2"] } }, "not_a_number"],
    [{ device: "ENV", ts: now, values: { wind: 3 } }, "unknown_field"],
    [{ device: "INV", ts: now, values: { dc_v: 600 } }, "missing_field"],
  ])("rejects %j as %s", (raw, reason) => {
    expect(check(raw)).toMatchObject({ reason });
  });

  it("accepts a reading slightly ahead of the server clock (gateway drift)", () => {
    expect(check({ device: "ENV", ts: now + MAX_FUTURE_MS - 1, values: { his: 1 } })).toMatchObject({ table: "m_env" });
  });
});
