import { describe, expect, it } from "vitest";
import { messages } from "~/i18n";
import type { AlarmMessage } from "../../../domain/alarm-message";
import { engineMessage } from "./labels";

const ko = messages("ko");
const en = messages("en");
const row = (m: AlarmMessage) => ({ messageCode: m.code, messageParams: m.params });

describe("alarm engine messages from the catalogue", () => {
  it("render each code the engine stores (domain/alarm-rules.ts) in the user's language", () => {
    const silent = row({ code: "rtu_silent", params: { rtu: "R1", since: Date.UTC(2026, 10, 26, 3, 4) } });
    expect(engineMessage(ko, silent)).toBe("RTU R1: 2026-11-26 12:04 이후 수신 없음");
    expect(engineMessage(en, silent)).toBe("RTU R1: nothing received since 2026-11-26 12:04");
    expect(engineMessage(ko, row({ code: "device_silent", params: { device: "INV-2" } }))).toBe("장비 INV-2 응답 없음");
    expect(engineMessage(ko, row({ code: "inverter_fault", params: { faultCode: 0x1a } }))).toBe("고장 코드 0x1A");
    expect(engineMessage(en, row({ code: "inverter_fault", params: { faultCode: 0x1a } }), () => ["Grid overvoltage"])).toBe(
      "Grid overvoltage (fault code 0x1A)",
    );
    const low = row({ code: "low_generation", params: { actualKw: 2, referenceKw: 69.6, ratio: 3 } });
    expect(engineMessage(ko, low)).toBe("2.0 kW, 기준 69.6 kW의 3%");
    expect(engineMessage(en, low)).toBe("2.0 kW is 3% of the reference 69.6 kW");
    const whole = row({
      code: "plant_wide",
      params: { of: "inverters", count: 2, detail: { code: "device_silent", params: { device: "I1" } } },
    });
    expect(engineMessage(ko, whole)).toBe("발전소 전체: 인버터 2대 모두 (장비 I1 응답 없음)");
  });

  it("name a device the way the screens do, not by its uid (issue 26: '장비 D000143 응답 없음')", () => {
    const silent = {
      ...row({ code: "device_silent", params: { device: "D000143" } }),
      device_uid: "D000143",
      deviceName: "인버터 3",
    };
    expect(engineMessage(ko, silent)).toBe("장비 인버터 3 응답 없음");
    expect(engineMessage(en, silent)).toBe("Device 인버터 3 not answering");
    // The detail window names the devices of a plant-wide alarm from its device list.
    const whole = row({
      code: "plant_wide",
      params: { of: "inverters", count: 2, detail: { code: "device_silent", params: { device: "D000143" } } },
    });
    const names = new Map([["D000143", "인버터 3"]]);
    expect(engineMessage(ko, whole, undefined, (uid) => names.get(uid))).toBe(
      "발전소 전체: 인버터 2대 모두 (장비 인버터 3 응답 없음)",
    );
  });

  it("show a text of no known shape as it is", () => {
    expect(engineMessage(ko, row({ code: "text", params: { text: "Grid overvoltage, DC fault" } }))).toBe(
      "Grid overvoltage, DC fault",
    );
    expect(engineMessage(ko, row({ code: "text", params: { text: "" } }))).toBeUndefined();
    expect(
      engineMessage(
        ko,
        row({ code: "plant_wide", params: { of: "rtus", count: 2, detail: { code: "text", params: { text: "" } } } }),
      ),
    ).toBe("발전소 전체: RTU 2대 모두");
  });
});
