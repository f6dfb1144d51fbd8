/** One plant's status record as the status screens and the detail window receive it (SPEC §3, §4). */
import { z } from "zod";
import { PlantStatus } from "./shared";

export const PlantStatusRow = PlantStatus.extend({
  plant_uid: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  /** Raw capacity unit (×0.01 = kW). */
  capa: z.number(),
  locality: z.string().nullable(),
  node_seq: z.number().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** Current output, W. */
  iw: z.number(),
  /** Energy today / this month / this year / lifetime, Wh. */
  dailys: z.number(),
  /** True when SPEC §5's alarm rule zeroed today's generation (domain/sanitize.ts todayGeneration). */
  dailysZeroed: z.boolean(),
  month: z.number(),
  year: z.number(),
  accrue: z.number(),
  /** Energy yesterday, Wh. */
  yesterday: z.number(),
  lastTs: z.number().nullable(),
  inverterCount: z.number(),
  alarm_count: z.number(),
  alarm_1000001_count: z.number(),
  alarm_1000003_count: z.number(),
  alarm_1000004_count: z.number(),
  alarm_1000006_count: z.number(),
});
export type PlantStatusRow = z.infer<typeof PlantStatusRow>;
