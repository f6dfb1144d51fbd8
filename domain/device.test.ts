import { describe, it, expect } from "vitest";
import {
  DEVICE_KIND,
  DEVICE_KINDS,
  MEASUREMENT_DEVICE_KINDS,
  deviceKindName,
  diagnosableDevices,
  isDeviceKind,
  presentDeviceKinds,
} from "./device";

describe("device kinds", () => {
  it("maps names to the spec's kind numbers", () => {
    expect(DEVICE_KIND).toEqual({ inverter: 1, connectionBoard: 2, environmentSensor: 4, vcb: 7, acb: 8 });
    expect(DEVICE_KINDS).toEqual([1, 2, 4, 7, 8]);
    expect(MEASUREMENT_DEVICE_KINDS).toEqual([1, 2, 4]);
  });

  it("guards kinds", () => {
    expect([1, 2, 4, 7, 8].every(isDeviceKind)).toBe(true);
    expect([0, 3, 5, 6, 9, "1", null].some(isDeviceKind)).toBe(false);
  });

  it("names a kind", () => {
    expect(deviceKindName(1)).toBe("inverter");
    expect(deviceKindName(2)).toBe("connectionBoard");
    expect(deviceKindName(4)).toBe("environmentSensor");
    expect(deviceKindName(7)).toBe("vcb");
    expect(deviceKindName(8)).toBe("acb");
  });

  it("keeps only inverters for diagnosis", () => {
    const devices = [
      { uid: 1, kind: 1 },
      { uid: 2, kind: 4 },
      { uid: 3, kind: 1 },
      { uid: 4, kind: 7 },
    ];
    expect(diagnosableDevices(devices).map((d) => d.uid)).toEqual([1, 3]);
  });

  it("lists the kinds present", () => {
    expect([...presentDeviceKinds([{ kind: 1 }, { kind: 8 }, { kind: 1 }, { kind: 99 }])].sort()).toEqual([1, 8]);
    expect(presentDeviceKinds([]).size).toBe(0);
  });
});
