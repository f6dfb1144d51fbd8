/** Payloads of the monitoring screen (SPEC §7 GET /monitor/{gen|grid}). */
import type { MonitorKind } from "../monitoring";
import type { PlantStatusCode, PlantStatusName } from "../status";

export interface MonitorRowBase {
  plant_uid: string;
  plant_name: string;
  alias: string | null;
  locality: string | null;
  /** Newest reading, epoch ms (null = never reported). */
  time: number | null;
  status: PlantStatusCode;
  statusName: PlantStatusName;
  alarm_count: number;
}

export interface GenMonitorRow extends MonitorRowBase {
  capa: number;
  iw: number;
  dailys: number;
  /** True when SPEC §5's alarm rule zeroed today's generation. */
  dailysZeroed: boolean;
  genTime: number;
}

export interface GridMonitorRow extends MonitorRowBase {
  devices: number;
  reporting: number;
  w: number | null;
  v: number | null;
  /** The device kind whose voltage `v` is (7 VCB in kV, 8 ACB or 2 board in V; domain/units.ts formatVoltage). */
  vKind?: number | null;
  a: number;
  closed: number;
  open: number;
}

/** A row as the portal reads it: the fields of either tab. */
export type MonitorRow = MonitorRowBase &
  Partial<Omit<GenMonitorRow, keyof MonitorRowBase>> &
  Partial<Omit<GridMonitorRow, keyof MonitorRowBase>>;

export interface MonitorResponse {
  kind: MonitorKind;
  monitorList: Array<GenMonitorRow | GridMonitorRow>;
  now: number;
}
