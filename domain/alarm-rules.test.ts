import { describe, expect, it } from "vitest";
import { ALARM_MESSAGE_WORDS, faultBitNames, renderAlarmMessage } from "./alarm-message";
import { ALARM_SETTING_DEFAULTS } from "./settings";
import {
  alarmKey,
  applyRaiseDelay,
  awakeSince,
  evaluateAlarms,
  type DeviceView,
  type PlantView,
  type RtuView,
} from "./alarm-rules";
import { sunPosition } from "./sun";

const now = 1_800_000_000_000;
const min = 60_000;
const plant = (over: Partial<PlantView> = {}): PlantView => ({
  uid: "P",
  capa: 10_000,
  sunElevationDeg: 45,
  awakeSince: now - 8 * 60 * min,
  ...over,
});
const rtu = (over: Partial<RtuView> = {}): RtuView => ({ uid: "R", plant_uid: "P", last_seen_at: now - min, ...over });
const dev = (uid: string, kind: number, over: Partial<DeviceView> = {}): DeviceView => ({
  uid,
  kind,
  rtu_uid: "R",
  plant_uid: "P",
  capa: 5_000,
  latestTs: now - 5 * min,
  iw: 40_000,
  fault_code: 0,
  iis: null,
  his: null,
  sts: null,
  ...over,
});
const sensor = (over: Partial<DeviceView> = {}) => dev("E", 4, { iw: null, iis: 800, his: 700, sts: 25, ...over });
const FAULT_TABLE = [
  { code: 8, name: "계통 과전압", level: 2 },
  { code: 512, name: "DC 지락", level: 4 },
];
const run = (input: { plants?: PlantView[]; rtus?: RtuView[]; devices: DeviceView[]; open?: string[] }) =>
  evaluateAlarms({
    now,
    settings: ALARM_SETTING_DEFAULTS,
    plants: input.plants ?? [plant()],
    rtus: input.rtus ?? [rtu()],
    devices: input.devices,
    faultNames: FAULT_TABLE,
    openLowGeneration: new Set(input.open ?? []),
  });
const codes = (e: ReturnType<typeof run>) => e.wanted.map((w) => `${w.code}:${w.device_uid ?? w.rtu_uid ?? w.plant_uid}`).sort();

