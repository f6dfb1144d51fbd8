import { describe, it, expect } from "vitest";
import {
  ALARM_CODE,
  ALARM_LEVEL,
  ALARM_LEVEL_FILTERS,
  STATUS_CATEGORIES,
  countStatuses,
  isAlarmCode,
  isAlarmLevel,
  isAlarmLevelFilter,
  isShownByStatusFilter,
  isStatusCategory,
  plantStatusFromAlarms,
  statusCategories,
  statusCategory,
  statusIndicator,
  tallyStatusCodes,
  type StatusCategory,
} from "./status";

describe("alarm vocabulary", () => {
  it("has the four alarm codes", () => {
    expect(ALARM_CODE).toEqual({
      communicationFault: 1000001,
      internetDisconnected: 1000003,
      abnormalTodayGeneration: 1000004,
      inverterFault: 1000006,
    });
    expect(isAlarmCode(1000006)).toBe(true);
    expect(isAlarmCode(1000002)).toBe(false);
    expect(isAlarmCode("1000001")).toBe(false);
  });

  it("has levels 1-4 and the 'all' filter -1", () => {
    expect(ALARM_LEVEL).toEqual({ interest: 1, caution: 2, warning: 3, severe: 4 });
    expect(ALARM_LEVEL_FILTERS).toEqual([-1, 1, 2, 3, 4]);
    expect([0, 1, 4, 5].map(isAlarmLevel)).toEqual([false, true, true, false]);
    expect([-1, 0, 3].map(isAlarmLevelFilter)).toEqual([true, false, true]);
  });
});

describe("plantStatusFromAlarms", () => {
  it("gives 0 with an empty name when there is no data", () => {
    expect(plantStatusFromAlarms(null)).toEqual({ status: 0, statusName: "" });
    expect(plantStatusFromAlarms(undefined)).toEqual({ status: 0, statusName: "" });
  });

  it.each([
    [{ alarm_1000003_count: 1 }, 3, "warning"],
    [{ alarm_1000001_count: 2 }, 4, "warning_1000001"],
    [{ alarm_1000006_count: 1 }, 6, "warning_1000006"],
    [{ alarm_1000004_count: 1 }, 5, "warning_1000004"],
    [{ alarm_count: 1 }, 1, "notWork"],
    [{ iw: 12.5 }, 2, "normal"],
    [{ iw: 0 }, 1, "notWork"],
    [{}, 1, "notWork"],
  ] as const)("single counter %j → %i %s", (row, status, statusName) => {
    expect(plantStatusFromAlarms(row)).toEqual({ status, statusName });
  });

  it("checks in the order 1000003, 1000001, 1000006, 1000004, any alarm, iw", () => {
    const all = {
      alarm_1000003_count: 1,
      alarm_1000001_count: 1,
      alarm_1000006_count: 1,
      alarm_1000004_count: 1,
      alarm_count: 4,
      iw: 100,
    };
    expect(plantStatusFromAlarms(all).status).toBe(3);
    expect(plantStatusFromAlarms({ ...all, alarm_1000003_count: 0 }).status).toBe(4);
    expect(plantStatusFromAlarms({ ...all, alarm_1000003_count: 0, alarm_1000001_count: 0 }).status).toBe(6);
    expect(plantStatusFromAlarms({ ...all, alarm_1000003_count: 0, alarm_1000001_count: 0, alarm_1000006_count: 0 }).status).toBe(
      5,
    );
    expect(plantStatusFromAlarms({ alarm_1000004_count: 0, alarm_1000006_count: 0, alarm_count: 1, iw: 100 })).toEqual({
      status: 1,
      statusName: "notWork",
    });
  });

  it("1000006 outranks 1000004 even though its code number is higher", () => {
    expect(plantStatusFromAlarms({ alarm_1000004_count: 3, alarm_1000006_count: 1 }).status).toBe(6);
  });

  it("an alarm outranks current output", () => {
    expect(plantStatusFromAlarms({ alarm_count: 1, iw: 500 }).status).toBe(1);
  });

  it("accepts numeric strings and ignores nulls, zeros, negatives and junk", () => {
    expect(plantStatusFromAlarms({ alarm_1000001_count: "2" }).status).toBe(4);
    expect(plantStatusFromAlarms({ alarm_1000003_count: "0", iw: "3.2" }).status).toBe(2);
    expect(plantStatusFromAlarms({ alarm_1000003_count: null, alarm_count: -1, iw: "abc" }).status).toBe(1);
  });
});

