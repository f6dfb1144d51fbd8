/**
 * Rules of the fleet administration screens (plants, devices, RTUs): communication state, coordinate
 * bounds, and the zod schemas shared by the /api handlers and the portal forms (SPEC §3 field names on
 * the API side). Pure: no I/O.
 */
import { z } from "zod";
import { wholeNumber } from "./contract/params";
import { DEVICE_KINDS, type DeviceKind } from "./device";

/** Gateways push every 10 minutes; an RTU is online when it was seen within 3 intervals. */
export const PUSH_INTERVAL_MS = 10 * 60_000;
export const ONLINE_INTERVALS = 3;
export const COMM_STATES = ["online", "offline", "never"] as const;
export type CommState = (typeof COMM_STATES)[number];

export function commState(lastSeenAt: number | null | undefined, now = Date.now(), intervals = ONLINE_INTERVALS): CommState {
  if (lastSeenAt == null || !Number.isFinite(Number(lastSeenAt))) return "never";
  return now - Number(lastSeenAt) <= intervals * PUSH_INTERVAL_MS ? "online" : "offline";
}

/** South Korea, roughly (Jeju to the DMZ, Heuksando to Dokdo/Ulleungdo). */
export const KOREA_BOUNDS = { latMin: 33, latMax: 39, lngMin: 124, lngMax: 132 } as const;

export function inKorea(lat: number, lng: number): boolean {
  return lat >= KOREA_BOUNDS.latMin && lat <= KOREA_BOUNDS.latMax && lng >= KOREA_BOUNDS.lngMin && lng <= KOREA_BOUNDS.lngMax;
}

/** Empty strings (untouched form fields) count as absent. */
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : v.trim()) : v),
    z.string().max(max, "too_long").nullable().optional(),
  );
const optionalNumber = (schema: z.ZodNumber) =>
  z.preprocess(blankToUndefined, z.coerce.number({ invalid_type_error: "not_a_number" }).pipe(schema).nullable().optional());
/** A positive whole number or absent; a form's text ("12") becomes the number (blank: absent). */
export const optionalInt = () =>
  z.preprocess(
    blankToUndefined,
    z.coerce.number({ invalid_type_error: "not_a_number" }).int("not_an_integer").positive("required").nullable().optional(),
  );

export const UID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const uid = z.string().trim().regex(UID_PATTERN, "bad_uid");
const optionalUid = z.preprocess((v) => blankToUndefined(v) ?? null, uid.nullable().optional());

const lat = z.number().finite("not_a_number").min(KOREA_BOUNDS.latMin, "out_of_korea").max(KOREA_BOUNDS.latMax, "out_of_korea");
const lng = z.number().finite("not_a_number").min(KOREA_BOUNDS.lngMin, "out_of_korea").max(KOREA_BOUNDS.lngMax, "out_of_korea");

/** Largest plant: 1 GW = 100 000 000 raw units of 10 W. */
export const MAX_CAPA_RAW = 100_000_000;

function coordinatePair<T extends { lat?: number | null; lng?: number | null }>(v: T, ctx: z.RefinementCtx) {
  const hasLat = v.lat != null;
  const hasLng = v.lng != null;
  if (hasLat !== hasLng) ctx.addIssue({ code: "custom", path: [hasLat ? "lng" : "lat"], message: "pair_required" });
}

/** POST/PUT /api/plant body. `capa` is raw (×0.01 = kW, SPEC §9). */
export const PlantBodySchema = z
  .object({
    uid: optionalUid,
    name: z.string({ required_error: "required" }).trim().min(1, "required").max(100, "too_long"),
    alias: optionalText(100),
    capa: z.coerce
      .number({ invalid_type_error: "not_a_number" })
      .int("not_an_integer")
      .min(1, "too_small")
      .max(MAX_CAPA_RAW, "too_large"),
    locality: optionalText(50),
    address: optionalText(200),
    lat: optionalNumber(lat),
    lng: optionalNumber(lng),
    packageSeq: optionalInt(),
    nodeSeq: optionalInt(),
  })
  .superRefine(coordinatePair);
export type PlantBody = z.infer<typeof PlantBodySchema>;

/** kW with at most 2 decimals (the raw unit is 10 W) → raw. */
export function kwToRaw(kw: number): number {
  return Math.round(kw * 100);
}

/** The plant form of the portal: capacity typed in kW. */
export const PlantFormSchema = z
  .object({
    uid: optionalUid,
    name: z.string().trim().min(1, "required").max(100, "too_long"),
    alias: optionalText(100),
    capaKw: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ required_error: "required", invalid_type_error: "not_a_number" })
        .finite("not_a_number")
        .min(0.01, "too_small")
        .max(MAX_CAPA_RAW / 100, "too_large")
        .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "two_decimals"),
    ),
    locality: optionalText(50),
    address: optionalText(200),
    lat: optionalNumber(lat),
    lng: optionalNumber(lng),
    packageSeq: optionalInt(),
    nodeSeq: optionalInt(),
  })
  .superRefine(coordinatePair);
export type PlantForm = z.infer<typeof PlantFormSchema>;

export function plantFormToBody(f: PlantForm): PlantBody {
  const { capaKw, ...rest } = f;
  return { ...rest, capa: kwToRaw(capaKw) };
}

/** An API field name → the form field that shows its error. */
export function plantErrorField(apiField: string): string {
  return apiField === "capa" ? "capaKw" : apiField;
}

const deviceKind = z.coerce
  .number({ invalid_type_error: "required" })
  .refine((v): v is DeviceKind => DEVICE_KINDS.includes(v as DeviceKind), "bad_kind");

