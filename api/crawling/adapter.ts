/**
 * External sources of plants, RTUs and devices ("crawling", SPEC §3 Crawling plant/device). Every source
 * type sits behind this one interface so vendor portals can be added beside the `portal` adapter
 * (another instance of this software). Adapters return plain, validated records; the importer
 * (import.ts) decides what is written. Every request an adapter makes goes through the source's
 * budget (budget.ts): one at a time and rate-limited per source.
 */
import { z } from "zod";
import { DEVICE_KINDS } from "../../domain/device";
import { UID_PATTERN } from "../../domain/fleet";

const text = (max: number) => z.preprocess((v) => (typeof v === "string" ? v.trim().slice(0, max) : v), z.string());
const optText = (max: number) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim().slice(0, max) : null), z.string().nullable());
const optNum = z.preprocess((v) => (v == null || v === "" ? null : Number(v)), z.number().finite().nullable());
const uid = z.string().regex(UID_PATTERN);

export const OfferPlantSchema = z.object({
  uid,
  name: text(100).pipe(z.string().min(1)),
  alias: optText(100),
  capa: z.coerce.number().int().min(0).max(100_000_000),
  locality: optText(50),
  address: optText(200),
  lat: optNum,
  lng: optNum,
});
export const OfferRtuSchema = z.object({
  uid,
  name: text(100).pipe(z.string().min(1)),
  alias: optText(100),
  mac: optText(17),
  kind: z.coerce.number().int().min(1).max(99).catch(1),
  plant_uid: uid.nullable().catch(null),
  config: z.coerce.number().int().min(0).max(0xffff).catch(0),
});
export const OfferDeviceSchema = z.object({
  uid,
  rtu_uid: uid.nullable().catch(null),
  plant_uid: uid.nullable().catch(null),
  kind: z.coerce.number().refine((k) => (DEVICE_KINDS as readonly number[]).includes(k)),
  name: text(100).pipe(z.string().min(1)),
  address: z.coerce.number().int().min(0).max(255).nullable().catch(null),
  capa: optNum.catch(null),
  lastSeenAt: optNum.catch(null),
});
export type OfferPlant = z.infer<typeof OfferPlantSchema>;
export type OfferRtu = z.infer<typeof OfferRtuSchema>;
export type OfferDevice = z.infer<typeof OfferDeviceSchema>;

export interface SourceOffer {
  plants: OfferPlant[];
  rtus: OfferRtu[];
  devices: OfferDevice[];
  /** Records the source sent that did not validate (counted, not imported). */
  rejected: number;
}

/** One day of a plant's history, table by table (the shapes of the local tables). */
export interface HistoryPage {
  devices: Array<{ uid: string; kind: number }>;
  tables: Record<string, Array<Record<string, unknown>>>;
}

export interface CrawlAdapter {
  readonly site: string;
  /** Everything the source offers to this login. */
  list(): Promise<SourceOffer>;
  /** One plant with its RTUs and devices. */
  plant(plantUid: string): Promise<SourceOffer>;
  /** History of a plant for [start, end) — only sources that have it. */
  history?(plantUid: string, start: number, end: number): Promise<HistoryPage>;
}

export interface SourceLogin {
  site: string;
  baseUrl: string;
  id: string;
  password: string;
}

export const SITES = ["portal"] as const;
export type Site = (typeof SITES)[number];

export class SourceError extends Error {
  constructor(
    public code: "unreachable" | "login_failed" | "forbidden" | "not_found" | "bad_answer" | "too_large",
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
  }
}

/** Validates records from a source one by one; bad ones are counted and left out. */
export function validateOffer(raw: { plants: unknown[]; rtus: unknown[]; devices: unknown[] }): SourceOffer {
  let rejected = 0;
  const keep = <S extends z.ZodTypeAny>(schema: S, items: unknown[]): Array<z.output<S>> =>
    items.flatMap((item) => {
      const r = schema.safeParse(item);
      if (!r.success) rejected++;
      return r.success ? [r.data] : [];
    });
  return {
    plants: keep(OfferPlantSchema, raw.plants),
    rtus: keep(OfferRtuSchema, raw.rtus),
    devices: keep(OfferDeviceSchema, raw.devices),
    get rejected() {
      return rejected;
    },
  };
}
