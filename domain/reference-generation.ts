// Reference (expected) generation of SPEC §9: what the plant should make given the sun it got.

/** Irradiance at standard test conditions, W/m². */
export const STC_IRRADIANCE = 1000;
/** Module temperature at standard test conditions, °C. */
export const STC_TEMPERATURE_C = 25;
/** Power loss per °C above 25 °C (−0.415 %/°C). */
export const TEMPERATURE_COEFFICIENT = 0.00415;
/** Everything else lost between module and meter (inverter, wiring, soiling, mismatch). */
export const SYSTEM_FACTOR = 0.87;

/**
 * capacity_kW × POA/1000 × (1 − 0.00415 × (T_module − 25)) × 0.87, in kW.
 * Never negative (no sun, or an absurd temperature, gives 0). A missing temperature means no
 * correction (treated as 25 °C). A plant may carry its own γ (signed, per °C) and η (domain/performance.ts).
 */
export function referenceGenerationKw(
  capacityKw: number,
  poaIrradiance: number,
  moduleTemperatureC?: number | null,
  coefficients: { temperatureCoefficient: number; systemFactor: number } = {
    temperatureCoefficient: -TEMPERATURE_COEFFICIENT,
    systemFactor: SYSTEM_FACTOR,
  },
): number {
  if (!Number.isFinite(capacityKw) || !Number.isFinite(poaIrradiance) || capacityKw <= 0 || poaIrradiance <= 0) return 0;
  const t =
    typeof moduleTemperatureC === "number" && Number.isFinite(moduleTemperatureC) ? moduleTemperatureC : STC_TEMPERATURE_C;
  const temperatureFactor = 1 + coefficients.temperatureCoefficient * (t - STC_TEMPERATURE_C);
  return Math.max(0, capacityKw * (poaIrradiance / STC_IRRADIANCE) * temperatureFactor * coefficients.systemFactor);
}

/** Reference generation per timestamp; a missing temperature entry means no correction. */
export function referenceGenerationSeries(
  capacityKw: number,
  poaIrradiance: readonly number[],
  moduleTemperatureC: readonly number[] = [],
): number[] {
  return poaIrradiance.map((g, i) => referenceGenerationKw(capacityKw, g, moduleTemperatureC[i]));
}

/** Minutes in the base measurement step. */
export const STEP_MINUTES = 10;

/** Energy (kWh) of a constant power (kW) over one step; a 10-minute step is 1/6 h. */
export function stepEnergyKwh(powerKw: number, stepMinutes = STEP_MINUTES): number {
  return Number.isFinite(powerKw) ? (powerKw * stepMinutes) / 60 : 0;
}