/** POST/PUT /api/device body (and the device form: same names). `capaKw` for inverters only. */
export const DeviceBodySchema = z
  .object({
    uid: optionalUid,
    name: z.string().trim().min(1, "required").max(100, "too_long"),
    kind: deviceKind,
    rtuUid: optionalUid,
    plantUid: optionalUid,
    address: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ invalid_type_error: "not_a_number" })
        .int("not_an_integer")
        .min(0, "too_small")
        .max(255, "too_large")
        .nullable()
        .optional(),
    ),
    capaKw: optionalNumber(
      z
        .number()
        .finite("not_a_number")
        .min(0.01, "too_small")
        .max(MAX_CAPA_RAW / 100, "too_large"),
    ),
    use: z.preprocess(
      (v) => (v === undefined ? undefined : v === true || v === "1" || v === 1 || v === "on"),
      z.boolean().optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.kind !== 1 && v.capaKw != null) ctx.addIssue({ code: "custom", path: ["capaKw"], message: "inverters_only" });
  });
export type DeviceBody = z.infer<typeof DeviceBodySchema>;

const MAC = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$|^[0-9A-Fa-f]{12}$/;

/** Normalises a MAC to upper-case colon form. */
export function normalizeMac(mac: string): string {
  const hex = mac.replace(/[^0-9A-Fa-f]/g, "").toUpperCase();
  return hex.match(/.{2}/g)!.join(":");
}

/** POST/PUT /api/rtu body (and the RTU form). Config bits as booleans (SPEC §6). */
export const RtuBodySchema = z.object({
  uid: optionalUid,
  name: z.string().trim().min(1, "required").max(100, "too_long"),
  alias: optionalText(100),
  mac: z.preprocess(
    (v) => blankToUndefined(v) ?? null,
    z.string().trim().regex(MAC, "bad_mac").transform(normalizeMac).nullable().optional(),
  ),
  kind: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ invalid_type_error: "not_a_number" })
      .int("not_an_integer")
      .min(1, "too_small")
      .max(99, "too_large")
      .default(1),
  ),
  packageSeq: optionalInt(),
  nodeSeq: optionalInt(),
  use: z.preprocess(
    (v) => (v === undefined ? undefined : v === true || v === "1" || v === 1 || v === "on"),
    z.boolean().optional(),
  ),
  lteRouter: z.preprocess((v) => v === true || v === "1" || v === "on", z.boolean()).optional(),
  zigbee: z.preprocess((v) => v === true || v === "1" || v === "on", z.boolean()).optional(),
  invDetail: z.preprocess((v) => v === true || v === "1" || v === "on", z.boolean()).optional(),
  lora: z.preprocess((v) => v === true || v === "1" || v === "on", z.boolean()).optional(),
});
export type RtuBody = z.infer<typeof RtuBodySchema>;

/** A URL of another instance or source: http(s) only. */
export const RemoteUrlSchema = z
  .string()
  .trim()
  .min(1, "required")
  .max(500, "too_long")
  .url("bad_url")
  .refine((u) => /^https?:\/\//i.test(u), "bad_url");

/** POST /api/plant/copyplant: a plant of another instance of this portal, read with an account there. */
export const CopyPlantBody = z.object({
  url: RemoteUrlSchema,
  plantUid: z.preprocess((v) => (v === "" ? undefined : v), z.string().regex(UID_PATTERN, "bad_uid").optional()),
  id: z.string().trim().min(1, "required").max(64),
  password: z.string().min(1, "required").max(256),
  nodeSeq: z.preprocess((v) => (v === "" || v == null ? undefined : v), z.coerce.number().int().positive().optional()),
});

/** Days of history POST /api/total/loadData copies in one call. */
export const MAX_LOAD_DAYS = 31;

/** POST /api/total/loadData: a plant's history from another instance, a day at a time. */
export const LoadHistoryBody = z.object({
  url: RemoteUrlSchema,
  uid: z.string().trim().regex(UID_PATTERN, "bad_uid"),
  id: z.string().trim().min(1, "required").max(64),
  password: z.string().min(1, "required").max(256),
  days: z.preprocess(
    (v) => (v === "" || v == null ? undefined : v),
    z.coerce
      .number({ invalid_type_error: "not_a_number" })
      .int("not_an_integer")
      .min(1, "too_small")
      .max(MAX_LOAD_DAYS, "too_large")
      .default(7),
  ),
});

/** Text of a delete confirmation; the API checks it with isDeleteConfirmed (SPEC §5). */
/** RTUs a plant's assignment form lists a page at a time (issue 26 point 10). */
export const ASSIGNABLE_RTU_PAGE_SIZE = 20;
/** Whose RTUs: not in any plant, or in another plant (moved here when assigned). */
export const RTU_ASSIGNED_FILTERS = ["free", "other"] as const;

/**
 * GET /management/plant/rtu: RTUs that could be assigned to plant `exclude`, narrowed by a search (uid, name, alias,
 * MAC or plant name holding `q`), by where they are now (`assigned`), by group (`group`: the RTU's or its plant's
 * group, subgroups included), a page at a time.
 */
export const AssignableRtuQuerySchema = z.object({
  exclude: z.string().trim().max(64).optional(),
  q: z.string().trim().max(100, "too_long").optional(),
  assigned: z.enum(RTU_ASSIGNED_FILTERS, { errorMap: () => ({ message: "unknown_filter" }) }).optional(),
  group: wholeNumber(1, 2 ** 31 - 1).optional(),
  page: wholeNumber(1, 100_000).default(1),
  size: wholeNumber(1, 200).default(ASSIGNABLE_RTU_PAGE_SIZE),
});
export type AssignableRtuQuery = z.infer<typeof AssignableRtuQuerySchema>;

export const DeleteConfirmSchema = z.object({ confirm: z.string().max(50).optional() });
