import { describe, expect, it } from "vitest";
import { renderCardChart, type ChartInput } from "./render.server";

const input: ChartInput = {
  id: "P1",
  title: "가람",
  labels: "10:00,11:00",
  generation: "50,80",
  irradiance: "600,400",
  reference: "",
  capacityKw: 100,
  hasIrradiance: true,
  texts: {
    kw: "kW",
    irr: "W/m²",
    generation: "발전량",
    irradiance: "일사량",
    reference: "기준",
    noData: "-",
    noGeneration: "-",
    hour: "시",
    genTime: "발전 시간",
    hours: "h",
  },
};

/** The rects of one class as { x, y, h }. */
function rects(svg: string, cls: string): Array<{ x: number; y: number; h: number }> {
  return [...svg.matchAll(new RegExp(`<rect[^>]*class="[^"]*${cls}[^"]*"[^>]*>`, "g"))].map(([tag]) => ({
    x: Number(/ x="([\d.]+)"/.exec(tag)![1]),
    y: Number(/ y="([\d.]+)"/.exec(tag)![1]),
    h: Number(/ height="([\d.]+)"/.exec(tag)![1]),
  }));
}

describe("stacked bar card chart (SPEC §2, issue 13.13)", () => {
  it("stacks the hour's irradiance on its generation time, one bar per hour, on an axis in hours", () => {
    const svg = renderCardChart(input, "bar");
    const gen = rects(svg, "series-gen");
    const irr = rects(svg, "series-irr");
    expect(gen).toHaveLength(2);
    expect(irr).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      // Same column, irradiance sitting on top of generation (not side by side).
      expect(irr[i]!.x).toBe(gen[i]!.x);
      expect(irr[i]!.y + irr[i]!.h).toBeCloseTo(gen[i]!.y, 0);
    }
    // 0.5 h of generation and 0.6 sun hours at 10:00; 0.8 h and 0.4 at 11:00 (axis 0..2 h).
    expect(gen[0]!.h / irr[0]!.h).toBeCloseTo(0.5 / 0.6, 1);
    expect(svg).toContain("10:00 발전 시간 0.50 h (50.0 kWh)");
    expect(svg).toContain("10:00 일사량 0.60 h (600 W/m²)");
    // Irradiance is hatched, not told by colour alone.
    expect(svg).toMatch(/<pattern id="hatch-P1"/);
  });
  it("draws only generation time without irradiance", () => {
    const svg = renderCardChart({ ...input, hasIrradiance: false }, "bar");
    expect(rects(svg, "series-gen")).toHaveLength(2);
    expect(rects(svg, "series-irr")).toHaveLength(0);
  });
});
