import { describe, expect, it } from "vitest";
import {
  ALARM_MESSAGE_WORDS,
  AlarmMessageSchema,
  faultBitNames,
  parseLegacyAlarmMessage,
  renderAlarmMessage,
  storedAlarmMessage,
  checkedAlarmMessage,
  type AlarmMessage,
} from "./alarm-message";

const TABLE = [
  { code: 0, name: "정상" },
  { code: 2, name: "계통 과전압" },
  { code: 8, name: "DC 과전류" },
];

describe("parseLegacyAlarmMessage: the engine's old English sentences as code and parameters", () => {
  it("reads every template the engine wrote", () => {
    const since = Date.UTC(2026, 10, 26, 3, 4, 5, 6);
    expect(parseLegacyAlarmMessage(`RTU R1 silent since ${new Date(since).toISOString()}`, { faultCode: null })).toEqual({
      code: "rtu_silent",
      params: { rtu: "R1", since },
    });
    expect(parseLegacyAlarmMessage("device INV-2 not answering", { faultCode: null })).toEqual({
      code: "device_silent",
      params: { device: "INV-2" },
    });
    expect(parseLegacyAlarmMessage("fault 0x1A", { faultCode: 26 })).toEqual({
      code: "inverter_fault",
      params: { faultCode: 26 },
    });
    expect(parseLegacyAlarmMessage("2.0 kW is 3 % of the reference 69.6 kW", { faultCode: null })).toEqual({
      code: "low_generation",
      params: { actualKw: 2, ratio: 3, referenceKw: 69.6 },
    });
    expect(parseLegacyAlarmMessage("plant-wide: all 3 inverters (device I1 not answering)", { faultCode: null })).toEqual({
      code: "plant_wide",
      params: { of: "inverters", count: 3, detail: { code: "device_silent", params: { device: "I1" } } },
    });
  });

  it("turns the Korean fault names it wrote into the fault code only when they are that code's names", () => {
    expect(parseLegacyAlarmMessage("계통 과전압, DC 과전류", { faultCode: 10 }, TABLE)).toEqual({
      code: "inverter_fault",
      params: { faultCode: 10 },
    });
    expect(parseLegacyAlarmMessage("계통 과전압", { faultCode: 10 }, TABLE)).toEqual({
      code: "text",
      params: { text: "계통 과전압" },
    });
  });

  it("keeps any other text verbatim", () => {
    for (const text of ["fixture", "", "RTU R1 silent since yesterday", "plant-wide: all 2 RTUs (something else)"]) {
      const m = parseLegacyAlarmMessage(text, { faultCode: null }, TABLE);
      expect(
        renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, m).endsWith(
          text === "plant-wide: all 2 RTUs (something else)" ? "(something else)" : text,
        ),
      ).toBe(true);
    }
    expect(parseLegacyAlarmMessage("fixture", { faultCode: 2 }, TABLE)).toEqual({ code: "text", params: { text: "fixture" } });
  });
});

describe("renderAlarmMessage", () => {
  const msgs: AlarmMessage[] = [
    { code: "rtu_silent", params: { rtu: "R1", since: Date.UTC(2026, 10, 26, 15, 30) } },
    { code: "device_silent", params: { device: "D1" } },
    { code: "inverter_fault", params: { faultCode: 10 } },
    { code: "low_generation", params: { actualKw: 1.25, referenceKw: 40, ratio: 3.1 } },
    { code: "plant_wide", params: { of: "rtus", count: 2, detail: { code: "rtu_silent", params: { rtu: "R1", since: 0 } } } },
  ];
  it("fills every placeholder in both languages (Seoul time, one decimal kW, whole percent)", () => {
    for (const locale of ["ko", "en"] as const)
      for (const m of msgs) expect(renderAlarmMessage(ALARM_MESSAGE_WORDS[locale], m)).not.toMatch(/[{}]/);
    expect(renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, msgs[0]!)).toBe("RTU R1: 2026-11-27 00:30 이후 수신 없음");
    expect(renderAlarmMessage(ALARM_MESSAGE_WORDS.en, msgs[3]!)).toBe("1.3 kW is 3% of the reference 40.0 kW");
  });
  it("names a fault's bits when given the table", () => {
    const names = (code: number) => faultBitNames(TABLE, code);
    expect(names(10)).toEqual(["계통 과전압", "DC 과전류"]);
    expect(renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, msgs[2]!, names)).toBe("계통 과전압, DC 과전류 (고장 코드 0xA)");
    expect(renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, msgs[2]!)).toBe("고장 코드 0xA");
  });
});

describe("storedAlarmMessage", () => {
  it("reads a stored code with its JSON parameters, and a row without a code (or with broken parameters) as its text", () => {
    const m: AlarmMessage = { code: "device_silent", params: { device: "D1" } };
    expect(storedAlarmMessage(m.code, JSON.stringify(m.params), "")).toEqual(m);
    expect(storedAlarmMessage(null, null, "bench")).toEqual({ code: "text", params: { text: "bench" } });
    expect(storedAlarmMessage("device_silent", "{not json", "x")).toEqual({ code: "text", params: { text: "x" } });
    expect(storedAlarmMessage("nope", "{}", "x")).toEqual({ code: "text", params: { text: "x" } });
    expect(AlarmMessageSchema.safeParse({ code: "nope", params: {} }).success).toBe(false);
  });

  it("checks a message against the schema once, when it is written: parameters that do not fit the code are refused", () => {
    const m: AlarmMessage = { code: "device_silent", params: { device: "D1" } };
    expect(checkedAlarmMessage(m)).toEqual(m);
    expect(() => checkedAlarmMessage({ code: "device_silent", params: { rtu: 1 } } as unknown as AlarmMessage)).toThrow();
  });
});
