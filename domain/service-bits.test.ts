import { describe, expect, it } from "vitest";
import {
  ADMIN_SERVICE_MASK,
  HIDE_SERVICE_KEYS,
  SERVICE_BITS,
  diagnoseTabs,
  hasService,
  serviceMask,
  type ServiceKey,
} from "./service-bits";

const optional = (Object.keys(SERVICE_BITS) as ServiceKey[]).filter((k) => SERVICE_BITS[k] >= 0);
const always = (Object.keys(SERVICE_BITS) as ServiceKey[]).filter((k) => SERVICE_BITS[k] === -1);

describe("service bits", () => {
  it("uses the bit positions of SPEC §6", () => {
    expect(SERVICE_BITS).toMatchObject({
      control: 6,
      diagnoseCompare: 2,
      diagnoseAll: 3,
      diagnoseMenu: 3,
      userSetting: 1,
      co2Hide: 7,
      recSmpHide: 8,
      deviceOperation: 4,
      breakStatus: 5,
      help: 0,
    });
    expect(always.sort()).toEqual(["alarm", "cctv", "diagram", "measurement", "pvstatus", "statistics"]);
  });

  it.each(optional)("grants %s only when its own bit is set", (key) => {
    const bit = SERVICE_BITS[key];
    expect(hasService(1 << bit, key)).toBe(true);
    expect(hasService(0, key)).toBe(false);
    expect(hasService(0xffff & ~(1 << bit), key)).toBe(false);
    expect(hasService(0xffff, key)).toBe(true);
  });

  it("checks every bit of every mask exhaustively", () => {
    for (let mask = 0; mask <= 0x1ff; mask++) {
      for (const key of optional) expect(hasService(mask, key)).toBe(((mask >> SERVICE_BITS[key]) & 1) === 1);
      for (const key of always) expect(hasService(mask, key)).toBe(true);
    }
  });

  it.each(always)("always allows %s for any present mask", (key) => {
    expect(hasService(0, key)).toBe(true);
    expect(hasService("0", key)).toBe(true);
  });

  it("gives false for empty or missing inputs", () => {
    expect(hasService(null, "pvstatus")).toBe(false);
    expect(hasService(undefined, "help")).toBe(false);
    expect(hasService("", "alarm")).toBe(false);
    expect(hasService(0xffff, "")).toBe(false);
    expect(hasService(0xffff, null)).toBe(false);
    expect(hasService(0xffff, "unknownSection")).toBe(false);
    expect(hasService(0xffff, "toString")).toBe(false);
  });

  it("rejects masks outside 16 bits or non-integers", () => {
    expect(hasService(-1, "help")).toBe(false);
    expect(hasService(0x10000, "help")).toBe(false);
    expect(hasService(1.5, "help")).toBe(false);
    expect(hasService("abc", "help")).toBe(false);
    expect(hasService("65", "control")).toBe(true);
  });

  it("builds masks from keys", () => {
    expect(serviceMask(["help", "control"])).toBe(0b1000001);
    expect(serviceMask(["pvstatus"])).toBe(0);
    expect(serviceMask(["diagnoseAll", "diagnoseMenu"])).toBe(8);
  });

  it("derives diagnose tabs", () => {
    expect(diagnoseTabs(serviceMask(["diagnoseAll"]))).toEqual(["producer", "performance", "comparison"]);
    expect(diagnoseTabs(serviceMask(["diagnoseCompare"]))).toEqual(["comparison"]);
    expect(diagnoseTabs(serviceMask(["diagnoseAll", "diagnoseCompare"]))).toHaveLength(3);
    expect(diagnoseTabs(0)).toEqual([]);
    expect(diagnoseTabs(null)).toEqual([]);
  });
});

describe("the seeded admin's mask (issue 26)", () => {
  it("grants every section and hides nothing: bits 7 and 8 hide CO₂ and REC·SMP", () => {
    expect(hasService(ADMIN_SERVICE_MASK, "co2Hide")).toBe(false);
    expect(hasService(ADMIN_SERVICE_MASK, "recSmpHide")).toBe(false);
    for (const k of [
      "help",
      "userSetting",
      "diagnoseCompare",
      "diagnoseAll",
      "deviceOperation",
      "breakStatus",
      "control",
    ] as const)
      expect(hasService(ADMIN_SERVICE_MASK, k), k).toBe(true);
    expect(HIDE_SERVICE_KEYS.map((k) => SERVICE_BITS[k])).toEqual([7, 8]);
  });
});
