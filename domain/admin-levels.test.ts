import { describe, expect, it } from "vitest";
import { ADMIN_AREAS, adminAreas, canAdminister, type AdminArea } from "./admin-levels";

// SPEC §6, written out level by level so a change to the rule shows up as a table diff.
const TABLE: Record<number, AdminArea[]> = {
  0: ["id"],
  1: ["id"],
  2: ["id", "plant", "device"],
  3: ["plant", "device"],
  4: ["id", "plant", "device"],
  5: ["id", "plant", "device"],
  6: ["rtu", "plant", "device"],
  7: ["plant", "device"],
  8: ["id", "plant", "device"],
  9: ["plant", "device"],
  10: ["id", "group", "rtu", "plant", "device", "setting"],
};

describe("admin level table", () => {
  for (const [level, areas] of Object.entries(TABLE)) {
    it(`level ${level} administers exactly ${areas.join(", ")}`, () => {
      expect(adminAreas(Number(level))).toEqual(ADMIN_AREAS.filter((a) => areas.includes(a)));
    });
  }

  it("keeps setting at 10 or higher and plant/device from 2", () => {
    expect(canAdminister("setting", 11)).toBe(true);
    expect(canAdminister("plant", 1)).toBe(false);
    expect(canAdminister("device", 2)).toBe(true);
  });

  it("denies missing or malformed levels", () => {
    for (const area of ADMIN_AREAS) {
      expect(canAdminister(area, null)).toBe(false);
      expect(canAdminister(area, undefined)).toBe(false);
      expect(canAdminister(area, Number.NaN)).toBe(false);
      expect(canAdminister(area, 2.5)).toBe(false);
    }
  });
});

describe("setting screens", () => {
  it("lists the screens of the areas a level administers", async () => {
    const { settingScreensFor } = await import("./admin-levels");
    expect(settingScreensFor(10).map((s) => s.key)).toEqual([
      "total",
      "id",
      "group",
      "plant",
      "device",
      "rtu",
      "config",
      "import",
    ]);
    expect(settingScreensFor(6).map((s) => s.key)).toEqual(["plant", "device", "rtu"]);
    expect(settingScreensFor(1).map((s) => s.key)).toEqual(["id"]);
    expect(settingScreensFor(null)).toEqual([]);
  });
});
