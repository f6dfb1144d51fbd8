import { describe, expect, it } from "vitest";
import { DEFAULT_ALERT_PREF, planAlert, quietUntil } from "./alert-policy";
import { parseSeoul } from "./seoul-time";

const at = (s: string) => parseSeoul(s)!;

describe("alert policy", () => {
  it("quiet hours inside one day and across midnight", () => {
    expect(quietUntil(at("2026-05-01 12:00"), 11 * 60, 13 * 60)).toBe(at("2026-05-01 13:00"));
    expect(quietUntil(at("2026-05-01 13:00"), 11 * 60, 13 * 60)).toBeNull();
    expect(quietUntil(at("2026-05-01 23:30"), 22 * 60, 7 * 60)).toBe(at("2026-05-02 07:00"));
    expect(quietUntil(at("2026-05-02 06:59"), 22 * 60, 7 * 60)).toBe(at("2026-05-02 07:00"));
    expect(quietUntil(at("2026-05-02 07:00"), 22 * 60, 7 * 60)).toBeNull();
    expect(quietUntil(at("2026-05-02 03:00"), null, null)).toBeNull();
  });

  it("sends at or above the member's level on the chosen channels, nothing with a digest", () => {
    const now = at("2026-05-01 12:00");
    expect(planAlert(DEFAULT_ALERT_PREF, "a@example.kr", 2, now).channels).toEqual([]);
    expect(planAlert(DEFAULT_ALERT_PREF, "a@example.kr", 3, now).channels).toEqual([{ channel: "mail", to: "a@example.kr" }]);
    expect(planAlert(DEFAULT_ALERT_PREF, null, 4, now).channels).toEqual([]);
    const both = { ...DEFAULT_ALERT_PREF, minLevel: 1, webhook: true, webhookUrl: "http://127.0.0.1/h" };
    expect(planAlert(both, "a@example.kr", 1, now).channels.map((c) => c.channel)).toEqual(["mail", "webhook"]);
    expect(planAlert({ ...both, digest: true }, "a@example.kr", 4, now).channels).toEqual([]);
    const quiet = planAlert({ ...both, quietFrom: 11 * 60, quietTo: 13 * 60 }, "a@example.kr", 4, now);
    expect(quiet.notBefore).toBe(at("2026-05-01 13:00"));
  });
});
