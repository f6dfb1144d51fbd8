// PVWatts models as pvlib implements them (pvlib.pvsystem.pvwatts_dc, pvlib.inverter.pvwatts,
// pvlib.pvsystem.pvwatts_losses; NREL PVWatts Version 5 Manual, Dobos 2014). The DC model is the SPEC's reference
// generation without its system factor η, so it is written with that module's temperature factor C = 1 + γ(T − 25)
// (domain/performance.ts), not a second copy of it.
import { temperatureFactor } from "../performance";
import { STC_IRRADIANCE } from "../reference-generation";

/**
 * PVWatts DC power: P_dc = G_eff / 1000 · P_dc0 · (1 + γ(T_cell − 25)), in the unit of `pdc0` (pvlib pvwatts_dc).
 * γ is signed, per °C (−0.003 = −0.3 %/°C). Not clipped at 0, as in pvlib: the caller decides what a negative means.
 */
export function pvwattsDc(effectiveIrradianceWm2: number, cellTemperatureC: number, pdc0: number, gamma: number): number {
  return (effectiveIrradianceWm2 / STC_IRRADIANCE) * pdc0 * temperatureFactor(cellTemperatureC, gamma);
}

/** pvlib's defaults of the PVWatts inverter: nominal efficiency 0.96, reference efficiency 0.9637 (CEC weighted). */
export const PVWATTS_ETA_INV_NOM = 0.96;
export const PVWATTS_ETA_INV_REF = 0.9637;

/**
 * PVWatts inverter (pvlib.inverter.pvwatts): AC power from DC power `pdc` for an inverter whose DC input limit is
 * `pdc0` (pvlib's name; its AC rating is pac0 = η_nom · pdc0). With ζ = pdc / pdc0:
 *   η = η_nom / η_ref · (−0.0162 ζ − 0.0059 / ζ + 0.9858),   P_ac = min(η · pdc, pac0), and 0 for pdc ≤ 0.
 */
export function pvwattsInverter(
  pdc: number,
  pdc0: number,
  etaInvNom = PVWATTS_ETA_INV_NOM,
  etaInvRef = PVWATTS_ETA_INV_REF,
): number {
  if (!(pdc > 0) || !(pdc0 > 0)) return 0;
  const pac0 = etaInvNom * pdc0;
  const zeta = pdc / pdc0;
  const eta = (etaInvNom / etaInvRef) * (-0.0162 * zeta - 0.0059 / zeta + 0.9858);
  return Math.max(0, Math.min(pac0, eta * pdc));
}

/** The PVWatts system loss categories, each in percent (pvlib pvwatts_losses' arguments and defaults). */
export interface PvwattsLosses {
  soiling: number;
  shading: number;
  snow: number;
  mismatch: number;
  wiring: number;
  connections: number;
  lid: number;
  nameplateRating: number;
  age: number;
  availability: number;
}

export const PVWATTS_DEFAULT_LOSSES: Readonly<PvwattsLosses> = {
  soiling: 2,
  shading: 3,
  snow: 0,
  mismatch: 2,
  wiring: 2,
  connections: 0.5,
  lid: 1.5,
  nameplateRating: 1,
  age: 0,
  availability: 3,
};

/** Total system losses, percent: 100 · (1 − Π(1 − L_i / 100)) — losses compound, they do not add. */
export function pvwattsLosses(losses: Partial<PvwattsLosses> = {}): number {
  const all = { ...PVWATTS_DEFAULT_LOSSES, ...losses };
  let kept = 1;
  for (const l of Object.values(all)) kept *= 1 - l / 100;
  return 100 * (1 - kept);
}
