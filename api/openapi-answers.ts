/**
 * The success answer of each operation (issue 27 point 1), named by the payload schema of `domain/contract/` the
 * route answers with — the same schema the route's return type is inferred from — or, for files and streams, by
 * media type. `applyAnswers` writes them into the merged description (api/openapi.ts) where a part gives the answer
 * in words only; the API suite then holds every answer to it (tests/helpers/contract.ts).
 */
import type { ZodTypeAny } from "zod";
import * as admin from "../domain/contract/admin";
import * as alarm from "../domain/contract/alarm";
import * as auth from "../domain/contract/auth";
import * as cctv from "../domain/contract/cctv";
import * as fleet from "../domain/contract/fleet";
import * as detail from "../domain/contract/detail";
import * as diagnose from "../domain/contract/diagnose";
import * as measurement from "../domain/contract/measurement";
import * as monitor from "../domain/contract/monitor";
import * as pvstatus from "../domain/contract/pvstatus";
import { payloadSchemas } from "./openapi-zod";

/** A file or stream: its media types, each a string (text) or binary body. */
interface Media {
  media: Record<string, "text" | "binary">;
}
type Answer = ZodTypeAny | Media;

/** `"<method> <path>"` → the answer; `{ status: answer }` when it is not the operation's only 2xx. */
const ANSWERS: Record<string, Answer | Record<string, Answer>> = {
  "get /member/isAuth": auth.IsAuthResponse,
  "get /member": auth.MemberProfileResponse,
  "put /member": auth.MemberProfileSaved,
  "post /member": admin.MemberAnswer,
  "get /member/check/id/{id}": admin.MemberIdCheck,
  "get /member/{id}": admin.MemberDetailResponse,
  "put /member/{id}": admin.MemberAnswer,
  "delete /member/{id}": admin.MemberDeleted,
  "post /member/{id}/password/reset": admin.MemberPasswordReset,
  "post /member/logo/{id}": admin.MemberLogo,
  "delete /member/logo/{id}": admin.MemberLogo,
  "get /member/link/{a}/{b}": admin.MemberPlantLinkState,
  "post /member/link/{a}/{b}": admin.MemberPlantLinkState,
  "delete /member/link/{a}/{b}": admin.MemberPlantLinkState,

  "post /notice": admin.NoticeAnswer,
  "delete /notice": admin.NoticesDeleted,
  "get /notice/custom": admin.NoticeListResponse,
  "get /notice/{seq}": admin.NoticeAnswer,
  "put /notice/{seq}": admin.NoticeAnswer,

  "get /node/group/list": admin.GroupListResponse,
  "get /node/{id}": admin.GroupDetail,
  "put /node/{id}": admin.GroupAnswer,
  "delete /node/{id}": admin.GroupDeleted,
  "post /node": admin.GroupAnswer,

  "post /ingest": admin.IngestReport,

  "get /plant": admin.PlantListResponse,
  "post /plant": admin.PlantSaved,
  "get /plant/{id}": admin.PlantAnswer,
  "put /plant/{id}": admin.PlantSaved,
  "delete /plant/{id}": admin.PlantDeleted,
  "get /plant/{id}/history": admin.PlantHistory,
  "post /plant/copyplant": admin.PlantCopied,
  "get /management/plant": admin.PlantManagementResponse,
  "get /management/plant/setting": admin.PlantSettingResponse,
  "get /management/plant/rtu": admin.AssignableRtuList,
  "get /management/options": admin.AdminFormOptions,
  "get /device/list_user": admin.DeviceListResponse,
  "get /device/list_user/admin": admin.DeviceListResponse,
  "post /device": admin.DeviceAnswer,
  "get /device/{uid}": admin.DeviceAnswer,
  "put /device/{uid}": admin.DeviceAnswer,
  "delete /device/{uid}": admin.Deleted,
  "get /rtu/user": admin.RtuListResponse,
  "post /rtu": admin.RtuCreated,
  "get /rtu/{uid}": admin.RtuDetail,
  "put /rtu/{uid}": admin.RtuAnswer,
  "delete /rtu/{uid}": admin.RtuDeleted,
  "post /rtu/{uid}/credential": admin.RtuCredential,
  "post /por": admin.RtuAssignment,
  "delete /por": admin.RtuAssignment,
  "get /total": fleet.TotalResponse,
  "post /total/loadData": admin.HistoryLoadReport,
  "get /settings": admin.SettingsResponse,
  "put /settings/{type}": admin.SettingSaved,
  "get /code": admin.FaultCodeList,
  "post /code": admin.FaultCodeAnswer,
  "post /code/{code}": admin.FaultCodeAnswer,
  "put /code/{code}": admin.FaultCodeAnswer,
  "delete /code/{code}": admin.Deleted,
  "get /crawling/list": admin.CrawlSourceList,
  "post /crawling/source": admin.CrawlSourceAnswer,
  "put /crawling/source/{id}": admin.CrawlSourceAnswer,
  "delete /crawling/source/{id}": admin.Deleted,
  "get /crawling/list/{id}": admin.CrawlOffer,
  "put /crawling/plant": fleet.ImportReport,
  "put /crawling/rtu": fleet.ImportReport,
  "put /crawling/device": fleet.ImportReport,
  "put /cctv/camera/{uid}": cctv.CameraSaved,

  "get /alarm/recent": alarm.AlarmRowsResponse,
  "get /alarm/count": alarm.AlarmCountResponse,
  "get /alarm/scope": alarm.AlarmScopeResponse,
  "get /alarm/v2/unrelease": alarm.UnreleasedByPlantResponse,
  "get /alarm/ladder": alarm.LadderResponse,
  "put /alarm/ladder": alarm.LadderResponse,
  "delete /alarm/ladder": alarm.LadderResponse,
  "get /alarm/{seq}": alarm.AlarmDetailResponse,
  "post /alarm/{seq}/ack": alarm.AlarmDetailResponse,
  "post /alarm/{seq}/release": alarm.AlarmDetailResponse,
  "get /alarm/notify/pref": alarm.AlertPref,
  "put /alarm/notify/pref": alarm.AlertPref,
  "get /alarm/notify/log": alarm.DeliveryLogResponse,
  "get /alarm/contacts/{plant}": alarm.PlantContacts,
  "put /alarm/contacts/{plant}": alarm.PlantContacts,
  "get /pvstatus/control": alarm.ControlResponse,
  "get /command": alarm.CommandListResponse,
  "get /command/{seq}": alarm.CommandRow,
  "post /command/hex": alarm.CommandOutcome,

  "get /monitor/{kind}": monitor.MonitorResponse,
  "get /monitor": monitor.MonitorResponse,

  "post /member/detail": detail.DetailHandover,
  "post /member/detail/token/plant": detail.DetailTokenResponse,
  "post /member/detail/token/member": detail.DetailTokenResponse,
  "get /member/detail/view": detail.DetailView,

  "get /pvstatus": pvstatus.PvstatusAnswer,
  "get /pvstatus/new": pvstatus.PlantCardData,
  "post /pvstatus/group": pvstatus.PvstatusGroupResponse,
  "get /plant/pvstatus": pvstatus.PlantStatusListResponse,

  "get /cctv/hls/{token}/{file}": { media: { "application/vnd.apple.mpegurl": "text", "video/mp2t": "binary" } },
  "get /cctv/snapshot/{token}": { media: { "image/jpeg": "binary" } },

  "get /measurement/devices": measurement.MeasurementPicker,
  "get /measurement/statusinfo/detail": measurement.FaultDetailResponse,
  "get /measurement/fault/codes": measurement.FaultCodesResponse,
  "get /measurement/setGridAlarmRelease": measurement.GridAlarmReleaseResponse,
  "post /measurement/setGridAlarmRelease": measurement.GridAlarmReleaseResponse,
  "get /rpi/measurement": measurement.WindowResponse,
  "get /rpe/measurement": measurement.WindowResponse,
  "get /rpg": measurement.WindowResponse,
  "get /rpe/devices": measurement.DeviceRefsResponse,
  "get /ri": measurement.DeviceMeasurement,

  "post /diagnose/produce": diagnose.ProduceResponse,
  "post /diagnose/generate": diagnose.GenerateResponse,
  "get /diagnose/compare": diagnose.CompareResponse,
  "get /diagnose/ranking": diagnose.RankingResponse,
  "put /diagnose/coefficients/{plantUid}": diagnose.PlantCoefficientsResponse,
};

