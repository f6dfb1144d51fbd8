import { describe, expect, it } from "vitest";
import { DEFAULT_ORIENTATION, clearSkyGhi, isSunUp, planeOfArray, sunPosition, sunTimes } from "./solar";

const SEOUL = { lat: 37.57, lon: 126.98 };
/** KST wall-clock time as UTC ms. */
const kst = (y: number, mo: number, d: number, h: number, mi = 0) => Date.UTC(y, mo - 1, d, h - 9, mi);
const hhmm = (ms: number) => {
  const d = new Date(ms + 9 * 3600_000);
  return d.getUTCHours() * 60 + d.getUTCMinutes();
};

describe("sun position", () => {
  it("Seoul at solar noon in June: elevation ≈ 75.9°, due south, Haurwitz GHI ≈ 1000 W/m²", () => {
    const noon = sunTimes(kst(2026, 6, 21, 12), SEOUL.lat, SEOUL.lon).solarNoonMs;
    expect(hhmm(noon)).toBeGreaterThanOrEqual(12 * 60 + 28); // Seoul's solar noon is ~12:32 KST
    expect(hhmm(noon)).toBeLessThanOrEqual(12 * 60 + 38);
    const sun = sunPosition(noon, SEOUL.lat, SEOUL.lon);
    expect(sun.elevationDeg).toBeGreaterThan(75);
    expect(sun.elevationDeg).toBeLessThan(76.5);
    expect(sun.azimuthDeg).toBeCloseTo(180, 0);
    // Haurwitz at this elevation is 1004 W/m²: a hair over the "≈ 900–1000" rule of thumb.
    const ghi = clearSkyGhi(sun.cosZenith);
    expect(ghi).toBeGreaterThan(950);
    expect(ghi).toBeLessThan(1010);
  });

  it("is dark at 02:00 KST", () => {
    const t = kst(2026, 6, 21, 2);
    const sun = sunPosition(t, SEOUL.lat, SEOUL.lon);
    expect(sun.elevationDeg).toBeLessThan(-10);
    expect(clearSkyGhi(sun.cosZenith)).toBe(0);
    expect(planeOfArray(clearSkyGhi(sun.cosZenith), sun).poa).toBe(0);
    expect(isSunUp(t, SEOUL.lat, SEOUL.lon)).toBe(false);
    expect(isSunUp(kst(2026, 6, 21, 9), SEOUL.lat, SEOUL.lon)).toBe(true);
  });

  it("rises in the east and sets in the west", () => {
    expect(sunPosition(kst(2026, 6, 21, 8), SEOUL.lat, SEOUL.lon).azimuthDeg).toBeGreaterThan(60);
    expect(sunPosition(kst(2026, 6, 21, 8), SEOUL.lat, SEOUL.lon).azimuthDeg).toBeLessThan(110);
    expect(sunPosition(kst(2026, 6, 21, 17), SEOUL.lat, SEOUL.lon).azimuthDeg).toBeGreaterThan(250);
    expect(sunPosition(kst(2026, 6, 21, 17), SEOUL.lat, SEOUL.lon).azimuthDeg).toBeLessThan(300);
  });

  it("Seoul sunrise ≈ 05:11 and sunset ≈ 19:57 KST on 2026-06-21", () => {
    const st = sunTimes(kst(2026, 6, 21, 0, 5), SEOUL.lat, SEOUL.lon);
    expect(Math.abs(hhmm(st.sunriseMs!) - (5 * 60 + 10))).toBeLessThanOrEqual(10);
    expect(Math.abs(hhmm(st.sunsetMs!) - (19 * 60 + 57))).toBeLessThanOrEqual(10);
    // Same local day whatever time of that day we ask from.
    expect(sunTimes(kst(2026, 6, 21, 23, 55), SEOUL.lat, SEOUL.lon).sunriseMs).toBe(st.sunriseMs);
    // Sun is up between the two and down outside them.
    expect(isSunUp(st.sunriseMs! + 120_000, SEOUL.lat, SEOUL.lon)).toBe(true);
    expect(isSunUp(st.sunriseMs! - 120_000, SEOUL.lat, SEOUL.lon)).toBe(false);
    expect(isSunUp(st.sunsetMs! - 120_000, SEOUL.lat, SEOUL.lon)).toBe(true);
    expect(isSunUp(st.sunsetMs! + 120_000, SEOUL.lat, SEOUL.lon)).toBe(false);
  });

  it("Seoul winter solstice: short day, low sun", () => {
    const st = sunTimes(kst(2026, 12, 21, 12), SEOUL.lat, SEOUL.lon);
    expect(Math.abs(hhmm(st.sunriseMs!) - (7 * 60 + 43))).toBeLessThanOrEqual(10);
    expect(Math.abs(hhmm(st.sunsetMs!) - (17 * 60 + 17))).toBeLessThanOrEqual(10);
    expect(sunPosition(st.solarNoonMs, SEOUL.lat, SEOUL.lon).elevationDeg).toBeCloseTo(29, 0);
  });
});

describe("plane-of-array irradiance", () => {
  it("a 30° south tilt catches more than the horizontal at a winter midday", () => {
    for (const h of [11, 12, 13]) {
      const sun = sunPosition(kst(2026, 12, 15, h, 30), SEOUL.lat, SEOUL.lon);
      const ghi = clearSkyGhi(sun.cosZenith);
      const poa = planeOfArray(ghi, sun, DEFAULT_ORIENTATION);
      expect(poa.poa).toBeGreaterThan(ghi * 1.3);
      expect(poa.poaBeam + poa.poaDiffuse + poa.poaGround).toBeCloseTo(poa.poa, 9);
    }
  });

  it("a horizontal plane sees GHI; an overcast sky is nearly all diffuse", () => {
    const sun = sunPosition(kst(2026, 6, 21, 12, 30), SEOUL.lat, SEOUL.lon);
    const ghi = clearSkyGhi(sun.cosZenith);
    expect(planeOfArray(ghi, sun, { tiltDeg: 0, azimuthDeg: 180, albedo: 0.2 }).poa).toBeCloseTo(ghi, 6);
    const dim = planeOfArray(ghi * 0.15, sun);
    expect(dim.dhi / dim.ghi).toBeGreaterThan(0.9);
    const clear = planeOfArray(ghi, sun);
    expect(clear.dhi / clear.ghi).toBeLessThan(0.25);
    expect(clear.dni).toBeGreaterThan(800);
  });

  it("stays bounded at a grazing sun", () => {
    const st = sunTimes(kst(2026, 6, 21, 12), SEOUL.lat, SEOUL.lon);
    for (let dt = -10; dt <= 30; dt += 2) {
      const sun = sunPosition(st.sunriseMs! + dt * 60_000, SEOUL.lat, SEOUL.lon);
      const ghi = clearSkyGhi(sun.cosZenith);
      const p = planeOfArray(ghi, sun);
      expect(p.poa).toBeGreaterThanOrEqual(0);
      expect(p.poa).toBeLessThan(400);
      expect(p.dni).toBeLessThanOrEqual(sun.extraterrestrialWm2);
    }
  });
});
