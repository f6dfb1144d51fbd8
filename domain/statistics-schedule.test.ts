import { describe, expect, it } from "vitest";
import { lastDuePeriod, nextRunAt, periodToSend } from "./statistics-schedule";
import { formatSeoul, parseSeoul } from "./seoul-time";

const at = (s: string) => parseSeoul(s)!;
const fmt = (p: { start: number; end: number }) =>
  `${formatSeoul(p.start, "YYYY-MM-DD HH:mm")} – ${formatSeoul(p.end, "YYYY-MM-DD HH:mm")}`;

describe("scheduled report due times (Asia/Seoul)", () => {
  it("daily: yesterday, from 01:00 Seoul on", () => {
    expect(fmt(lastDuePeriod("daily", at("2026-03-05 01:00")))).toBe("2026-03-04 00:00 – 2026-03-05 00:00");
    expect(fmt(lastDuePeriod("daily", at("2026-03-05 23:59")))).toBe("2026-03-04 00:00 – 2026-03-05 00:00");
    // Before 01:00 the day before yesterday is still the latest due one.
    expect(fmt(lastDuePeriod("daily", at("2026-03-05 00:59")))).toBe("2026-03-03 00:00 – 2026-03-04 00:00");
    expect(formatSeoul(nextRunAt("daily", at("2026-03-05 00:59")), "YYYY-MM-DD HH:mm")).toBe("2026-03-05 01:00");
    expect(formatSeoul(nextRunAt("daily", at("2026-03-05 01:00")), "YYYY-MM-DD HH:mm")).toBe("2026-03-06 01:00");
  });
  it("weekly: the week before, Monday to Sunday, due Monday 01:00", () => {
    // 2026-03-09 is a Monday.
    expect(fmt(lastDuePeriod("weekly", at("2026-03-09 01:00")))).toBe("2026-03-02 00:00 – 2026-03-09 00:00");
    expect(fmt(lastDuePeriod("weekly", at("2026-03-09 00:30")))).toBe("2026-02-23 00:00 – 2026-03-02 00:00");
    expect(fmt(lastDuePeriod("weekly", at("2026-03-15 23:00")))).toBe("2026-03-02 00:00 – 2026-03-09 00:00");
    expect(formatSeoul(nextRunAt("weekly", at("2026-03-11 12:00")), "YYYY-MM-DD HH:mm")).toBe("2026-03-16 01:00");
  });
  it("monthly: the month before by the Seoul calendar, also across a year and February", () => {
    expect(fmt(lastDuePeriod("monthly", at("2026-03-01 01:00")))).toBe("2026-02-01 00:00 – 2026-03-01 00:00");
    expect(fmt(lastDuePeriod("monthly", at("2026-01-01 01:00")))).toBe("2025-12-01 00:00 – 2026-01-01 00:00");
    expect(fmt(lastDuePeriod("monthly", at("2026-01-01 00:10")))).toBe("2025-11-01 00:00 – 2025-12-01 00:00");
    expect(formatSeoul(nextRunAt("monthly", at("2026-01-31 23:00")), "YYYY-MM-DD HH:mm")).toBe("2026-02-01 01:00");
    // 09:00 KST is midnight UTC: the UTC calendar must not leak in.
    expect(fmt(lastDuePeriod("monthly", at("2026-04-01 08:00")))).toBe("2026-03-01 00:00 – 2026-04-01 00:00");
  });
  it("sends each period once", () => {
    const now = at("2026-03-05 06:00");
    const due = periodToSend("daily", null, now)!;
    expect(fmt(due)).toBe("2026-03-04 00:00 – 2026-03-05 00:00");
    expect(periodToSend("daily", due.start, now)).toBeNull();
    expect(periodToSend("daily", due.start, at("2026-03-06 01:00"))?.start).toBe(at("2026-03-05"));
    // An older remembered period (the server was down for days): only the latest due period is sent.
    expect(periodToSend("daily", at("2026-03-01"), now)?.start).toBe(due.start);
  });
});
