import { describe, expect, it } from "vitest";
import { RTU_CONFIG_BITS, hasRtuConfig, rtuConfigFlags, rtuConfigValue } from "./rtu-config";

describe("RTU config bits", () => {
  it("uses SPEC §6 positions", () => {
    expect(RTU_CONFIG_BITS).toEqual({ lteRouter: 0, zigbee: 1, invDetail: 2, lora: 3 });
  });
  it("round-trips every combination of the four bits", () => {
    for (let v = 0; v < 16; v++) {
      const flags = rtuConfigFlags(v);
      expect(flags).toEqual({ lteRouter: !!(v & 1), zigbee: !!(v & 2), invDetail: !!(v & 4), lora: !!(v & 8) });
      expect(rtuConfigValue(flags)).toBe(v);
    }
  });
  it("treats missing or negative config as no features", () => {
    expect(hasRtuConfig(null, "lora")).toBe(false);
    expect(hasRtuConfig(-1, "lora")).toBe(false);
    expect(rtuConfigValue({})).toBe(0);
  });
});
