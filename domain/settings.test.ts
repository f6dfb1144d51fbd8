import { describe, expect, it } from "vitest";
import { AlarmSettingsSchema, PollingSettingsSchema, SETTING_DEFAULTS, settingsFromRows } from "./settings";

describe("settings", () => {
  it("defaults to the documented values", () => {
    expect(settingsFromRows([])).toEqual({
      alarm: {
        rtuSilentIntervals: 3,
        deviceSilentIntervals: 3,
        lowGenerationRatio: 0.5,
        lowGenerationReleaseRatio: 0.7,
        minIrradiance: 150,
        raiseDelayMinutes: 0,
        autoCloseMinutes: 0,
        flapMaxPerHour: 3,
      },
      polling: { groupStatusIntervalMs: 660000 },
    });
  });
  it("applies stored values and falls back per field on bad ones", () => {
    const s = settingsFromRows([
      { key: "alarm.minIrradiance", value: "200" },
      { key: "alarm.rtuSilentIntervals", value: "0" },
      { key: "polling.groupStatusIntervalMs", value: "not json" },
    ]);
    expect(s.alarm.minIrradiance).toBe(200);
    expect(s.alarm.rtuSilentIntervals).toBe(3);
    expect(s.polling.groupStatusIntervalMs).toBe(SETTING_DEFAULTS.polling.groupStatusIntervalMs);
  });
  it("enforces bounds and the release ratio", () => {
    expect(PollingSettingsSchema.safeParse({ groupStatusIntervalMs: "59999" }).success).toBe(false);
    const r = AlarmSettingsSchema.safeParse({
      ...SETTING_DEFAULTS.alarm,
      lowGenerationRatio: 0.8,
      lowGenerationReleaseRatio: 0.7,
    });
    expect(r.success ? null : r.error.issues[0]!.path).toEqual(["lowGenerationReleaseRatio"]);
  });
});
