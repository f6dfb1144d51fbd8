/**
 * The part of the OpenAPI description written by the zod schemas themselves (issue 27 point 1): every request
 * body the server validates with a schema of `domain/` is turned into a JSON Schema component here
 * (@asteasolutions/zod-to-openapi), so the YAML parts refer to `#/components/schemas/<Name>` instead of
 * repeating the fields. Enums the server checks (compareType, the admin delete key) come from the same
 * constants the routes use.
 */
import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z, type ZodTypeAny } from "zod";
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

/** `components.schemas` generated from the zod schemas above (OpenAPI 3.1, JSON Schema 2020-12). */
export function zodComponents(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  for (const [name, schema] of Object.entries(BODIES)) registry.register(name, schema);
  const generated = new OpenApiGeneratorV31(registry.definitions).generateComponents();
  return (generated.components?.schemas ?? {}) as Record<string, unknown>;
}
