/**
 * The part of the OpenAPI description written by the zod schemas themselves (issue 27 point 1): every request
 * body the server validates with a schema of `domain/` is turned into a JSON Schema component here
 * (@asteasolutions/zod-to-openapi), so the YAML parts refer to `#/components/schemas/<Name>` instead of
 * repeating the fields. Enums the server checks (compareType, the admin delete key) come from the same
 * constants the routes use.
 */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z, ZodEnum, ZodLiteral, ZodType, ZodUnion, type ZodTypeAny } from "zod";
import { ADMIN_DELETE_KEY } from "../domain/admin-delete";
import { AlarmAckSchema, AlertPrefSchema, AlertRoutesSchema, CommandSchema, PlantContactsSchema } from "../domain/contract/alarm";
import { CameraCreate, CameraUpdate } from "../domain/contract/cctv";
import { CurtailmentImportBody, CurtailmentOrderBody } from "../domain/contract/curtailment";
import { CustomPageInput } from "../domain/contract/custom";
import { ALL_COMPARE_TYPES, CoefficientsSchema, DiagnoseRequestSchema } from "../domain/contract/diagnose";
import { DiagramUpload } from "../domain/contract/diagram";
import { GRID_RELEASE_KINDS, GridAlarmReleaseInput } from "../domain/contract/measurement";
import { SubscriptionBody } from "../domain/contract/statistics";
import { CopyPlantBody, DeviceBodySchema, LoadHistoryBody, PlantBodySchema, RtuBodySchema } from "../domain/fleet";
import { GroupCreateFields, GroupUpdateFields } from "../domain/group-tree";
import { LoginBody, MemberCreateFields, MemberPatchFields, MemberProfileFields, PasswordChangeBody } from "../domain/member-form";
import { NoticeFields } from "../domain/notice-form";
import {
  WorkOrderCreateSchema,
  WorkOrderNoteSchema,
  WorkOrderStateSchema,
  WorkOrderUpdateSchema,
} from "../domain/contract/work-order";
import { FaultCodeSchema, SETTING_SCHEMAS } from "../domain/settings";
import * as adminPayloads from "../domain/contract/admin";
import * as alarmPayloads from "../domain/contract/alarm";
import * as authPayloads from "../domain/contract/auth";
import * as cctvPayloads from "../domain/contract/cctv";
import * as customPayloads from "../domain/contract/custom";
import * as detailPayloads from "../domain/contract/detail";
import * as diagnosePayloads from "../domain/contract/diagnose";
import * as diagramPayloads from "../domain/contract/diagram";
import * as errorPayloads from "../domain/contract/errors";
import * as fleetPayloads from "../domain/contract/fleet";
import * as healthPayloads from "../domain/contract/health";
import * as helpPayloads from "../domain/contract/help";
import * as measurementPayloads from "../domain/contract/measurement";
import * as monitorPayloads from "../domain/contract/monitor";
import * as pvstatusPayloads from "../domain/contract/pvstatus";
import * as sharedPayloads from "../domain/contract/shared";
import * as statisticsPayloads from "../domain/contract/statistics";
import * as statusPayloads from "../domain/contract/status";
import * as watchPayloads from "../domain/contract/watch";

extendZodWithOpenApi(z);

/** Component name → the schema the server parses that body with. */
const BODIES: Record<string, ZodTypeAny> = {
  LoginBody,
  PasswordChangeBody,
  MemberProfileBody: MemberProfileFields,
  MemberEditBody: MemberPatchFields,
  MemberCreateBody: MemberCreateFields,
  NoticeBody: NoticeFields,
  GroupCreateBody: GroupCreateFields,
  GroupUpdateBody: GroupUpdateFields,
  PlantBody: PlantBodySchema,
  DeviceBody: DeviceBodySchema,
  RtuBody: RtuBodySchema,
  CopyPlantBody,
  LoadHistoryBody,
  FaultCodeBody: FaultCodeSchema,
  AlarmSettingsBody: SETTING_SCHEMAS.alarm,
  PollingSettingsBody: SETTING_SCHEMAS.polling,
  AlarmNoteBody: AlarmAckSchema,
  AlertPrefBody: AlertPrefSchema,
  AlertRoutesBody: AlertRoutesSchema,
  PlantContactsBody: PlantContactsSchema,
  CommandBody: CommandSchema,
  CameraCreateBody: CameraCreate,
  CameraUpdateBody: CameraUpdate,
  CustomPageBody: CustomPageInput,
  DiagramUploadBody: DiagramUpload,
  DiagnoseRequestBody: DiagnoseRequestSchema,
  CoefficientsBody: CoefficientsSchema,
  CurtailmentOrderBody,
  CurtailmentImportBody,
  SubscriptionBody,
  WorkOrderCreateBody: WorkOrderCreateSchema,
  WorkOrderUpdateBody: WorkOrderUpdateSchema,
  WorkOrderStateBody: WorkOrderStateSchema,
  WorkOrderNoteBody: WorkOrderNoteSchema,
  // The kinds are checked by a refinement, which JSON Schema cannot read: named here from the same list.
  GridAlarmReleaseBody: GridAlarmReleaseInput.extend({
    kind: z
      .number()
      .int()
      .openapi({ enum: [...GRID_RELEASE_KINDS] }),
  }),
  CompareType: z.enum(ALL_COMPARE_TYPES as [string, ...string[]]),
  DeleteConfirmation: z.literal(ADMIN_DELETE_KEY).openapi({
    description: "the admin delete key, typed by the person deleting (case and surrounding blanks ignored)",
  }),
};

