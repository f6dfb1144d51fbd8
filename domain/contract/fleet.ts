/**
 * Payloads of the fleet administration calls (SPEC §7 plants, RTUs, devices, /por, /total, /crawling):
 * the list rows, the select options and the import report. Request bodies and their zod schemas are in
 * domain/fleet.ts (both the API and the portal parse them).
 */
import { z } from "zod";
import { CommState, RtuConfigFlags } from "./shared";

export const NodeOption = z.object({
  seq: z.number(),
  name: z.string(),
  depth: z.number(),
});
export type NodeOption = z.infer<typeof NodeOption>;

export const PackageOption = z.object({
  seq: z.number(),
  name: z.string(),
});
export type PackageOption = z.infer<typeof PackageOption>;

export const PlantRow = z.object({
  uid: z.string(),
  name: z.string(),
  alias: z.string().nullable(),
  capa: z.number(),
  locality: z.string().nullable(),
  plantLocality: z.string().nullable(),
  address: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  node_seq: z.number().nullable(),
  nodeName: z.string().nullable(),
  package_seq: z.number().nullable(),
  packageName: z.string().nullable(),
  rtu_count: z.number(),
  device_count: z.number(),
  status: z.number(),
  statusName: z.string(),
  editable: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type PlantRow = z.infer<typeof PlantRow>;

export const RtuRow = z.object({
  uid: z.string(),
  hex_rtu_uid: z.string(),
  alias: z.string().nullable(),
  name: z.string(),
  mac: z.string().nullable(),
  kind: z.number(),
  plant_uid: z.string().nullable(),
  plantName: z.string().nullable(),
  node_seq: z.number().nullable(),
  nodeName: z.string().nullable(),
  package_seq: z.number().nullable(),
  packageName: z.string().nullable(),
  config: z.number(),
  configFlags: RtuConfigFlags,
  use_yn: z.number(),
  last_seen_at: z.number().nullable(),
  comm: CommState,
  device_count: z.number(),
  hasCredential: z.boolean(),
  editable: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type RtuRow = z.infer<typeof RtuRow>;

export const DeviceRow = z.object({
  uid: z.string(),
  rtu_uid: z.string().nullable(),
  plant_uid: z.string().nullable(),
  kind: z.number(),
  name: z.string(),
  address: z.number().nullable(),
  capa: z.number().nullable(),
  use_yn: z.number(),
  rtuAlias: z.string().nullable(),
  rtuName: z.string().nullable(),
  plantName: z.string().nullable(),
  lastSeenAt: z.number().nullable(),
  comm: CommState,
  editable: z.boolean(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type DeviceRow = z.infer<typeof DeviceRow>;

/** GET /total. */
export const TotalResponse = z.object({
  totalList: z.array(
    z.object({
      plant_uid: z.string(),
      name: z.string(),
      capa: z.number(),
      nodeName: z.string().nullable(),
      rtu_count: z.number(),
      rtu_alias_list: z.string(),
      rtu_mac_list: z.string(),
    }),
  ),
  total: z.object({
    plantCount: z.number(),
    capa: z.number(),
    rtuCount: z.number(),
    rtusNotInPlant: z.number(),
    deviceCount: z.number(),
  }),
  totalOfPlantList: z.array(
    z.object({
      plant_uid: z.string(),
      name: z.string(),
      inverter: z.number(),
      connectionBoard: z.number(),
      environmentSensor: z.number(),
      vcb: z.number(),
      acb: z.number(),
    }),
  ),
});
export type TotalResponse = z.infer<typeof TotalResponse>;

/** A registered source of another portal (GET /crawling/list); its password is never sent. */
export const CrawlSource = z.object({
  crawlerId: z.number(),
  site: z.string(),
  name: z.string(),
  url: z.string(),
  id: z.string(),
  node_seq: z.number().nullable(),
  address: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
  last_polled_at: z.number().nullable(),
  last_error: z.string().nullable(),
});
export type CrawlSource = z.infer<typeof CrawlSource>;

export const ImportSkipped = z.object({
  uid: z.string(),
  reason: z.union([
    z.literal("exists"),
    z.literal("mac_taken"),
    z.literal("rtu_missing"),
    z.literal("not_offered"),
    z.literal("not_allowed"),
  ]),
});
export type ImportSkipped = z.infer<typeof ImportSkipped>;

/** What an import (PUT /crawling/{plant|rtu|device}, POST /plant/copyplant) took and what it left. */
export const ImportReport = z.object({
  plants: z.object({
    imported: z.array(z.string()),
    skipped: z.array(ImportSkipped),
  }),
  rtus: z.object({
    imported: z.array(z.string()),
    skipped: z.array(ImportSkipped),
  }),
  devices: z.object({
    imported: z.array(z.string()),
    skipped: z.array(ImportSkipped),
  }),
  rejected: z.number(),
});
export type ImportReport = z.infer<typeof ImportReport>;
