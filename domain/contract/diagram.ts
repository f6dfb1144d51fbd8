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

export interface ElementAlarm {
  code: number;
  level: number;
  message: string;
  raised_at: number;
}

/** Live values of an element, in SI units as the gateways send them. */
export interface ElementValues {
  /** Active power, W. */
  w?: number | null;
  /** Voltage, V. */
  v?: number | null;
  /** Current, A. */
  a?: number | null;
  /** Ground-fault (leakage) current, mA. */
  gf_ma?: number | null;
  /** Energy today, Wh (inverters). */
  today_wh?: number | null;
  /** Breaker position. */
  breaker?: "closed" | "open" | null;
  /** Inverter fault code, when it reports one. */
  fault_code?: number | null;
}

export interface DiagramElement {
  /** Stable within a plant: `grid`, `tr-1`, `dev:<uid>`, `str:<board uid>:<n>`. */
  id: string;
  type: ElementType;
  name: string;
  device_uid: string | null;
  kind: number | null;
  /** Time of the newest reading, epoch ms. */
  ts: number | null;
  values: ElementValues;
  condition: Condition;
  alarm: ElementAlarm | null;
  children: DiagramElement[];
}

export interface DiagramBinding {
  /** The id of an element in the uploaded SVG. */
  element: string;
  device_uid: string;
}

/** A device with its live state, flat (for uploaded diagrams, whose elements are bound to devices). */
export interface DiagramDevice {
  device_uid: string;
  kind: number;
  name: string;
  ts: number | null;
  values: ElementValues;
  condition: Condition;
  alarm: ElementAlarm | null;
}

/** An environment sensor's newest reading: irradiance horizontal / plane of array (W/m²), module / ambient °C. */
export interface SensorReading {
  device_uid: string;
  name: string;
  ts: number | null;
  his: number | null;
  iis: number | null;
  sts: number | null;
  ats: number | null;
  condition: Condition;
}

export interface DiagramResponse {
  plant: { plant_uid: string; name: string; capa: number; locality: string | null };
  /** `auto`: drawn from the device topology; `svg`: an administrator's uploaded drawing. */
  kind: "auto" | "svg";
  root: DiagramElement;
  devices: DiagramDevice[];
  /** Environment sensors beside the single line (irradiance, temperatures). */
  sensors: SensorReading[];
  svg: string | null;
  bindings: DiagramBinding[];
  uploaded_at: number | null;
  uploaded_by: string | null;
  /** May this member replace the drawing (plant administration, SPEC §6)? */
  editable: boolean;
  now: number;
}

export interface DiagramListItem {
  plant_uid: string;
  name: string;
  locality: string | null;
  kind: "auto" | "svg";
}

export interface DiagramListResponse {
  diagramList: DiagramListItem[];
}

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

export interface DiagramUploadResponse {
  plant_uid: string;
  /** Ids of the elements of the stored (sanitised) drawing, which bindings may name. */
  elements: string[];
  bindings: DiagramBinding[];
  /** What the sanitiser took out (tag and attribute names), so the administrator knows. */
  removed: string[];
}
