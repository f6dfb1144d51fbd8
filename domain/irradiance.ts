// Irradiance mode of SPEC §4: which of the two irradiance sources (his, iis) carry data.

/** 0: no irradiance chart; 1: first source (his) only; 2: second (iis) only; 3: both. */
export type IrradianceMode = 0 | 1 | 2 | 3;
export const IRRADIANCE_MODE = { none: 0, first: 1, second: 2, both: 3 } as const;

const sum = (values: readonly number[] | null | undefined): number =>
  (values ?? []).reduce((acc, v) => acc + (Number.isFinite(v) ? v : 0), 0);

/** A source "has data" when its sum is nonzero (as SPEC §4 words it). */
export function irradianceMode(
  his: readonly number[] | null | undefined,
  iis: readonly number[] | null | undefined,
): IrradianceMode {
  const first = sum(his) !== 0;
  const second = sum(iis) !== 0;
  if (first && second) return 3;
  if (first) return 1;
  if (second) return 2;
  return 0;
}

/** Whether the card shows the irradiance legend label and series at all. */
export function hasIrradiance(mode: IrradianceMode): boolean {
  return mode !== 0;
}
