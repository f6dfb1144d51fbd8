// Device kinds of SPEC §3 and the kind-based rules of SPEC §2 and §5.

export const DEVICE_KIND = {
  inverter: 1,
  connectionBoard: 2,
  environmentSensor: 4,
  vcb: 7,
  acb: 8,
} as const;
export type DeviceKindName = keyof typeof DEVICE_KIND;
export type DeviceKind = (typeof DEVICE_KIND)[DeviceKindName];

export const DEVICE_KINDS: readonly DeviceKind[] = Object.values(DEVICE_KIND);

export function isDeviceKind(value: unknown): value is DeviceKind {
  return DEVICE_KINDS.includes(value as DeviceKind);
}

export function deviceKindName(kind: DeviceKind): DeviceKindName {
  return (Object.keys(DEVICE_KIND) as DeviceKindName[]).find((name) => DEVICE_KIND[name] === kind)!;
}

/** Measurement screen tabs (SPEC §2), in order. */
export const MEASUREMENT_DEVICE_KINDS: readonly DeviceKind[] = [1, 2, 4];

/** Statistics report tabs per device kind (SPEC §2); the integrated report is always shown. */
export const STATISTICS_REPORT_KINDS = { inverter: 1, environmentSensor: 4, vcb: 7, acb: 8 } as const;

/** Only inverters are sent in diagnose production and generation requests (SPEC §5). */
export function diagnosableDevices<T extends { kind: number }>(devices: readonly T[]): T[] {
  return devices.filter((d) => d.kind === DEVICE_KIND.inverter);
}

/** Kinds present in a device list; a statistics tab is hidden when its kind is absent. */
export function presentDeviceKinds(devices: readonly { kind: number }[]): Set<DeviceKind> {
  const kinds = new Set<DeviceKind>();
  for (const d of devices) if (isDeviceKind(d.kind)) kinds.add(d.kind);
  return kinds;
}
