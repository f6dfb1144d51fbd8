import { describe, expect, it } from "vitest";
import { decodeFaultRegister, parseFaultHex } from "./fault-register";

const table = [
  { code: 8, hex: "0x0008", name_ko: "계통 과전압", name_en: "Grid overvoltage", level: 2 },
  { code: 128, hex: "0x0080", name_ko: "절연 저항 이상", name_en: "Insulation resistance fault", level: 3 },
];

describe("fault register", () => {
  it("parses hex with and without 0x, and decimal", () => {
    expect(parseFaultHex("0x0088")).toBe(136);
    expect(parseFaultHex("0088")).toBe(136);
    expect(parseFaultHex("136")).toBe(136);
    expect(parseFaultHex("zz")).toBeNull();
    expect(parseFaultHex("")).toBeNull();
  });

  it("decodes every set bit, known or not", () => {
    expect(decodeFaultRegister(136, table).map((r) => r.name_en)).toEqual(["Grid overvoltage", "Insulation resistance fault"]);
    const unknown = decodeFaultRegister(0x0200, table);
    expect(unknown).toEqual([{ code: 512, hex: "0x0200", name_ko: "", name_en: "", level: 3 }]);
    expect(decodeFaultRegister(0, table)).toEqual([]);
  });
});
