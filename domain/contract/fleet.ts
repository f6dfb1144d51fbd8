/**
 * Payloads of the fleet administration calls (SPEC §7 plants, RTUs, devices, /por, /total, /crawling):
 * the list rows, the select options and the import report. Request bodies and their zod schemas are in
 * domain/fleet.ts (both the API and the portal parse them).
 */
import type { CommState } from "../fleet";
import type { RtuConfigKey } from "../rtu-config";

export interface NodeOption {
  seq: number;
  name: string;
  depth: number;
}

export interface PackageOption {
  seq: number;
  name: string;
}

export interface PlantRow {
  uid: string;
  name: string;
  alias: string | null;
  capa: number;
  locality: string | null;
  plantLocality: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  node_seq: number | null;
  nodeName: string | null;
  package_seq: number | null;
  packageName: string | null;
  rtu_count: number;
  device_count: number;
  status: number;
  statusName: string;
  editable: boolean;
  created_at: number;
  updated_at: number;
}

export interface RtuRow {
  uid: string;
  hex_rtu_uid: string;
  alias: string | null;
  name: string;
  mac: string | null;
  kind: number;
  plant_uid: string | null;
  plantName: string | null;
  node_seq: number | null;
  nodeName: string | null;
  package_seq: number | null;
  packageName: string | null;
  config: number;
  configFlags: Record<RtuConfigKey, boolean>;
  use_yn: number;
  last_seen_at: number | null;
  comm: CommState;
  device_count: number;
  hasCredential: boolean;
  editable: boolean;
  created_at: number;
  updated_at: number;
}

export interface DeviceRow {
  uid: string;
  rtu_uid: string | null;
  plant_uid: string | null;
  kind: number;
  name: string;
  address: number | null;
  capa: number | null;
  use_yn: number;
  rtuAlias: string | null;
  rtuName: string | null;
  plantName: string | null;
  lastSeenAt: number | null;
  comm: CommState;
  editable: boolean;
  created_at: number;
  updated_at: number;
}

/** GET /total. */
export interface TotalResponse {
  totalList: Array<{
    plant_uid: string;
    name: string;
    capa: number;
    nodeName: string | null;
    rtu_count: number;
    rtu_alias_list: string;
    rtu_mac_list: string;
  }>;
  total: { plantCount: number; capa: number; rtuCount: number; rtusNotInPlant: number; deviceCount: number };
  totalOfPlantList: Array<{
    plant_uid: string;
    name: string;
    inverter: number;
    connectionBoard: number;
    environmentSensor: number;
    vcb: number;
    acb: number;
  }>;
}

/** A registered source of another portal (GET /crawling/list); its password is never sent. */
export interface CrawlSource {
  crawlerId: number;
  site: string;
  name: string;
  url: string;
  id: string;
  node_seq: number | null;
  address: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  last_polled_at: number | null;
  last_error: string | null;
}

export interface ImportSkipped {
  uid: string;
  reason: "exists" | "mac_taken" | "rtu_missing" | "not_offered" | "not_allowed";
}

/** What an import (PUT /crawling/{plant|rtu|device}, POST /plant/copyplant) took and what it left. */
export interface ImportReport {
  plants: { imported: string[]; skipped: ImportSkipped[] };
  rtus: { imported: string[]; skipped: ImportSkipped[] };
  devices: { imported: string[]; skipped: ImportSkipped[] };
  rejected: number;
}