/**
 * The answers: every zod schema a module of `domain/contract/` exports, except the ones that parse a request (query,
 * body, path value), is a payload and becomes a component of its own name — the name the code uses for its type —
 * unless renamed below for clarity. The operations of api/openapi/*.yaml refer to them for their success bodies.
 */
const PAYLOAD_MODULES = [
  adminPayloads,
  alarmPayloads,
  authPayloads,
  cctvPayloads,
  customPayloads,
  detailPayloads,
  diagnosePayloads,
  diagramPayloads,
  errorPayloads,
  fleetPayloads,
  healthPayloads,
  helpPayloads,
  measurementPayloads,
  monitorPayloads,
  pvstatusPayloads,
  sharedPayloads,
  statisticsPayloads,
  statusPayloads,
  watchPayloads,
];
const NOT_PAYLOADS = new Set<ZodTypeAny>(
  [
    ...Object.values(BODIES),
    CameraCreate,
    CameraUpdate,
    CustomPageInput,
    DiagramUpload,
    GridAlarmReleaseInput,
    SubscriptionBody,
    diagramPayloads.DiagramBindingSchema,
    diagramPayloads.DiagramElementFields,
    customPayloads.CustomUnique,
    cctvPayloads.CameraUid,
    helpPayloads.HelpFileId,
    sharedPayloads.AlarmMessageParams,
  ].filter(Boolean),
);
const REQUEST_NAME = /(Schema|Query)$/;
/** Names that would say too little on their own in the whole description. */
const RENAMED: Record<string, string> = {
  Deleted: "DeletedKey",
  RowBase: "StatisticsRowBase",
  RowTotal: "StatisticsRowTotal",
  InverterRow: "StatisticsInverterRow",
  EnvRow: "StatisticsEnvRow",
  BreakerRow: "StatisticsBreakerRow",
  IntegratedRow: "StatisticsIntegratedRow",
  SeriesPoint: "StatisticsSeriesPoint",
  StatDevice: "StatisticsDevice",
  StatScope: "StatisticsScope",
  ApiErrorBody: "ApiErrorBody",
  Quantity: "DisplayQuantity",
  CalcValue: "PvstatusCalcValue",
  EnvInfo: "PvstatusEnvInfo",
  GenData: "PvstatusGenData",
  StatusData: "PvstatusStatusData",
  CardFault: "PlantCardFault",
};

