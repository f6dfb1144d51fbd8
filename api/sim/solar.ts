// Irradiance: clear sky, diffuse split and plane-of-array transposition. Sun position lives in domain/sun.ts
// (the alarm engine needs it too); it is re-exported here for the simulator's modules.
import { emptySunPosition, isSunUp, sunPosition, sunTimes, type SunPosition, type SunTimes } from "../../domain/sun";

export { emptySunPosition, isSunUp, sunPosition, sunTimes, type SunPosition, type SunTimes };

const DEG = Math.PI / 180;

/** Clear-sky global horizontal irradiance (Haurwitz), W/m². */
export function clearSkyGhi(cosZenith: number): number {
  return cosZenith > 0 ? 1098 * cosZenith * Math.exp(-0.057 / cosZenith) : 0;
}

/** Diffuse fraction of GHI from the clearness index kt (Erbs et al. 1982). */
export function erbsDiffuseFraction(kt: number): number {
  if (kt <= 0.22) return 1 - 0.09 * kt;
  if (kt <= 0.8) return 0.9511 - 0.1604 * kt + 4.388 * kt * kt - 16.638 * kt ** 3 + 12.336 * kt ** 4;
  return 0.165;
}

export interface PanelOrientation {
  /** Module tilt from horizontal, degrees. */
  tiltDeg: number;
  /** Direction the modules face, degrees clockwise from north (180 = south). */
  azimuthDeg: number;
  /** Ground reflectance. */
  albedo: number;
}

/** 30° south-facing fixed rack: the common Korean ground-mount/rooftop layout. */
export const DEFAULT_ORIENTATION: Readonly<PanelOrientation> = Object.freeze({ tiltDeg: 30, azimuthDeg: 180, albedo: 0.2 });

export interface IrradianceComponents {
  ghi: number;
  /** Direct normal irradiance, W/m². */
  dni: number;
  /** Diffuse horizontal irradiance, W/m². */
  dhi: number;
  /** Plane-of-array total, W/m². */
  poa: number;
  poaBeam: number;
  poaDiffuse: number;
  poaGround: number;
  /** cos(angle of incidence) on the module plane (clamped to ≥ 0). */
  cosAoi: number;
}

export function emptyIrradiance(): IrradianceComponents {
  return { ghi: 0, dni: 0, dhi: 0, poa: 0, poaBeam: 0, poaDiffuse: 0, poaGround: 0, cosAoi: 0 };
}

/**
 * Split GHI into beam and diffuse (Erbs) and transpose to a tilted plane with the isotropic sky model:
 * POA = DNI·cos(AOI) + DHI·(1 + cos β)/2 + GHI·ρ·(1 − cos β)/2.
 */
export function planeOfArray(
  ghi: number,
  sun: SunPosition,
  orientation: Readonly<PanelOrientation> = DEFAULT_ORIENTATION,
  out: IrradianceComponents = emptyIrradiance(),
): IrradianceComponents {
  out.ghi = ghi;
  if (ghi <= 0 || sun.cosZenith <= 0) {
    out.ghi = 0;
    out.dni = out.dhi = out.poa = out.poaBeam = out.poaDiffuse = out.poaGround = out.cosAoi = 0;
    return out;
  }
  // Near the horizon the split is ill-conditioned; bound cosZ so DNI cannot blow up.
  const cosZ = Math.max(sun.cosZenith, 0.065);
  const kt = Math.min(1, ghi / (sun.extraterrestrialWm2 * cosZ));
  const dhi = ghi * erbsDiffuseFraction(kt);
  const dni = Math.min((ghi - dhi) / cosZ, sun.extraterrestrialWm2);

  const tilt = orientation.tiltDeg * DEG;
  const cosTilt = Math.cos(tilt);
  const sinTilt = Math.sin(tilt);
  const zen = sun.zenithDeg * DEG;
  const cosAoiRaw = sun.cosZenith * cosTilt + Math.sin(zen) * sinTilt * Math.cos((sun.azimuthDeg - orientation.azimuthDeg) * DEG);
  const cosAoi = cosAoiRaw > 0 ? cosAoiRaw : 0;

  out.dni = dni;
  out.dhi = dhi;
  out.cosAoi = cosAoi;
  out.poaBeam = dni * cosAoi;
  out.poaDiffuse = dhi * (1 + cosTilt) * 0.5;
  out.poaGround = ghi * orientation.albedo * (1 - cosTilt) * 0.5;
  out.poa = out.poaBeam + out.poaDiffuse + out.poaGround;
  return out;
}
