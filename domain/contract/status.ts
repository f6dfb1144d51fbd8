/** One plant's status record as the status screens and the detail window receive it (SPEC §3, §4). */
import type { PlantStatus } from "../status";

export interface PlantStatusRow extends PlantStatus {
  plant_uid: string;
  name: string;
  alias: string | null;
  /** Raw capacity unit (×0.01 = kW). */
  capa: number;
  locality: string | null;
  node_seq: number | null;
  lat: number | null;
  lng: number | null;
  /** Current output, W. */
  iw: number;
  /** Energy today / this month / this year / lifetime, Wh. */
  dailys: number;
  /** True when SPEC §5's alarm rule zeroed today's generation (domain/sanitize.ts todayGeneration). */
  dailysZeroed: boolean;
  month: number;
  year: number;
  accrue: number;
  /** Energy yesterday, Wh. */
  yesterday: number;
  lastTs: number | null;
  inverterCount: number;
  alarm_count: number;
  alarm_1000001_count: number;
  alarm_1000003_count: number;
  alarm_1000004_count: number;
  alarm_1000006_count: number;
}
