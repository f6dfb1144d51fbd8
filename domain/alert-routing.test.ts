import { describe, expect, it } from "vitest";
import { DEFAULT_ALERT_PREF, type AlertPrefView } from "./alert-policy";
import { routeAlert, type AlertRoute, type RoutedAlarm } from "./alert-routing";

// 2026-11-28 23:00 Seoul (14:00 UTC): inside quiet hours 22:00–07:00, which end 2026-11-29 07:00 Seoul.
const NIGHT = Date.UTC(2026, 10, 28, 14, 0);
const QUIET_END = Date.UTC(2026, 10, 28, 22, 0);
const NOON = Date.UTC(2026, 10, 28, 3, 0);
const pref: AlertPrefView = {
  ...DEFAULT_ALERT_PREF,
  minLevel: 2,
  webhookUrl: "https://hook.example.kr/x",
  quietFrom: 22 * 60,
  quietTo: 7 * 60,
};
const alarm = (over: Partial<RoutedAlarm> = {}): RoutedAlarm => ({
  plant_uid: "A",
  groupPath: [5, 1],
  level: 3,
  code: 1000006,
  ...over,
});
const route = (over: Partial<AlertRoute> = {}): AlertRoute => ({
  plant: null,
  group: null,
  minLevel: 1,
  codes: null,
  mail: true,
  webhook: false,
  ...over,
});
const to = (p: ReturnType<typeof routeAlert>) => p.channels.map((c) => c.channel);

describe("routeAlert", () => {
  it("without routes: the preferences' minimum level and channels", () => {
    expect(to(routeAlert(pref, [], "a@x.kr", alarm({ level: 2 }), NOON))).toEqual(["mail"]);
    expect(to(routeAlert(pref, [], "a@x.kr", alarm({ level: 1 }), NOON))).toEqual([]);
    expect(to(routeAlert(pref, [], null, alarm(), NOON))).toEqual([]);
  });

  it("a plant route: that plant's alarms only", () => {
    const routes = [route({ plant: "A" })];
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm(), NOON))).toEqual(["mail"]);
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ plant_uid: "B", groupPath: [6, 1] }), NOON))).toEqual([]);
  });

  it("a group route covers the plants on its subtree; minimum level and codes narrow it", () => {
    const routes = [route({ group: 5, minLevel: 3, codes: [1000006, 1000001] })];
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm(), NOON))).toEqual(["mail"]);
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ groupPath: [6, 1] }), NOON))).toEqual([]);
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ level: 2 }), NOON))).toEqual([]);
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ code: 1000003 }), NOON))).toEqual([]);
  });

  it("channels are the matching routes' together", () => {
    const routes = [route({ plant: "A", mail: true }), route({ group: 1, minLevel: 4, mail: false, webhook: true })];
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ level: 3 }), NOON))).toEqual(["mail"]);
    expect(to(routeAlert(pref, routes, "a@x.kr", alarm({ level: 4 }), NOON))).toEqual(["mail", "webhook"]);
    expect(routeAlert(pref, routes, "a@x.kr", alarm({ level: 4 }), NOON).channels[1]).toEqual({
      channel: "webhook",
      to: "https://hook.example.kr/x",
    });
  });

  it("quiet hours hold levels 1–3 until they end; level 4 goes at once", () => {
    expect(routeAlert(pref, [], "a@x.kr", alarm({ level: 2 }), NIGHT).notBefore).toBe(QUIET_END);
    expect(routeAlert(pref, [], "a@x.kr", alarm({ level: 3 }), NIGHT).notBefore).toBe(QUIET_END);
    expect(routeAlert(pref, [], "a@x.kr", alarm({ level: 4 }), NIGHT).notBefore).toBe(NIGHT);
    expect(routeAlert(pref, [], "a@x.kr", alarm({ level: 2 }), NOON).notBefore).toBe(NOON);
  });

  it("the daily digest replaces immediate alerts below level 4, not severe ones", () => {
    const digest = { ...pref, digest: true };
    expect(to(routeAlert(digest, [], "a@x.kr", alarm({ level: 3 }), NOON))).toEqual([]);
    expect(to(routeAlert(digest, [], "a@x.kr", alarm({ level: 4 }), NOON))).toEqual(["mail"]);
  });
});