/** The recursive payloads, which zod-to-openapi cannot walk (z.lazy): their JSON Schema, the recursion by $ref. */
const variant = (code: string, params: Record<string, unknown>) => ({
  type: "object",
  required: ["code", "params"],
  properties: {
    code: { const: code },
    params: { type: "object", required: Object.keys(params), properties: params },
  },
});
const RECURSIVE: Record<string, Record<string, unknown>> = {
  WatchTreeNode: {
    description: "A node of the watch tree with its plants and the nodes below it",
    allOf: [
      { $ref: "#/components/schemas/WatchTreeNodeFields" },
      {
        type: "object",
        required: ["children"],
        properties: { children: { type: "array", items: { $ref: "#/components/schemas/WatchTreeNode" } } },
      },
    ],
  },
  AlarmMessage: {
    description: "What the alarm engine found, as a code with parameters, rendered in the reader's language",
    oneOf: [
      variant("rtu_silent", { rtu: { type: "string" }, since: { type: "number" } }),
      variant("device_silent", { device: { type: "string" } }),
      variant("inverter_fault", { faultCode: { type: "integer" } }),
      variant("low_generation", {
        actualKw: { type: "number" },
        referenceKw: { type: "number" },
        ratio: { type: "number" },
      }),
      variant("plant_wide", {
        of: { type: "string", enum: ["rtus", "inverters"] },
        count: { type: "integer" },
        detail: { $ref: "#/components/schemas/AlarmMessage" },
      }),
      variant("text", { text: { type: "string" } }),
    ],
  },
  AlarmMessageParams: { type: "object", description: "the parameters of `messageCode` (see AlarmMessage)" },
  DiagramElement: {
    description: "An element of the single-line diagram and the elements below it",
    allOf: [
      { $ref: "#/components/schemas/DiagramElementFields" },
      {
        type: "object",
        required: ["children"],
        properties: { children: { type: "array", items: { $ref: "#/components/schemas/DiagramElement" } } },
      },
    ],
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the metadata slot zod-to-openapi reads
type Named = { _def: { openapi?: any } };
/**
 * Gives a schema its component name in place (not the copy `.openapi(name)` returns), so every payload that
 * carries it refers to the component instead of repeating it. `metadata` replaces what the generator would say.
 */
function nameInPlace(schema: ZodTypeAny, refId: string, metadata?: Record<string, unknown>): void {
  const def = (schema as unknown as Named)._def;
  def.openapi = { ...def.openapi, _internal: { ...def.openapi?._internal, refId }, ...(metadata && { metadata }) };
}

let payloads: Record<string, ZodTypeAny> | undefined;
/** Component name → payload schema of domain/contract (named in place once). */
export function payloadSchemas(): Record<string, ZodTypeAny> {
  if (payloads) return payloads;
  const found: Record<string, ZodTypeAny> = {};
  for (const mod of PAYLOAD_MODULES) {
    for (const [exported, value] of Object.entries(mod)) {
      if (!(value instanceof ZodType) || REQUEST_NAME.test(exported) || NOT_PAYLOADS.has(value)) continue;
      const name = RENAMED[exported] ?? exported;
      if (found[name] && found[name] !== value) throw new Error(`openapi: two payload schemas are named ${name}`);
      if (name in BODIES) throw new Error(`openapi: ${name} is the name of a request body too`);
      found[name] = value;
    }
  }
  found.DiagramElementFields = diagramPayloads.DiagramElementFields;
  found.DiagramElement = diagramPayloads.DiagramElementSchema;
  found.WatchTreeNodeFields = watchPayloads.WatchTreeNodeFields;
  found.WatchTreeNode = watchPayloads.WatchTreeNodeSchema;
  found.AlarmMessageParams = sharedPayloads.AlarmMessageParams;
  for (const [name, schema] of Object.entries(found)) {
    // A value list stays inline where it is used: zod-to-openapi makes a named enum nullable for every user once
    // one user allows null. It is still a component of its own (registered below as a copy).
    if (!isValueList(schema)) nameInPlace(schema, name, RECURSIVE[name]);
  }
  return (payloads = found);
}

const isValueList = (s: ZodTypeAny): boolean =>
  s instanceof ZodEnum || s instanceof ZodLiteral || (s instanceof ZodUnion && s.options.every(isValueList));

type JsonNode = Record<string, unknown>;
/**
 * zod-to-openapi 7 writes a nullable named schema as `allOf: [{$ref}, {type: [..., "null"]}]`, which refuses null
 * (the $ref does): written here as `anyOf: [{$ref}, {type: "null"}]`; and a nullable enum without null in it.
 */
function nullableRefs(node: unknown): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach(nullableRefs);
  const o = node as JsonNode;
  const all = o.allOf as JsonNode[] | undefined;
  if (
    all?.length === 2 &&
    typeof all[0]?.$ref === "string" &&
    Array.isArray(all[1]?.type) &&
    (all[1]!.type as string[]).includes("null") &&
    Object.keys(all[1]!).length === 1
  ) {
    delete o.allOf;
    o.anyOf = [all[0], { type: "null" }];
  }
  // Likewise a nullable value list: `type: ["string", "null"]` with an enum that does not list null.
  if (Array.isArray(o.enum) && Array.isArray(o.type) && o.type.includes("null") && !o.enum.includes(null)) {
    o.enum = [...o.enum, null];
  }
  Object.values(o).forEach(nullableRefs);
}

/** `components.schemas` generated from the zod schemas above (OpenAPI 3.1, JSON Schema 2020-12). */
export function zodComponents(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  for (const [name, schema] of Object.entries(BODIES)) registry.register(name, schema);
  for (const [name, schema] of Object.entries(payloadSchemas())) registry.register(name, schema);
  const generated = new OpenApiGeneratorV31(registry.definitions).generateComponents();
  const schemas = (generated.components?.schemas ?? {}) as Record<string, unknown>;
  nullableRefs(schemas);
  return schemas;
}
