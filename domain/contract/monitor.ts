/** Payloads of the monitoring screen (SPEC §7 GET /monitor/{gen|grid}). */
import { z } from "zod";
import { MonitorKind, PlantStatusCode, PlantStatusName } from "./shared";

export const MonitorRowBase = z.object({
  plant_uid: z.string(),
  plant_name: z.string(),
  alias: z.string().nullable(),
  locality: z.string().nullable(),
  /** Newest reading, epoch ms (null = never reported). */
  time: z.number().nullable(),
  status: PlantStatusCode,
  statusName: PlantStatusName,
  alarm_count: z.number(),
});
export type MonitorRowBase = z.infer<typeof MonitorRowBase>;

export const GenMonitorRow = MonitorRowBase.extend({
  capa: z.number(),
  iw: z.number(),
  dailys: z.number(),
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: z.boolean(),
  genTime: z.number(),
});
export type GenMonitorRow = z.infer<typeof GenMonitorRow>;

export const GridMonitorRow = MonitorRowBase.extend({
  devices: z.number(),
  reporting: z.number(),
  w: z.number().nullable(),
  v: z.number().nullable(),
  /** The device kind whose voltage `v` is (7 VCB in kV, 8 ACB or 2 board in V; domain/units.ts formatVoltage). */
  vKind: z.number().nullable().optional(),
  a: z.number(),
  closed: z.number(),
  open: z.number(),
});
export type GridMonitorRow = z.infer<typeof GridMonitorRow>;

/** A row as the portal reads it: the fields of either tab. */
export type MonitorRow = MonitorRowBase &
  Partial<Omit<GenMonitorRow, keyof MonitorRowBase>> &
  Partial<Omit<GridMonitorRow, keyof MonitorRowBase>>;

export const MonitorResponse = z.object({
  kind: MonitorKind,
  monitorList: z.array(z.union([GenMonitorRow, GridMonitorRow])),
  now: z.number(),
});
export type MonitorResponse = z.infer<typeof MonitorResponse>;