describe("alarm rules", () => {
  it("wants nothing for a healthy plant in the sun", () => {
    expect(codes(run({ devices: [sensor(), dev("I1", 1), dev("I2", 1)] }))).toEqual([]);
  });

  it("1000003 after the configured number of silent intervals, not before; never for an RTU that never reported", () => {
    expect(codes(run({ rtus: [rtu({ last_seen_at: now - 29 * min })], devices: [sensor()] }))).toEqual([]);
    expect(codes(run({ rtus: [rtu({ last_seen_at: now - 31 * min })], devices: [sensor()] }))).toEqual(["1000003:R"]);
    expect(codes(run({ rtus: [rtu({ last_seen_at: null })], devices: [] }))).toEqual([]);
  });

  it("an RTU of inverters only is not disconnected at night: its silence counts from the morning", () => {
    // Last heard at sunset with its inverter at 200 W; in the dark it is judged neither way (an alarm raised by day
    // stays open).
    const sunset = rtu({ last_seen_at: now - 10 * 60 * min });
    const dusk = dev("I1", 1, { iw: 200 });
    const dark = plant({ sunElevationDeg: -20, awakeSince: null });
    const night = run({ plants: [dark], rtus: [sunset], devices: [dusk] });
    expect(codes(night)).toEqual([]);
    expect(night.undecided.has(alarmKey(1000003, "P", "R"))).toBe(true);
    // Morning: the inverters have been awake for 20 minutes, within the 30 allowed; then for 40.
    const morning = (awakeMin: number) =>
      codes(run({ plants: [plant({ awakeSince: now - awakeMin * min })], rtus: [sunset], devices: [dusk, dev("B1", 2)] }));
    expect(morning(20)).toEqual([]);
    expect(morning(40)).toEqual(["1000003:R"]);
    // One that fell silent while its inverter produced 40 kW, or that also carries a sensor (which answers day and
    // night), is judged by the clock alone.
    expect(codes(run({ plants: [dark], rtus: [sunset], devices: [dev("I1", 1)] }))).toEqual(["1000003:R"]);
    expect(codes(run({ plants: [dark], rtus: [sunset], devices: [dusk, sensor()] }))).toEqual(["1000003:R"]);
    // A sibling that had stopped answering in the afternoon (its own alarm) does not keep the RTU awake.
    const lostEarlier = dev("I2", 1, { iw: 40_000, latestTs: now - 12 * 60 * min });
    const sunsetReport = dev("I1", 1, { iw: 200, latestTs: now - 10 * 60 * min });
    expect(codes(run({ plants: [dark], rtus: [sunset], devices: [sunsetReport, lostEarlier] }))).toEqual([]);
  });

  it("awakeSince finds the morning's crossing of the awake elevation to the minute, null below it", () => {
    const seoul = { lat: 37.57, lng: 126.98 };
    const noon = Date.parse("2026-11-26T03:00:00Z"); // 12:00 KST
    const since = awakeSince(noon, seoul.lat, seoul.lng)!;
    expect(sunPosition(since, seoul.lat, seoul.lng).elevationDeg).toBeGreaterThanOrEqual(15);
    expect(sunPosition(since - 60_000, seoul.lat, seoul.lng).elevationDeg).toBeLessThan(15);
    expect(since).toBeGreaterThan(Date.parse("2026-11-25T23:30:00Z"));
    expect(awakeSince(Date.parse("2026-11-26T12:00:00Z"), seoul.lat, seoul.lng)).toBeNull(); // 21:00 KST
  });

  it("leaves device alarms undecided while the RTU itself is silent", () => {
    const e = run({
      rtus: [rtu({ last_seen_at: now - 2 * 60 * min })],
      devices: [sensor({ latestTs: now - 2 * 60 * min }), dev("I1", 1)],
    });
    expect(codes(e)).toEqual(["1000003:R"]);
    expect(e.undecided.has(alarmKey(1000001, "P", "I1"))).toBe(true);
  });

  it("1000001 for a device silent while its RTU reports; inverters asleep in the dark are not silent", () => {
    const silent = dev("I2", 1, { latestTs: now - 45 * min });
    expect(codes(run({ devices: [sensor({ latestTs: now - min }), dev("I1", 1, { latestTs: now - min }), silent] }))).toEqual([
      "1000001:I2",
    ]);
    const dusk = run({
      devices: [sensor({ latestTs: now - min, iis: 10 }), dev("I1", 1, { latestTs: now - 3 * 60 * min }), silent],
    });
    expect(codes(dusk)).toEqual([]);
    // A silent sensor is a fault whatever the light.
    expect(
      codes(
        run({
          plants: [plant({ sunElevationDeg: -30 })],
          devices: [dev("V", 7, { latestTs: now - min }), sensor({ latestTs: now - 60 * min })],
        }),
      ),
    ).toEqual(["1000001:E"]);
  });

  it("1000006 names the faults of every set bit and takes the highest level", () => {
    const e = run({ devices: [sensor(), dev("I1", 1, { fault_code: 8 | 512, iw: 0 })] });
    const fault = e.wanted.find((w) => w.code === 1000006)!;
    expect(fault).toMatchObject({
      device_uid: "I1",
      level: 4,
      fault_code: 520,
      message: { code: "inverter_fault", params: { faultCode: 520 } },
    });
    // The message names the faults of every set bit when shown with the fault-code table.
    const names = (code: number) => faultBitNames(FAULT_TABLE, code);
    expect(renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, fault.message, names)).toBe("계통 과전압, DC 지락 (고장 코드 0x208)");
    expect(e.wanted.find((w) => w.code === 1000004)).toBeUndefined();
  });

  it("1000004 below half the reference, released only above 70 % (hysteresis), judged only in light", () => {
    // Reference: 50 kW × 0.8 × 0.87 = 34.8 kW.
    const at = (iw: number, open = false, over: Partial<PlantView> = {}) =>
      codes(
        run({
          plants: [plant(over)],
          devices: [sensor(), dev("I1", 1, { iw })],
          open: open ? [alarmKey(1000004, "P", "I1")] : [],
        }),
      );
    expect(at(17_000)).toEqual(["1000004:I1"]);
    expect(at(18_000)).toEqual([]);
    expect(at(24_000, true)).toEqual(["1000004:I1"]);
    expect(at(24_500, true)).toEqual([]);
    expect(at(0, false, { sunElevationDeg: -5 })).toEqual([]);
    const dim = run({ devices: [sensor({ iis: 100 }), dev("I1", 1, { iw: 0 })], open: [alarmKey(1000004, "P", "I1")] });
    expect(dim.undecided.has(alarmKey(1000004, "P", "I1"))).toBe(true);
  });

  it("corrects the reference for module temperature", () => {
    // At 65 °C the reference drops by 16.6 %: 34.8 × 0.834 = 29.0 kW, so 15 kW is no longer below half.
    expect(codes(run({ devices: [sensor({ sts: 65 }), dev("I1", 1, { iw: 15_000 })] }))).toEqual([]);
    expect(codes(run({ devices: [sensor({ sts: 25 }), dev("I1", 1, { iw: 15_000 })] }))).toEqual(["1000004:I1"]);
  });

  it("one plant alarm when every inverter of a plant has the same alarm", () => {
    const silent = { latestTs: now - 45 * min };
    const all = run({ devices: [sensor({ latestTs: now - min }), dev("I1", 1, silent), dev("I2", 1, silent)] });
    expect(all.wanted).toHaveLength(1);
    expect(all.wanted[0]).toMatchObject({
      key: alarmKey(1000001, "P", null),
      device_uid: null,
      rtu_uid: null,
      code: 1000001,
      level: 3,
    });
    // Breaker tripped: every inverter at zero in full sun → one plant-wide low-generation alarm.
    const tripped = run({ devices: [sensor(), dev("I1", 1, { iw: 0 }), dev("I2", 1, { iw: 0 })] });
    expect(codes(tripped)).toEqual(["1000004:P"]);
    // One of two: per device.
    expect(codes(run({ devices: [sensor(), dev("I1", 1, { iw: 0 }), dev("I2", 1)] }))).toEqual(["1000004:I1"]);
    // Every RTU of a plant silent → one plant alarm; undecided device alarms make the plant key undecided too.
    const rtus = [rtu({ uid: "R", last_seen_at: now - 120 * min }), rtu({ uid: "R2", last_seen_at: now - 120 * min })];
    const dark = run({ rtus, devices: [sensor({ latestTs: now - 120 * min }), dev("I1", 1), dev("I2", 1, { rtu_uid: "R2" })] });
    expect(codes(dark)).toEqual(["1000003:P"]);
    expect(dark.undecided.has(alarmKey(1000001, "P", null))).toBe(true);
  });

  it("counts production alarms only between sunrise and sunset", () => {
    expect(codes(run({ plants: [plant({ sunElevationDeg: 2 })], devices: [sensor(), dev("I1", 1, { iw: 0 })] }))).toEqual([
      "1000004:I1",
    ]);
    expect(codes(run({ plants: [plant({ sunElevationDeg: -1 })], devices: [sensor(), dev("I1", 1, { iw: 0 })] }))).toEqual([]);
  });
});

describe("raise delay", () => {
  it("an incident becomes due after the delay; one that goes away starts over", () => {
    const d = 10 * min;
    const first = applyRaiseDelay(["a"], new Set(), new Map(), now, d);
    expect([...first.due]).toEqual([]);
    expect(first.incidents.get("a")).toBe(now);
    const later = applyRaiseDelay(["a"], new Set(), first.incidents, now + d, d);
    expect([...later.due]).toEqual(["a"]);
    const gone = applyRaiseDelay([], new Set(), first.incidents, now + min, d);
    expect(gone.incidents.size).toBe(0);
    expect([...applyRaiseDelay(["a"], new Set(), new Map(), now, 0).due]).toEqual(["a"]);
    expect([...applyRaiseDelay(["a"], new Set(["a"]), new Map(), now, 0).due]).toEqual([]);
  });
});
