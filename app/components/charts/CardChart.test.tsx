import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { CardChart, chartLabels, chartTexts, compactChart, type CardChartData } from "./CardChart";
import { renderCardChart } from "./render.server";
import { messages } from "~/i18n";
import { parseLabels, parseSeries } from "../../../domain/series";

const pad = (n: number) => String(n).padStart(2, "0");
/** A whole day of 1-minute readings with many digits: 1,440 points. */
const minutes = Array.from({ length: 1440 }, (_, i) => `${pad(Math.floor(i / 60))}:${pad(i % 60)}`);
const gen = minutes.map((_, i) => (Math.sin((i / 1440) * Math.PI) * 123.456789).toString());
const irr = minutes.map((_, i) => (Math.sin((i / 1440) * Math.PI) * 987.654321).toString());

describe("compact card chart series (issue 13, point 20)", () => {
  it("keeps at most one point per 10 minutes of the day, the slot's last, with values rounded to 3 digits", () => {
    const c = compactChart(minutes.join(","), { generation: gen.join(","), irradiance: irr.join(","), reference: "" });
    // Evenly spaced: sent as first minute, step and count.
    expect(c.labels).toEqual({ first: 9, step: 10, count: 144 });
    const labels = parseLabels(chartLabels(c.labels));
    expect(labels).toHaveLength(144);
    expect(labels[0]).toBe("00:09");
    expect(labels[143]).toBe("23:59");
    const g = parseSeries(c.generation);
    expect(g).toHaveLength(144);
    // 12:09 is the last minute of the 12:00 slot.
    expect(g[72]).toBe(Number(Number(gen[729]).toPrecision(3)));
    expect(c.generation.split(",").every((v) => v.replace(/[-.]/g, "").replace(/^0+/, "").length <= 3)).toBe(true);
    expect(parseSeries(c.irradiance)[72]).toBe(Number(Number(irr[729]).toPrecision(3)));
    // A series of zeros only is sent empty (it parses back as zeros).
    expect(c.reference).toBe("");
    const sent = JSON.stringify(c).length;
    expect(sent).toBeLessThan((minutes.join(",") + gen.join(",") + irr.join(",")).length / 10);
  });

  it("leaves 10-minute and hourly series as they are (apart from rounding)", () => {
    const c = compactChart("10:00,10:10,10:20", { generation: "1.23456,2,3", irradiance: "", reference: "4,5,6" });
    expect(c).toEqual({
      labels: { first: 600, step: 10, count: 3 },
      generation: "1.23,2,3",
      irradiance: "",
      reference: "4,5,6",
    });
    const h = compactChart("01:00,02:00,24:00", { generation: "1,0,3", irradiance: "7,8,9", reference: "" });
    // Not evenly spaced: the labels go as they are.
    expect(h.labels).toBe("01:00,02:00,24:00");
    expect(h.generation).toBe("1,,3");
    const day = compactChart("01:00,02:00,03:00", { generation: "1,2,3", irradiance: "", reference: "" });
    expect(chartLabels(day.labels)).toBe("01:00,02:00,03:00");
    expect(chartLabels({ first: 60, step: 60, count: 24 }).split(",").at(-1)).toBe("24:00");
  });

  it("draws the same SVG from the loader data as the server markup renderer, and that SVG carries no other data", () => {
    const t = messages("ko").pvstatus;
    for (const size of ["md", "lg", "bar"] as const) {
      const data: CardChartData = {
        size,
        title: "가람",
        capacityKw: 100,
        hasIrradiance: true,
        ...compactChart("10:00,11:00", { generation: "50,80", irradiance: "600,400", reference: "" }),
      };
      const svg = renderToStaticMarkup(<CardChart id="P1" data={data} t={t} />);
      expect(svg).toMatch(/^<svg class="pv-chart"/);
      const { size: _s, ...input } = data;
      expect(svg).toBe(
        renderCardChart(
          {
            id: "P1",
            ...input,
            labels: "10:00,11:00",
            texts: chartTexts(t),
          },
          size,
        ),
      );
    }
  });
});
