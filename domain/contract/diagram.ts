/**
 * Contract of the diagram calls (SPEC §7 GET /diagram, /node/diagrams; the SVG upload is ours, SPEC says
 * "not shown"): payload types and their zod schemas, imported by the API route and the portal model.
 */
import { z } from "zod";

export const ELEMENT_TYPES = ["grid", "vcb", "transformer", "acb", "inverter", "board", "string"] as const;
export type ElementType = (typeof ELEMENT_TYPES)[number];

/**
 * What an element's state is, in words the screen shows beside a shape (never colour alone):
 * ok, alarm (an open alarm on it or its gateway), open (a breaker that is open), stale (no reading for
 * 30 min), nodata (never reported), none (a virtual element without a device: grid point, transformer), low (a
 * string whose current is below half the median of its board's strings: a blown fuse or a dead string).
 */
export const CONDITIONS = ["ok", "alarm", "open", "stale", "nodata", "none", "low"] as const;
export type Condition = (typeof CONDITIONS)[number];

export const ElementAlarm = z.object({
  code: z.number(),
  level: z.number(),
  message: z.string(),
  raised_at: z.number(),
});
export type ElementAlarm = z.infer<typeof ElementAlarm>;

/** Live values of an element, in SI units as the gateways send them. */
export const ElementValues = z.object({
  /** Active power, W. */
  w: z.number().optional().nullable(),
  /** Voltage, V. */
  v: z.number().optional().nullable(),
  /** Current, A. */
  a: z.number().optional().nullable(),
  /** Ground-fault (leakage) current, mA. */
  gf_ma: z.number().optional().nullable(),
  /** Energy today, Wh (inverters). */
  today_wh: z.number().optional().nullable(),
  /** Breaker position. */
  breaker: z
    .union([z.literal("closed"), z.literal("open")])
    .optional()
    .nullable(),
  /** Inverter fault code, when it reports one. */
  fault_code: z.number().optional().nullable(),
});
export type ElementValues = z.infer<typeof ElementValues>;

/** One element of the single-line diagram without its children (the diagram is a tree: see DiagramElement). */
export const DiagramElementFields = z.object({
  /** Stable within a plant: `grid`, `tr-1`, `dev:<uid>`, `str:<board uid>:<n>`. */
  id: z.string(),
  type: z.enum(ELEMENT_TYPES),
  name: z.string(),
  device_uid: z.string().nullable(),
  kind: z.number().nullable(),
  /** Time of the newest reading, epoch ms. */
  ts: z.number().nullable(),
  values: ElementValues,
  condition: z.enum(CONDITIONS),
  alarm: ElementAlarm.nullable(),
});
export type DiagramElement = z.infer<typeof DiagramElementFields> & { children: DiagramElement[] };
/**
 * The tree of elements. zod-to-openapi cannot walk z.lazy: the fields are checked here and api/openapi-zod.ts
 * names the JSON Schema (DiagramElementFields with `children` a $ref to itself).
 */
export const DiagramElementSchema = z.custom<DiagramElement>(
  (v) => DiagramElementFields.safeParse(v).success && Array.isArray((v as { children?: unknown }).children),
);

export const DiagramBinding = z.object({
  /** The id of an element in the uploaded SVG. */
  element: z.string(),
  device_uid: z.string(),
});
export type DiagramBinding = z.infer<typeof DiagramBinding>;

/** A device with its live state, flat (for uploaded diagrams, whose elements are bound to devices). */
export const DiagramDevice = z.object({
  device_uid: z.string(),
  kind: z.number(),
  name: z.string(),
  ts: z.number().nullable(),
  values: ElementValues,
  condition: z.enum(CONDITIONS),
  alarm: ElementAlarm.nullable(),
});
export type DiagramDevice = z.infer<typeof DiagramDevice>;

/** An environment sensor's newest reading: irradiance horizontal / plane of array (W/m²), module / ambient °C. */
export const SensorReading = z.object({
  device_uid: z.string(),
  name: z.string(),
  ts: z.number().nullable(),
  his: z.number().nullable(),
  iis: z.number().nullable(),
  sts: z.number().nullable(),
  ats: z.number().nullable(),
  condition: z.enum(CONDITIONS),
});
export type SensorReading = z.infer<typeof SensorReading>;

export const DiagramResponse = z.object({
  plant: z.object({
    plant_uid: z.string(),
    name: z.string(),
    capa: z.number(),
    locality: z.string().nullable(),
  }),
  /** `auto`: drawn from the device topology; `svg`: an administrator's uploaded drawing. */
  kind: z.union([z.literal("auto"), z.literal("svg")]),
  root: DiagramElementSchema,
  devices: z.array(DiagramDevice),
  /** Environment sensors beside the single line (irradiance, temperatures). */
  sensors: z.array(SensorReading),
  svg: z.string().nullable(),
  bindings: z.array(DiagramBinding),
  uploaded_at: z.number().nullable(),
  uploaded_by: z.string().nullable(),
  /** May this member replace the drawing (plant administration, SPEC §6)? */
  editable: z.boolean(),
  now: z.number(),
});
export type DiagramResponse = z.infer<typeof DiagramResponse>;

export const DiagramListItem = z.object({
  plant_uid: z.string(),
  name: z.string(),
  locality: z.string().nullable(),
  kind: z.union([z.literal("auto"), z.literal("svg")]),
});
export type DiagramListItem = z.infer<typeof DiagramListItem>;

export const DiagramListResponse = z.object({
  diagramList: z.array(DiagramListItem),
});
export type DiagramListResponse = z.infer<typeof DiagramListResponse>;

export const PLANT_UID_MAX = 64;
export const SVG_MAX_BYTES = 512 * 1024;
export const BINDINGS_MAX = 500;
/** An SVG element id that can be bound: XML-name-like, no spaces or quotes. */
export const ELEMENT_ID = /^[A-Za-z_][A-Za-z0-9_.:-]{0,99}$/;

const plantUid = z.string({ required_error: "required" }).trim().min(1, "required").max(PLANT_UID_MAX, "too_long");

/** GET /diagram: SPEC names the parameter plantName; it carries the plant's uid (names are not unique). */
export const DiagramQuery = z.object({ plantName: plantUid });

/** GET /node/diagrams: optional uid narrows to one plant; nodeUserId, when given, must be the caller. */
export const DiagramListQuery = z.object({
  uid: plantUid.optional(),
  nodeUserId: z.string().trim().max(64, "too_long").optional(),
});

export const DiagramBindingSchema = z.object({
  element: z.string().regex(ELEMENT_ID, "invalid_element_id"),
  device_uid: z.string().trim().min(1, "required").max(64, "too_long"),
});

/** PUT /diagram/{plantUid}/svg */
export const DiagramUpload = z.object({
  svg: z
    .string({ required_error: "required" })
    .min(1, "required")
    .refine((s) => new TextEncoder().encode(s).length <= SVG_MAX_BYTES, "too_large"),
  bindings: z.array(DiagramBindingSchema).max(BINDINGS_MAX, "too_many").default([]),
});
export type DiagramUploadInput = z.infer<typeof DiagramUpload>;

export const DiagramUploadResponse = z.object({
  plant_uid: z.string(),
  /** Ids of the elements of the stored (sanitised) drawing, which bindings may name. */
  elements: z.array(z.string()),
  bindings: z.array(DiagramBinding),
  /** What the sanitiser took out (tag and attribute names), so the administrator knows. */
  removed: z.array(z.string()),
});
export type DiagramUploadResponse = z.infer<typeof DiagramUploadResponse>;
