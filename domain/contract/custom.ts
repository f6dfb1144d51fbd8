/**
 * Contract of the custom page calls (SPEC §7 POST /custom {plantName, unique, invStr, envStr}, GET
 * /node/customs; reading and deleting one page are ours, SPEC says "not shown"). A page belongs to one member,
 * is named by its `unique` key (the URL slug) and holds widgets; each widget names a plant (`plantName`
 * carries the plant's uid) and, for inverter and environment widgets, the devices to show as comma-separated
 * uids (`invStr`, `envStr`; empty: every inverter or sensor of the plant).
 */
import { z } from "zod";
import { DiagramDevice, SensorReading } from "./diagram";
import { PlantCardData } from "./pvstatus";

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

export const CustomPage = z.object({
  unique: z.string(),
  title: z.string(),
  widgets: z.array(CustomWidgetSchema),
  created_at: z.number(),
  updated_at: z.number(),
});
export type CustomPage = z.infer<typeof CustomPage>;

/** GET /node/customs: with `plant`, that plant's inverters and sensors are listed too (for choosing widgets). */
export const CustomListQuery = z.object({ plant: z.string().trim().min(1, "required").max(64, "too_long").optional() });

export const CustomListResponse = z.object({
  customList: z.array(
    z.object({
      unique: z.string(),
      title: z.string(),
      widgetCount: z.number(),
      updated_at: z.number(),
    }),
  ),
  /** The plants the member may put on a page. */
  plantList: z.array(
    z.object({
      plant_uid: z.string(),
      name: z.string(),
    }),
  ),
  /** Inverters (kind 1) and environment sensors (kind 4) of `plant`, when asked. */
  deviceList: z
    .array(
      z.object({
        device_uid: z.string(),
        kind: z.number(),
        name: z.string(),
      }),
    )
    .optional(),
});
export type CustomListResponse = z.infer<typeof CustomListResponse>;

/** A widget with what it shows now; `plant` is null when the member may no longer see that plant. */
export const CustomWidgetView = CustomWidgetSchema.extend({
  index: z.number(),
  plant: z
    .object({
      plant_uid: z.string(),
      name: z.string(),
    })
    .nullable(),
  /** status and chart widgets: the plant's card (SPEC §3 Plant card data; series only for chart). */
  card: PlantCardData.optional(),
  /** inverter widgets. */
  inverters: z.array(DiagramDevice).optional(),
  /** environment widgets. */
  sensors: z.array(SensorReading).optional(),
});
export type CustomWidgetView = z.infer<typeof CustomWidgetView>;

export const CustomPageResponse = z.object({
  page: CustomPage,
  widgets: z.array(CustomWidgetView),
  now: z.number(),
});
export type CustomPageResponse = z.infer<typeof CustomPageResponse>;

export const CustomSaveResponse = z.object({
  unique: z.string(),
  created: z.boolean(),
});
export type CustomSaveResponse = z.infer<typeof CustomSaveResponse>;
