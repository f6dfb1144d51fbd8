import { describe, expect, it } from "vitest";
import type { PlantStatusRow } from "../../domain/contract/status";
import { GroupBody, plantCard } from "./pvstatus";

const row = (over: Partial<PlantStatusRow> = {}): PlantStatusRow => ({
  plant_uid: "P1",
  name: "가람",
  alias: null,
  capa: 10_000,
  locality: null,
  node_seq: 1,
  lat: 36,
  lng: 128,
  iw: 0,
  dailys: 50_000,
  dailysZeroed: false,
  month: 80_000,
  year: 90_000,
  accrue: 1e6,
  yesterday: 0,
  lastTs: 1,
  inverterCount: 1,
  alarm_count: 0,
  alarm_1000001_count: 0,
  alarm_1000003_count: 0,
  alarm_1000004_count: 0,
  alarm_1000006_count: 0,
  status: 1,
  statusName: "notWork",
  ...over,
});

describe("plantCard", () => {
  it("shows the status row's today's generation, zeroed once in the store (SPEC §5), never decided again from the series", () => {
    // Zeroed by the store (domain/sanitize.ts todayGeneration): the card shows the same 0 and its mark.
    const zeroed = plantCard(
      row({ alarm_count: 1, dailys: 0, dailysZeroed: true }),
      { times: "10:00,10:10", days: "0,0", his: "", iis: "", ats: "", sts: "" },
      [],
    );
    expect(zeroed.dailys).toBe(0);
    expect(zeroed.dailysZeroed).toBe(true);
    expect(zeroed.genData.day_accrue).toEqual({ value: "0.00", unit: "kWh" });
    expect(zeroed.genData.month_accrue).toEqual({ value: "80.00", unit: "kWh" });
    // Kept by the store (output now): a flat series does not make the card differ from the main table.
    const kept = plantCard(
      row({ alarm_count: 1, iw: 5 }),
      { times: "10:00,10:10", days: "0,0", his: "", iis: "", ats: "", sts: "" },
      [],
    );
    expect(kept.dailys).toBe(50_000);
    expect(kept.dailysZeroed).toBe(false);
  });
  it("without series shows the row's value as well", () => {
    expect(plantCard(row({ alarm_count: 2 }), undefined, []).dailys).toBe(50_000);
    expect(plantCard(row(), undefined, []).totalGenTime).toBe(0.5);
  });
  it("picks the irradiance source by mode and caps the values", () => {
    const c = plantCard(row(), { times: "12:00,12:10", days: "150,20", his: "2000,500", iis: "0,0", ats: "", sts: "" }, []);
    expect(c.genData.envInfo).toEqual({ mode: 1, source: "his", unit: "W/m²" });
    expect(c.genData.envDatas).toBe("1300,500");
    expect(c.genData.invDatas).toBe("100,20");
    expect(c.genData.stsDatas.split(",")).toHaveLength(2);
  });
});

describe("GroupBody", () => {
  it("fills the SPEC defaults and reads comma lists", () => {
    expect(GroupBody.parse({})).toMatchObject({
      type: "node",
      viewMode: "gd",
      countType: "all",
      limit: 20,
      searchType: "name",
      sortType: "name",
      order: "asc",
      resolution: "tenMinute",
    });
    expect(GroupBody.parse({ st: "normal,notWork", series: "1", limit: "30" })).toMatchObject({
      st: ["normal", "notWork"],
      series: true,
      limit: 30,
    });
  });
  it("requires a uid for type plant and rejects unknown keys", () => {
    expect(GroupBody.safeParse({ type: "plant" }).success).toBe(false);
    expect(GroupBody.safeParse({ foo: 1 }).success).toBe(false);
  });
});
