// Sun geometry: where the sun is and when it rises and sets. Spencer/NOAA "general solar position"
// approximation (declination, equation of time, hour angle): good to a few tenths of a degree, which is far
// below what a 10-minute step resolves. Pure: used by the simulator's physics and the alarm engine's
// daylight window alike.
import { SEOUL_OFFSET_MS } from "./seoul-clock";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Korea keeps UTC+9 all year (domain/seoul-time.ts). */
const KST_OFFSET_MS = SEOUL_OFFSET_MS;

const DEG = Math.PI / 180;
const RAD = 180 / Math.PI;
const J2000_JAN1_UTC_MS = Date.UTC(2000, 0, 1);
const TROPICAL_YEAR_DAYS = 365.2422;
/** Zenith at sunrise/sunset: 90° + refraction (34′) + solar semi-diameter (16′). */
const SUNRISE_ZENITH_DEG = 90.833;

export interface SunPosition {
  /** Angle from the vertical, degrees (0 overhead, > 90 below the horizon). */
  zenithDeg: number;
  /** 90 − zenith, degrees. */
  elevationDeg: number;
  /** Degrees clockwise from north (90 east, 180 south, 270 west). */
  azimuthDeg: number;
  /** cos(zenith); ≤ 0 at night. */
  cosZenith: number;
  declinationDeg: number;
  /** Equation of time, minutes. */
  eqTimeMin: number;
  /** Extraterrestrial normal irradiance for the date, W/m². */
  extraterrestrialWm2: number;
}

export function emptySunPosition(): SunPosition {
  return { zenithDeg: 0, elevationDeg: 0, azimuthDeg: 0, cosZenith: 0, declinationDeg: 0, eqTimeMin: 0, extraterrestrialWm2: 0 };
}

/** Spencer's fractional year γ (radians), taken continuously from a fixed epoch so it has no leap-day jumps. */
function fractionalYear(tMs: number): number {
  const days = (tMs - J2000_JAN1_UTC_MS) / DAY_MS;
  const frac = days / TROPICAL_YEAR_DAYS - Math.floor(days / TROPICAL_YEAR_DAYS);
  return 2 * Math.PI * frac;
}

function eqTimeMinutes(g: number): number {
  return (
    229.18 *
    (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g))
  );
}

function declinationRad(g: number): number {
  return (
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g)
  );
}

function extraterrestrial(g: number): number {
  return (
    1367 * (1.00011 + 0.034221 * Math.cos(g) + 0.00128 * Math.sin(g) + 0.000719 * Math.cos(2 * g) + 0.000077 * Math.sin(2 * g))
  );
}

/**
 * Sun position for a UTC instant (ms) at latitude/longitude (degrees, north/east positive).
 * Pass `out` to reuse an object in hot loops.
 */
export function sunPosition(tMs: number, latDeg: number, lonDeg: number, out: SunPosition = emptySunPosition()): SunPosition {
  const g = fractionalYear(tMs);
  const eqt = eqTimeMinutes(g);
  const decl = declinationRad(g);
  const utcMinutes = (((tMs % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS;
  const trueSolarMinutes = utcMinutes + eqt + 4 * lonDeg;
  const hourAngle = (trueSolarMinutes / 4 - 180) * DEG;
  const lat = latDeg * DEG;
  const sinLat = Math.sin(lat);
  const cosLat = Math.cos(lat);
  const sinDecl = Math.sin(decl);
  const cosDecl = Math.cos(decl);
  const cosH = Math.cos(hourAngle);
  let cosZ = sinLat * sinDecl + cosLat * cosDecl * cosH;
  if (cosZ > 1) cosZ = 1;
  else if (cosZ < -1) cosZ = -1;
  const zenith = Math.acos(cosZ) * RAD;
  // Azimuth measured from south towards west, then turned to "from north, clockwise".
  const azFromSouth = Math.atan2(Math.sin(hourAngle), cosH * sinLat - (sinDecl / cosDecl) * cosLat) * RAD;
  let az = azFromSouth + 180;
  if (az >= 360) az -= 360;
  out.zenithDeg = zenith;
  out.elevationDeg = 90 - zenith;
  out.azimuthDeg = az;
  out.cosZenith = cosZ;
  out.declinationDeg = decl * RAD;
  out.eqTimeMin = eqt;
  out.extraterrestrialWm2 = extraterrestrial(g);
  return out;
}

/** True while the upper limb of the sun is above the (refracted) horizon. */
export function isSunUp(tMs: number, latDeg: number, lonDeg: number): boolean {
  return sunPosition(tMs, latDeg, lonDeg).zenithDeg < SUNRISE_ZENITH_DEG;
}

export interface SunTimes {
  /** UTC ms; null during polar night / midnight sun (never in Korea). */
  sunriseMs: number | null;
  sunsetMs: number | null;
  solarNoonMs: number;
}

/**
 * Sunrise, solar noon and sunset for the local calendar day containing tMs.
 * `utcOffsetMs` defines that local day (default KST, UTC+9).
 */
export function sunTimes(tMs: number, latDeg: number, lonDeg: number, utcOffsetMs = KST_OFFSET_MS): SunTimes {
  const localDayStart = Math.floor((tMs + utcOffsetMs) / DAY_MS) * DAY_MS - utcOffsetMs;
  // UTC midnight of the same calendar date as the local day.
  const utcMidnight = localDayStart + utcOffsetMs;
  let noon = utcMidnight + 720 * MINUTE_MS - 4 * lonDeg * MINUTE_MS;
  for (let i = 0; i < 2; i++) noon = utcMidnight + (720 - 4 * lonDeg - eqTimeMinutes(fractionalYear(noon))) * MINUTE_MS;
  // A far-east longitude puts the UTC date's noon on the previous local day: shift into the requested day.
  while (noon < localDayStart) noon += DAY_MS;
  while (noon >= localDayStart + DAY_MS) noon -= DAY_MS;

  const eqtNoon = eqTimeMinutes(fractionalYear(noon));
  const lat = latDeg * DEG;
  const event = (sign: -1 | 1): number | null => {
    let t = noon;
    // Re-evaluate declination and equation of time at the event itself rather than at noon.
    for (let i = 0; i < 3; i++) {
      const g = fractionalYear(t);
      const decl = declinationRad(g);
      const cosH = Math.cos(SUNRISE_ZENITH_DEG * DEG) / (Math.cos(lat) * Math.cos(decl)) - Math.tan(lat) * Math.tan(decl);
      if (cosH > 1 || cosH < -1) return null;
      const haDeg = Math.acos(cosH) * RAD;
      t = noon + (eqtNoon - eqTimeMinutes(g)) * MINUTE_MS + sign * 4 * haDeg * MINUTE_MS;
    }
    return t;
  };
  return { sunriseMs: event(-1), sunsetMs: event(1), solarNoonMs: noon };
}
