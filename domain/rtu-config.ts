/** Gateway (RTU) configuration bits (SPEC §6). */
export const RTU_CONFIG_BITS = { lteRouter: 0, zigbee: 1, invDetail: 2, lora: 3 } as const;
export type RtuConfigKey = keyof typeof RTU_CONFIG_BITS;
export const RTU_CONFIG_KEYS = Object.keys(RTU_CONFIG_BITS) as RtuConfigKey[];

export function hasRtuConfig(config: number | null | undefined, key: RtuConfigKey): boolean {
  if (typeof config !== "number" || !Number.isInteger(config) || config < 0) return false;
  return ((config >> RTU_CONFIG_BITS[key]) & 1) === 1;
}

export function rtuConfigFlags(config: number | null | undefined): Record<RtuConfigKey, boolean> {
  return Object.fromEntries(RTU_CONFIG_KEYS.map((k) => [k, hasRtuConfig(config, k)])) as Record<RtuConfigKey, boolean>;
}

export function rtuConfigValue(flags: Partial<Record<RtuConfigKey, boolean>>): number {
  let value = 0;
  for (const key of RTU_CONFIG_KEYS) if (flags[key]) value |= 1 << RTU_CONFIG_BITS[key];
  return value;
}
