/**
 * Service access (SPEC §6): a 16-bit mask carried in the access token. Each optional
 * section owns one bit; the core monitoring sections are always allowed (bit -1).
 */
export const SERVICE_BITS = {
  help: 0,
  userSetting: 1,
  diagnoseCompare: 2,
  diagnoseAll: 3,
  diagnoseMenu: 3,
  deviceOperation: 4,
  breakStatus: 5,
  control: 6,
  co2Hide: 7,
  recSmpHide: 8,
  pvstatus: -1,
  measurement: -1,
  diagram: -1,
  statistics: -1,
  alarm: -1,
  cctv: -1,
} as const;

export type ServiceKey = keyof typeof SERVICE_BITS;
export const SERVICE_MASK_BITS = 16;
export const SERVICE_MASK_MAX = (1 << SERVICE_MASK_BITS) - 1;

/** The bits that take something away (co2Hide 7, recSmpHide 8): set, the member sees less. */
export const HIDE_SERVICE_KEYS = ["co2Hide", "recSmpHide"] as const satisfies readonly ServiceKey[];

/**
 * What the seeded admin holds: every bit but the hide bits — the admin sees every section and every figure
 * (before, all 16 bits hid CO₂ and REC·SMP from the admin while the guest saw them; issue 26).
 */
export const ADMIN_SERVICE_MASK = SERVICE_MASK_MAX & ~serviceMask(HIDE_SERVICE_KEYS);

export function isServiceKey(key: unknown): key is ServiceKey {
  return typeof key === "string" && Object.prototype.hasOwnProperty.call(SERVICE_BITS, key);
}

/**
 * Whether a member's service mask grants a section. Empty or missing inputs give false
 * (SPEC §6) — but a mask of 0 is a real mask (no optional services), not a missing one.
 */
export function hasService(mask: number | string | null | undefined, key: string | null | undefined): boolean {
  if (mask === null || mask === undefined || mask === "") return false;
  if (!isServiceKey(key)) return false;
  const value = typeof mask === "string" ? Number(mask) : mask;
  if (!Number.isInteger(value) || value < 0 || value > SERVICE_MASK_MAX) return false;
  const bit = SERVICE_BITS[key];
  if (bit === -1) return true;
  return ((value >> bit) & 1) === 1;
}

/** Builds a mask from section names; always-allowed sections add nothing. */
export function serviceMask(keys: readonly ServiceKey[]): number {
  let mask = 0;
  for (const key of keys) {
    const bit = SERVICE_BITS[key];
    if (bit >= 0) mask |= 1 << bit;
  }
  return mask;
}

/** Which diagnose sub-tabs a mask shows (SPEC §2 side navigation). */
export function diagnoseTabs(mask: number | null | undefined): Array<"producer" | "performance" | "comparison"> {
  if (hasService(mask, "diagnoseAll")) return ["producer", "performance", "comparison"];
  if (hasService(mask, "diagnoseCompare")) return ["comparison"];
  return [];
}
