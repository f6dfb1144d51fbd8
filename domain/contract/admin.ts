/**
 * Answers of the administration calls (SPEC §7 member, notice, node, plant, device, RTU, settings, fault codes,
 * import): the rows and the small confirmations the routes give back. Their request bodies are the zod schemas of
 * domain/member-form.ts, domain/notice-form.ts, domain/group-tree.ts, domain/fleet.ts and domain/settings.ts.
 */
import { z } from "zod";
import { MemberProfile } from "./auth";
import { CrawlSource, DeviceRow, ImportReport, NodeOption, PackageOption, PlantRow, RtuRow } from "./fleet";

/** A stored row given as the store holds it (column names of api/store/schema.ts); the listed fields always come. */
const storeRow = <T extends z.ZodRawShape>(shape: T) => z.object(shape).passthrough();

// ---- Members (/setting/id) ----

/** A member row as the admin list and detail calls return it (SPEC §3 Member). */
export const MemberAdminRow = MemberProfile.extend({
  diagram: z.number(),
  cctv: z.number(),
  page: z.number(),
  plantCount: z.number(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type MemberAdminRow = z.infer<typeof MemberAdminRow>;

export const MemberListResponse = z.object({
  memberList: z.array(MemberAdminRow),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
export type MemberListResponse = z.infer<typeof MemberListResponse>;

export const MemberPlantLink = z.object({
  uid: z.string(),
  name: z.string(),
  node_seq: z.number().nullable(),
  linked_at: z.number(),
});
export type MemberPlantLink = z.infer<typeof MemberPlantLink>;

/** GET /member/{id}. */
export const MemberDetailResponse = z.object({
  member: MemberAdminRow,
  memberOfPlantList: z.array(MemberPlantLink),
  memberOfRTUs: z.array(
    z.object({ uid: z.string(), name: z.string(), alias: z.string().nullable(), plant_uid: z.string().nullable() }),
  ),
});
export type MemberDetailResponse = z.infer<typeof MemberDetailResponse>;

/** POST /member, PUT /member/{id}. */
export const MemberAnswer = z.object({ member: MemberAdminRow });
/** GET /member/check/id/{id}: `valid` is false when the id breaks the id pattern. */
export const MemberIdCheck = z.object({ id: z.string(), valid: z.boolean(), exists: z.boolean() });
/** GET|POST|DELETE /member/link/{a}/{b}. */
export const MemberPlantLinkState = z.object({
  member_id: z.string(),
  plant_uid: z.string(),
  linked: z.boolean(),
  /** GET only: when the link was made (null: not linked). */
  created_at: z.number().nullable().optional(),
});
export const MemberDeleted = z.object({ member_id: z.string(), deleted: z.literal(true) });
export const MemberPasswordReset = z.object({ member_id: z.string(), pwd_yn: z.literal(1) });
/** POST|DELETE /member/logo/{id}: the stored file name (null: removed). */
export const MemberLogo = z.object({ member_id: z.string(), logo: z.string().nullable() });

// ---- Notices ----

export const NoticeRow = z.object({
  seq: z.number(),
  content: z.string(),
  use: z.number(),
  author_id: z.string().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type NoticeRow = z.infer<typeof NoticeRow>;
export const NoticeListResponse = z.object({ noticeList: z.array(NoticeRow) });
export const NoticeAnswer = z.object({ notice: NoticeRow });
export const NoticesDeleted = z.object({ deleted: z.number(), noticesSeq: z.array(z.number()) });

// ---- Group tree ----

export const GroupNode = z.object({
  seq: z.number(),
  parent_seq: z.number().nullable(),
  name: z.string(),
  sort_order: z.number(),
});
/** A group as GET /node/group/list returns it (SPEC §3 Node management groupList). */
export const GroupRow = GroupNode.extend({
  plantCount: z.number(),
  rtuCount: z.number(),
  memberCount: z.number(),
  childCount: z.number(),
});
export type GroupRow = z.infer<typeof GroupRow>;
export const GroupListResponse = z.object({
  /** The member's own node: the root of what they may see and edit (null: the member is in no group). */
  rootSeq: z.number().nullable(),
  groupList: z.array(GroupRow),
  plantList: z.array(z.object({ uid: z.string(), name: z.string(), node_seq: z.number().nullable(), rtuCount: z.number() })),
  rtuList: z.array(
    z.object({
      uid: z.string(),
      name: z.string(),
      alias: z.string().nullable(),
      mac: z.string().nullable(),
      node_seq: z.number().nullable(),
      plant_uid: z.string().nullable(),
    }),
  ),
  /** RTUs (under the visible nodes) that are attached to no plant (SPEC §3 Group data). */
  rtusNotInPlant: z.array(
    z.object({
      uid: z.string(),
      name: z.string(),
      alias: z.string().nullable(),
      mac: z.string().nullable(),
      node_seq: z.number().nullable(),
    }),
  ),
});
export type GroupListResponse = z.infer<typeof GroupListResponse>;
/** GET /node/{id}: one group with its direct children and plants. */
export const GroupDetail = z.object({
  node: GroupNode.extend({
    children: z.array(GroupNode),
    plantList: z.array(storeRow({ uid: z.string(), name: z.string() })),
  }),
});
/** POST /node, PUT /node/{id}. */
export const GroupAnswer = z.object({ node: GroupNode });
export const GroupDeleted = z.object({ seq: z.number(), deleted: z.literal(true) });

// ---- Plants, devices, RTUs ----

export const PlantListResponse = z.object({ plantList: z.array(PlantRow) });
export const PlantAnswer = z.object({ plant: PlantRow });
/** POST /plant, PUT /plant/{id}: `geocoded` says the coordinates were looked up from the address. */
export const PlantSaved = z.object({ plant: PlantRow, geocoded: z.boolean() });
export const PlantDeleted = z.object({
  deleted: z.string(),
  devices: z.number(),
  rtusUnassigned: z.number(),
  memberLinks: z.number(),
  alarms: z.number(),
});
/** GET /management/options: choices of the admin forms. */
export const AdminFormOptions = z.object({
  packageList: z.array(PackageOption),
  nodeList: z.array(NodeOption),
  /** Whether an address without coordinates is geocoded (MAPS_KEY set). */
  geocoding: z.boolean(),
});
/** GET /management/plant. */
export const PlantManagementResponse = AdminFormOptions.extend({ plantList: z.array(PlantRow) });
/** GET /management/plant/setting: one plant with its RTUs and devices as stored. */
export const PlantSettingResponse = AdminFormOptions.extend({
  plant: PlantRow,
  rtuList: z.array(storeRow({ uid: z.string(), hasCredential: z.boolean() })),
  deviceList: z.array(storeRow({ uid: z.string() })),
});
/** GET /management/plant/rtu: RTUs that could be assigned to a plant, a page at a time. */
export const AssignableRtuList = z.object({
  rtuList: z.array(storeRow({ uid: z.string(), plant_uid: z.string().nullable(), plantName: z.string().nullable() })),
  total: z.number(),
  page: z.number(),
  size: z.number(),
});
/** GET /plant/{id}/history: one window of a plant's stored history, rows in the store's column names. */
export const PlantHistory = z.object({
  plantUid: z.string(),
  start: z.number(),
  end: z.number(),
  devices: z.array(z.object({ uid: z.string(), kind: z.number() })),
  tables: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
/** POST /total/loadData: what a history load from another instance stored. */
export const HistoryLoadReport = z.object({
  plantUid: z.string(),
  days: z.number(),
  inserted: z.record(z.string(), z.number()),
  skippedRows: z.number(),
  unknownDevices: z.array(z.string()),
});
/** POST /plant/copyplant. */
export const PlantCopied = z.object({ plantUid: z.string(), report: ImportReport });

export const DeviceListResponse = z.object({ deviceList: z.array(DeviceRow) });
export const DeviceAnswer = z.object({ device: DeviceRow });
/** DELETE /device/{uid}, /code/{code}, /crawling/source/{id}: the key of what was deleted. */
export const Deleted = z.object({ deleted: z.union([z.string(), z.number()]) });

export const RtuListResponse = z.object({ rtuList: z.array(RtuRow) });
export const RtuAnswer = z.object({ rtu: RtuRow });
/** GET /rtu/{uid}: the RTU and its devices as stored. */
export const RtuDetail = z.object({ rtu: RtuRow, deviceList: z.array(storeRow({ uid: z.string() })) });
/** POST /rtu: the gateway secret, shown this once (only its hash is stored). */
export const RtuCreated = z.object({ rtu: RtuRow, secret: z.string() });
/** POST /rtu/{uid}/credential: a new gateway secret, shown this once. */
export const RtuCredential = z.object({ rtuUid: z.string(), secret: z.string() });
export const RtuDeleted = z.object({ deleted: z.string(), devices: z.number() });
/** POST /por: the RTUs now assigned to the plant; DELETE /por: the RTUs now assigned to none. */
export const RtuAssignment = z.object({ plantUid: z.string().optional(), rtus: z.array(z.string()) });

// ---- Settings, fault codes, import ----

/** GET /settings: every setting type's values, and who changed each type last. */
export const SettingsResponse = z
  .object({
    meta: z.record(z.string(), z.object({ updatedAt: z.number(), updatedBy: z.string().nullable() })),
  })
  .catchall(z.record(z.string(), z.unknown()));
/** PUT /settings/{type}: `{<type>: values}` as saved. */
export const SettingSaved = z.record(z.string(), z.record(z.string(), z.unknown()));
/** A row of the fault-code table (the names of an inverter's fault bits). */
export const FaultCodeRow = z.object({
  code: z.number(),
  hex: z.string(),
  name_ko: z.string(),
  name_en: z.string(),
  level: z.number(),
});
export type FaultCodeRow = z.infer<typeof FaultCodeRow>;
export const FaultCodeList = z.object({ codeList: z.array(FaultCodeRow) });
export const FaultCodeAnswer = z.object({ code: FaultCodeRow });

export const CrawlSourceList = z.object({ crawlerList: z.array(CrawlSource) });
export const CrawlSourceAnswer = z.object({ crawler: CrawlSource });
/** GET /crawling/list/{id}: what a source offers (SPEC §3 Crawling device), `exists` when already here. */
export const CrawlOffer = z.object({
  crawler: CrawlSource,
  plantList: z.array(storeRow({ uid: z.string(), exists: z.boolean() })),
  rtuList: z.array(storeRow({ uid: z.string(), exists: z.boolean() })),
  deviceList: z.array(storeRow({ deviceId: z.string(), exists: z.boolean() })),
  rejected: z.number(),
});

/** POST /ingest: what a gateway's batch left. */
export const IngestReport = z.object({
  batchId: z.string().nullable(),
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.array(
    z.object({
      index: z.number(),
      device: z.string().nullable(),
      ts: z.number().nullable(),
      reason: z.string(),
      field: z.string().optional(),
    }),
  ),
});