describe("statusIndicator", () => {
  it.each([
    [0, "not"],
    [1, "not"],
    [2, "normal"],
    [3, "abnormal"],
    [4, "abnormal"],
    [5, "abnormal"],
    [6, "abnormal"],
    [7, "not"],
    [-1, "not"],
  ] as const)("%i → %s", (status, indicator) => {
    expect(statusIndicator(status)).toBe(indicator);
  });
});

describe("status categories", () => {
  it("lists the seven categories", () => {
    expect([...STATUS_CATEGORIES].sort()).toEqual([
      "normal",
      "notWork",
      "warning",
      "warning_1000001",
      "warning_1000003",
      "warning_1000004",
      "warning_1000006",
    ]);
    expect(isStatusCategory("warning_1000006")).toBe(true);
    expect(isStatusCategory("warning_1000002")).toBe(false);
  });

  it.each([
    [0, "notWork"],
    [1, "notWork"],
    [2, "normal"],
    [3, "warning_1000003"],
    [4, "warning_1000001"],
    [5, "warning_1000004"],
    [6, "warning_1000006"],
    [99, "notWork"],
  ] as const)("code %i is specifically %s", (status, category) => {
    expect(statusCategory(status)).toBe(category);
  });

  it("code 3 is both 'warning' and the internet-disconnected kind", () => {
    expect(statusCategories(3)).toEqual(["warning", "warning_1000003"]);
    expect(statusCategories(6)).toEqual(["warning", "warning_1000006"]);
    expect(statusCategories(2)).toEqual(["normal"]);
    expect(statusCategories(0)).toEqual(["notWork"]);
  });
});

describe("isShownByStatusFilter", () => {
  const allOn = STATUS_CATEGORIES;
  const without = (...off: StatusCategory[]) => STATUS_CATEGORIES.filter((c) => !off.includes(c));

  it("shows everything with all filters on (the default)", () => {
    for (const code of [0, 1, 2, 3, 4, 5, 6]) expect(isShownByStatusFilter(code, allOn)).toBe(true);
  });

  it("turning off 'warning' hides every warning kind and nothing else", () => {
    const on = without("warning");
    expect([3, 4, 5, 6].map((c) => isShownByStatusFilter(c, on))).toEqual([false, false, false, false]);
    expect([0, 1, 2].map((c) => isShownByStatusFilter(c, on))).toEqual([true, true, true]);
  });

  it("turning off one kind hides only that kind", () => {
    const on = without("warning_1000003");
    expect([3, 4, 5, 6].map((c) => isShownByStatusFilter(c, on))).toEqual([false, true, true, true]);
    expect(isShownByStatusFilter(1, without("notWork"))).toBe(false);
    expect(isShownByStatusFilter(0, without("notWork"))).toBe(false);
    expect(isShownByStatusFilter(2, without("normal"))).toBe(false);
  });

  it("shows nothing with no filter on", () => {
    expect(isShownByStatusFilter(2, [])).toBe(false);
  });
});

describe("status counts", () => {
  it("are all zero for an empty list", () => {
    expect(countStatuses([])).toEqual({
      warningCount: 0,
      warning_1000003_Count: 0,
      warning_1000001_Count: 0,
      warning_1000006_Count: 0,
      warning_1000004_Count: 0,
      normalCount: 0,
      notWorkCount: 0,
    });
  });

  it("count each kind once and warningCount as the total of all kinds", () => {
    const counts = countStatuses([
      { alarm_1000003_count: 1 },
      { alarm_1000003_count: 1, alarm_1000001_count: 1 }, // still a 1000003
      { alarm_1000001_count: 1 },
      { alarm_1000006_count: 1 },
      { alarm_1000004_count: 2 },
      { alarm_1000004_count: 1 },
      { iw: 10 },
      { alarm_count: 1, iw: 10 },
      {},
      null,
    ]);
    expect(counts).toEqual({
      warningCount: 6,
      warning_1000003_Count: 2,
      warning_1000001_Count: 1,
      warning_1000006_Count: 1,
      warning_1000004_Count: 2,
      normalCount: 1,
      notWorkCount: 3,
    });
  });

  it("tallies codes directly", () => {
    expect(tallyStatusCodes([2, 2, 5, 0])).toMatchObject({
      normalCount: 2,
      warningCount: 1,
      warning_1000004_Count: 1,
      notWorkCount: 1,
    });
  });
});