const isMedia = (a: unknown): a is Media => typeof a === "object" && a !== null && "media" in a;
const isAnswer = (a: unknown): a is Answer => isMedia(a) || (typeof a === "object" && a !== null && "_def" in a);

function content(answer: Answer, names: Map<ZodTypeAny, string>, where: string) {
  if (isMedia(answer)) {
    return Object.fromEntries(
      Object.entries(answer.media).map(([type, kind]) => [
        type,
        { schema: kind === "text" ? { type: "string" } : { type: "string", format: "binary" } },
      ]),
    );
  }
  const name = names.get(answer);
  if (!name) throw new Error(`openapi: the answer of ${where} is not a payload schema of domain/contract`);
  return { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } };
}

type Json = Record<string, unknown>;
/** Gives each listed operation's 2xx answers (but 204) the schema above where the description has none. */
export function applyAnswers(doc: { paths?: Record<string, Record<string, unknown>> }): void {
  const names = new Map(Object.entries(payloadSchemas()).map(([name, schema]) => [schema, name] as const));
  for (const [key, answer] of Object.entries(ANSWERS)) {
    const [method, path] = key.split(" ") as [string, string];
    const op = doc.paths?.[path]?.[method] as { responses?: Record<string, Json> } | undefined;
    if (!op) throw new Error(`openapi: no operation ${key} for its answer`);
    const responses = (op.responses ??= {});
    const byStatus: Record<string, Answer> = isAnswer(answer)
      ? Object.fromEntries(Object.keys(responses).filter((s) => /^2/.test(s) && s !== "204").map((s) => [s, answer]))
      : answer;
    if (!Object.keys(byStatus).length) byStatus["200"] = answer as Answer;
    for (const [status, a] of Object.entries(byStatus)) {
      const response = (responses[status] ??= { description: "OK" });
      if (response.$ref) continue;
      const existing = (response.content ??= {}) as Record<string, Json>;
      for (const [media, value] of Object.entries(content(a, names, key))) {
        existing[media] = { ...existing[media], schema: existing[media]?.schema ?? value.schema };
      }
    }
  }
}
