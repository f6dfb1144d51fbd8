/**
 * Contract of the custom page calls (SPEC §7 POST /custom {plantName, unique, invStr, envStr}, GET
 * /node/customs; reading and deleting one page are ours, SPEC says "not shown"). A page belongs to one member,
 * is named by its `unique` key (the URL slug) and holds widgets; each widget names a plant (`plantName`
 * carries the plant's uid) and, for inverter and environment widgets, the devices to show as comma-separated
 * uids (`invStr`, `envStr`; empty: every inverter or sensor of the plant).
 */
import { z } from "zod";
import type { DiagramDevice, SensorReading } from "./diagram";
import type { PlantCardData } from "./pvstatus";

export const WIDGET_KINDS = ["status", "inverter", "environment", "chart"] as const;
export type WidgetKind = (typeof WIDGET_KINDS)[number];

export const PAGE_UNIQUE = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const PAGE_TITLE_MAX = 80;
export const PAGE_WIDGETS_MAX = 24;
export const PAGES_PER_MEMBER_MAX = 50;
export const WIDGET_DEVICES_MAX = 50;

const uidList = z
  .string()
  .trim()
  .max(4_000, "too_long")
  .default("")
  .transform((s) =>
    [
      ...new Set(
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ].join(","),
  )
  .refine((s) => !s || s.split(",").length <= WIDGET_DEVICES_MAX, "too_many");

export const CustomWidgetSchema = z.object({
  kind: z.enum(WIDGET_KINDS, { errorMap: () => ({ message: "invalid_kind" }) }),
  plantName: z.string({ required_error: "required" }).trim().min(1, "required").max(64, "too_long"),
  invStr: uidList,
  envStr: uidList,
});
export type CustomWidget = z.infer<typeof CustomWidgetSchema>;

export const CustomUnique = z.string({ required_error: "required" }).trim().toLowerCase().regex(PAGE_UNIQUE, "invalid_unique");

/** POST /custom: the whole page, created or replaced. */
export const CustomPageInput = z.object({
  unique: CustomUnique,
  title: z.string({ required_error: "required" }).trim().min(1, "required").max(PAGE_TITLE_MAX, "too_long"),
  widgets: z.array(CustomWidgetSchema).max(PAGE_WIDGETS_MAX, "too_many").default([]),
});
export type CustomPageInputData = z.infer<typeof CustomPageInput>;

export interface CustomPage {
  unique: string;
  title: string;
  widgets: CustomWidget[];
  created_at: number;
  updated_at: number;
}

/** GET /node/customs: with `plant`, that plant's inverters and sensors are listed too (for choosing widgets). */
export const CustomListQuery = z.object({ plant: z.string().trim().min(1, "required").max(64, "too_long").optional() });

export interface CustomListResponse {
  customList: Array<{ unique: string; title: string; widgetCount: number; updated_at: number }>;
  /** The plants the member may put on a page. */
  plantList: Array<{ plant_uid: string; name: string }>;
  /** Inverters (kind 1) and environment sensors (kind 4) of `plant`, when asked. */
  deviceList?: Array<{ device_uid: string; kind: number; name: string }>;
}

/** A widget with what it shows now; `plant` is null when the member may no longer see that plant. */
export interface CustomWidgetView extends CustomWidget {
  index: number;
  plant: { plant_uid: string; name: string } | null;
  /** status and chart widgets: the plant's card (SPEC §3 Plant card data; series only for chart). */
  card?: PlantCardData;
  /** inverter widgets. */
  inverters?: DiagramDevice[];
  /** environment widgets. */
  sensors?: SensorReading[];
}

export interface CustomPageResponse {
  page: CustomPage;
  widgets: CustomWidgetView[];
  now: number;
}

export interface CustomSaveResponse {
  unique: string;
  created: boolean;
}
