import { describe, expect, it } from "vitest";
import { messages } from "~/i18n";
import { engineMessage } from "./labels";

const ko = messages("ko");
const en = messages("en");

describe("alarm engine messages from the catalogue", () => {
  it("render each shape the engine stores (domain/alarm-rules.ts) in the user's language", () => {
    const silent = `RTU R1 silent since ${new Date(Date.UTC(2026, 10, 26, 3, 4)).toISOString()}`;
    expect(engineMessage(ko, silent)).toBe("RTU R1: 2026-11-26 12:04 이후 수신 없음");
    expect(engineMessage(en, silent)).toBe("RTU R1: nothing received since 2026-11-26 12:04");
    expect(engineMessage(ko, "device INV-2 not answering")).toBe("장비 INV-2 응답 없음");
    expect(engineMessage(ko, "fault 0x1A")).toBe("고장 코드 0x1A");
    expect(engineMessage(ko, "2.0 kW is 3 % of the reference 69.6 kW")).toBe("2.0 kW, 기준 69.6 kW의 3%");
    expect(engineMessage(en, "2.0 kW is 3 % of the reference 69.6 kW")).toBe("2.0 kW is 3% of the reference 69.6 kW");
    expect(engineMessage(ko, "plant-wide: all 2 inverters (device I1 not answering)")).toBe(
      "발전소 전체: 인버터 2대 모두 (장비 I1 응답 없음)",
    );
  });

  it("show nothing rather than stored text of another shape", () => {
    expect(engineMessage(ko, "Grid overvoltage, DC fault")).toBeUndefined();
    expect(engineMessage(ko, null)).toBeUndefined();
    expect(engineMessage(ko, "plant-wide: all 2 RTUs (something else)")).toBe("발전소 전체: RTU 2대 모두");
  });
});
