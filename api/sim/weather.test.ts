import { describe, expect, it } from "vitest";
import { civilFromDays, kstDayIndex, kstDayStartMs, STEP_MS, HOUR_MS } from "./time";
import { LocalityWeather, MAX_CLEARNESS, MIN_CLEARNESS, clearnessOf, localitySeed, weatherAt } from "./weather";

const LOCALITIES = [
  "서울특별시",
  "경기도 화성시",
  "충청남도 당진시",
  "전라남도 해남군",
  "경상북도 상주시",
  "강원도 횡성군",
  "전라북도 김제시",
  "경상남도 밀양시",
];
const dayOf = (y: number, m: number, d: number) => kstDayIndex(Date.UTC(y, m - 1, d, 3));

describe("LocalityWeather", () => {
  it("is deterministic: same locality and time → same weather, from fresh instances and any query order", () => {
    const a = new LocalityWeather(localitySeed("전라남도 해남군"), 34.57, 126.6);
    const b = new LocalityWeather(localitySeed("전라남도 해남군"), 34.57, 126.6);
    const start = kstDayStartMs(dayOf(2026, 3, 1));
    const fwd: number[] = [];
    for (let t = start; t < start + 10 * 86400_000; t += STEP_MS) fwd.push(a.clearnessAt(t), a.ambientAt(t));
    const back: number[] = [];
    for (let t = start + 10 * 86400_000 - STEP_MS; t >= start; t -= STEP_MS) back.unshift(b.clearnessAt(t), b.ambientAt(t));
    expect(back).toEqual(fwd);
    expect(weatherAt("전라남도 해남군", start + 5 * HOUR_MS, 34.57, 126.6)).toEqual(a.sample(start + 5 * HOUR_MS));
  });

  it("differs between localities but shares synoptic days", () => {
    let same = 0;
    let total = 0;
    const a = new LocalityWeather(localitySeed(LOCALITIES[0]!), 37.5, 127);
    const b = new LocalityWeather(localitySeed(LOCALITIES[1]!), 37.2, 126.8);
    const first = dayOf(2025, 1, 1);
    for (let d = first; d < first + 365; d++, total++) if (a.skyOn(d) === b.skyOn(d)) same++;
    // Independent draws would agree ~30 % of the time; a shared national component pushes that up,
    // persistence-by-locality keeps it well short of identical.
    expect(same / total).toBeGreaterThan(0.4);
    expect(same / total).toBeLessThan(0.9);
  });

  it("keeps clearness within 0.05–1 at every 10-minute step", () => {
    const w = new LocalityWeather(localitySeed("경상남도 밀양시"), 35.5, 128.7);
    const start = kstDayStartMs(dayOf(2025, 1, 1));
    let min = 1;
    let max = 0;
    for (let t = start; t < start + 365 * 86400_000; t += STEP_MS) {
      const c = w.clearnessAt(t, 7);
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
    expect(min).toBeGreaterThanOrEqual(MIN_CLEARNESS);
    expect(max).toBeLessThanOrEqual(MAX_CLEARNESS);
    expect(min).toBeLessThan(0.15); // rainy days exist
    expect(max).toBeGreaterThan(0.97); // so do clear ones
  });

  it("orders the sky conditions by daytime clearness, with passing clouds on partly cloudy days", () => {
    const sums: Record<string, { n: number; mean: number; spread: number }> = {};
    for (const name of LOCALITIES) {
      const w = new LocalityWeather(localitySeed(name), 36, 127.5);
      const first = dayOf(2025, 1, 1);
      for (let d = first; d < first + 200; d++) {
        const dw = w.day(d);
        const cs: number[] = [];
        for (let h = 9; h <= 16; h += 1 / 6) cs.push(clearnessOf(dw, h));
        const mean = cs.reduce((x, y) => x + y, 0) / cs.length;
        const spread = Math.max(...cs) - Math.min(...cs);
        const s = (sums[dw.sky] ??= { n: 0, mean: 0, spread: 0 });
        s.n++;
        s.mean += mean;
        s.spread += spread;
      }
    }
    const m = (k: string) => sums[k]!.mean / sums[k]!.n;
    const spread = (k: string) => sums[k]!.spread / sums[k]!.n;
    expect(m("clear")).toBeGreaterThan(0.9);
    expect(m("clear")).toBeGreaterThan(m("partlyCloudy"));
    expect(m("partlyCloudy")).toBeGreaterThan(m("overcast"));
    expect(m("overcast")).toBeGreaterThan(m("rain"));
    expect(m("rain")).toBeLessThan(0.25);
    expect(spread("partlyCloudy")).toBeGreaterThan(0.3);
    expect(spread("clear")).toBeLessThan(0.1);
  });

  it("is grey in the changma (late June–July) and bright in October", () => {
    let monsoonGrey = 0;
    let monsoonDays = 0;
    let octGrey = 0;
    let octDays = 0;
    for (const name of LOCALITIES) {
      const w = new LocalityWeather(localitySeed(name), 36, 127.5);
      for (const year of [2023, 2024, 2025]) {
        for (let d = dayOf(year, 1, 1); d < dayOf(year + 1, 1, 1); d++) {
          const c = civilFromDays(d);
          const grey = w.skyOn(d) === "overcast" || w.skyOn(d) === "rain" ? 1 : 0;
          if ((c.month === 6 && c.day >= 25) || (c.month === 7 && c.day <= 20)) {
            monsoonDays++;
            monsoonGrey += grey;
          } else if (c.month === 10) {
            octDays++;
            octGrey += grey;
          }
        }
      }
    }
    expect(monsoonGrey / monsoonDays).toBeGreaterThan(0.5);
    expect(octGrey / octDays).toBeLessThan(0.35);
  });

  it("has Korean monthly temperatures: January ≈ −2 °C, August ≈ 26 °C (Seoul latitude)", () => {
    const meanOfMonth = (month: number) => {
      let sum = 0;
      let n = 0;
      for (const name of LOCALITIES) {
        const w = new LocalityWeather(localitySeed(name), 37.57, 126.98);
        for (const year of [2024, 2025]) {
          for (let d = dayOf(year, month, 1); civilFromDays(d).month === month; d++) {
            for (let h = 0; h < 24; h++) {
              sum += w.ambientAt(kstDayStartMs(d) + h * HOUR_MS);
              n++;
            }
          }
        }
      }
      return sum / n;
    };
    expect(Math.abs(meanOfMonth(1) - -2)).toBeLessThan(2);
    expect(Math.abs(meanOfMonth(8) - 26)).toBeLessThan(2);
  });

  it("is warmer in the south in winter", () => {
    const seoul = new LocalityWeather(localitySeed("x"), 37.57, 126.98);
    const jeju = new LocalityWeather(localitySeed("x"), 33.5, 126.5);
    const t = kstDayStartMs(dayOf(2026, 1, 15)) + 14 * HOUR_MS;
    expect(jeju.ambientAt(t) - seoul.ambientAt(t)).toBeGreaterThan(5);
  });

  it("has a diurnal cycle: coolest around sunrise, warmest mid-afternoon, continuous across midnight", () => {
    const hourOfMin: number[] = [];
    const hourOfMax: number[] = [];
    let maxJump = 0;
    const w = new LocalityWeather(localitySeed("충청남도 당진시"), 36.9, 126.6);
    const first = dayOf(2025, 4, 1);
    for (let d = first; d < first + 120; d++) {
      let min = Infinity;
      let max = -Infinity;
      let hMin = 0;
      let hMax = 0;
      let prev = w.ambientAt(kstDayStartMs(d) - STEP_MS);
      for (let k = 0; k < 144; k++) {
        const t = kstDayStartMs(d) + k * STEP_MS;
        const v = w.ambientAt(t);
        maxJump = Math.max(maxJump, Math.abs(v - prev));
        prev = v;
        if (v < min) [min, hMin] = [v, k / 6];
        if (v > max) [max, hMax] = [v, k / 6];
      }
      hourOfMin.push(hMin);
      hourOfMax.push(hMax);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(hourOfMin)).toBeGreaterThanOrEqual(4.5);
    expect(median(hourOfMin)).toBeLessThanOrEqual(7);
    expect(median(hourOfMax)).toBeGreaterThanOrEqual(14);
    expect(median(hourOfMax)).toBeLessThanOrEqual(15);
    expect(maxJump).toBeLessThan(1.5);
  });
});
