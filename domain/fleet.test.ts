import { describe, expect, it } from "vitest";
import {
  commState,
  DeviceBodySchema,
  inKorea,
  kwToRaw,
  normalizeMac,
  PlantFormSchema,
  plantFormToBody,
  RtuBodySchema,
} from "./fleet";

describe("commState", () => {
  const now = 1_700_000_000_000;
  it("is online within 3 × 10 minutes, offline after, never without a time", () => {
    expect(commState(now - 29 * 60_000, now)).toBe("online");
    expect(commState(now - 30 * 60_000, now)).toBe("online");
    expect(commState(now - 30 * 60_000 - 1, now)).toBe("offline");
    expect(commState(null, now)).toBe("never");
  });
});

describe("plant form", () => {
  it("turns kW into the raw unit (×100) and blank fields into nothing", () => {
    const r = PlantFormSchema.safeParse({
      name: " 해남 ",
      capaKw: "998.5",
      lat: "",
      lng: "",
      locality: "",
      packageSeq: "",
      nodeSeq: "3",
    });
    expect(r.success).toBe(true);
    const body = plantFormToBody(r.success ? r.data : (null as never));
    expect(body).toMatchObject({ name: "해남", capa: 99850, locality: null, nodeSeq: 3 });
    expect(body.lat).toBeUndefined();
    expect(kwToRaw(0.01)).toBe(1);
  });
  it("names each bad field", () => {
    const r = PlantFormSchema.safeParse({ name: "", capaKw: "1.234", lat: "40", lng: "" });
    expect(r.success).toBe(false);
    const fields = Object.fromEntries((r.success ? [] : r.error.issues).map((i) => [i.path.join("."), i.message]));
    expect(fields).toMatchObject({ name: "required", capaKw: "two_decimals", lat: "out_of_korea", lng: "pair_required" });
  });
  it("knows Korea roughly", () => {
    expect(inKorea(37.56, 126.97)).toBe(true);
    expect(inKorea(33.5, 126.5)).toBe(true);
    expect(inKorea(35.68, 139.69)).toBe(false);
  });
});

describe("device and RTU bodies", () => {
  it("allows a rated capacity only for inverters", () => {
    expect(DeviceBodySchema.safeParse({ name: "a", kind: "1", capaKw: "10" }).success).toBe(true);
    const r = DeviceBodySchema.safeParse({ name: "a", kind: "4", capaKw: "10" });
    expect(r.success ? null : r.error.issues[0]!.message).toBe("inverters_only");
    expect(DeviceBodySchema.safeParse({ name: "a", kind: "3" }).success).toBe(false);
  });
  it("normalises MACs and reads config checkboxes", () => {
    expect(normalizeMac("aa-bb-cc-dd-ee-ff")).toBe("AA:BB:CC:DD:EE:FF");
    const r = RtuBodySchema.parse({ name: "r", mac: "aabbccddeeff", lteRouter: "1", lora: "on", use: "0" });
    expect(r).toMatchObject({ mac: "AA:BB:CC:DD:EE:FF", lteRouter: true, lora: true, use: false, kind: 1 });
    expect(r.zigbee).toBeFalsy();
  });
});
