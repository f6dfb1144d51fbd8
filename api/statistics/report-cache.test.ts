import { describe, expect, it } from "vitest";
import { JsonText } from "../http";
import { REPORT_CHANNEL, ReportCache, type ClusterNotices } from "./report-cache";

const DAY = 86_400_000;
const entry = (text: string, devices: string[], from: number, to: number) => ({
  text: new JsonText(text),
  devices: new Set(devices),
  from,
  to,
});

/** Two servers' notices through one in-memory channel (as PostgreSQL LISTEN/NOTIFY delivers them: to every server). */
function channel() {
  const listeners: Array<(p: string) => void> = [];
  const resyncs: Array<() => void> = [];
  const sent: string[] = [];
  const notices: ClusterNotices = {
    listening: () => true,
    on: (c, fn) => {
      expect(c).toBe(REPORT_CHANNEL);
      listeners.push(fn);
    },
    send: async (_c, payload) => {
      sent.push(payload);
      for (const l of listeners) l(payload);
    },
    onResync: (fn) => resyncs.push(fn),
  };
  return { notices, sent, resync: () => resyncs.forEach((r) => r()) };
}

describe("report answer cache", () => {
  it("keeps an answer until a change of one of its devices inside its period", () => {
    const cache = new ReportCache({ maxBytes: 1 << 20, ttlMs: 60_000 });
    cache.put("a", cache.begin(), entry('{"a":1}', ["inv1", "inv2"], 10 * DAY, 20 * DAY));
    expect(cache.get("a")?.body.toString()).toBe('{"a":1}');
    // Another device, or the same device outside the period: kept.
    cache.changed({ devices: ["inv3"], from: 12 * DAY, to: 12 * DAY + 1 });
    cache.changed({ devices: ["inv1"], from: 20 * DAY, to: 21 * DAY });
    cache.changed({ devices: ["inv1"], from: 9 * DAY, to: 10 * DAY });
    expect(cache.get("a")).toBeDefined();
    // Late data of inv2 inside the period: gone.
    cache.changed({ devices: ["inv2"], from: 15 * DAY, to: 15 * DAY + 1 });
    expect(cache.get("a")).toBeUndefined();
    // A change of any device (a bulk rebuild) inside the period drops it too.
    cache.put("b", cache.begin(), entry("{}", ["inv1"], 0, DAY));
    cache.changed({ from: DAY - 1, to: DAY });
    expect(cache.get("b")).toBeUndefined();
  });

  it("does not keep an answer computed while an overlapping change committed", () => {
    const cache = new ReportCache({ maxBytes: 1 << 20, ttlMs: 60_000 });
    const since = cache.begin();
    cache.changed({ devices: ["inv1"], from: 5, to: 6 });
    cache.put("late", since, entry("{}", ["inv1"], 0, 10));
    expect(cache.get("late")).toBeUndefined();
    // A change elsewhere meanwhile does not stop it.
    const since2 = cache.begin();
    cache.changed({ devices: ["inv9"], from: 5, to: 6 });
    cache.put("kept", since2, entry("{}", ["inv1"], 0, 10));
    expect(cache.get("kept")).toBeDefined();
  });

  it("holds at most its bytes, dropping the least recently used", () => {
    const cache = new ReportCache({ maxBytes: 40_000, ttlMs: 60_000 });
    const big = "x".repeat(9_000);
    for (let i = 0; i < 10; i++) cache.put(`k${i}`, cache.begin(), entry(big, ["d"], 0, 1));
    expect(cache.size).toBeLessThanOrEqual(4);
    expect(cache.get("k9")).toBeDefined();
    expect(cache.get("k0")).toBeUndefined();
  });

  it("drops on every server of a cluster what a change on one of them touches", async () => {
    const { notices, sent, resync } = channel();
    const a = new ReportCache({ maxBytes: 1 << 20, ttlMs: 60_000 });
    const b = new ReportCache({ maxBytes: 1 << 20, ttlMs: 60_000 });
    a.share(notices);
    b.share(notices);
    b.put("r", b.begin(), entry("{}", ["inv1"], 0, 10 * DAY));
    b.put("s", b.begin(), entry("{}", ["inv2"], 0, 10 * DAY));
    a.changed({ devices: ["inv1"], from: DAY, to: DAY + 1 });
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(1);
    expect(b.get("r")).toBeUndefined();
    expect(b.get("s")).toBeDefined();
    // An open-ended change (retention: everything before a cutoff) travels too.
    a.changed({ from: -Infinity, to: DAY });
    await new Promise((r) => setImmediate(r));
    expect(b.get("s")).toBeUndefined();
    // Notices possibly missed: everything goes.
    b.put("t", b.begin(), entry("{}", ["inv3"], 0, 10 * DAY));
    resync();
    expect(b.get("t")).toBeUndefined();
  });
});
