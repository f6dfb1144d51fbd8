/**
 * The answer of each /api call, by `"<method> <path template>"`: the payload schema of this folder the route answers
 * with, or for files and streams their media types. The API's description names them (api/openapi-answers.ts, checked
 * against every answer by the API suite), and the portal's typed client takes its answer types from them
 * (app/models/api.server.ts `call`), so neither side copies a payload type.
 */
import type { z, ZodTypeAny } from "zod";
import * as admin from "./admin";
import * as alarm from "./alarm";
import * as auth from "./auth";
import * as cctv from "./cctv";
import * as custom from "./custom";
import * as diagram from "./diagram";
import * as help from "./help";
import * as fleet from "./fleet";
import * as detail from "./detail";
import * as diagnose from "./diagnose";
import * as measurement from "./measurement";
import * as monitor from "./monitor";
import * as pvstatus from "./pvstatus";
import * as watch from "./watch";

/** A file or stream: its media types, each a string (text) or binary body. */
export interface Media {
  media: Record<string, "text" | "binary">;
}
export type Answer = ZodTypeAny | Media;

/** `"<method> <path>"` → the answer; `{ status: answer }` when it is not the operation's only 2xx. */
export const ANSWERS = {
  "post /member/login": auth.LoginResponse,
  "put /member/refresh/accessToken": auth.TokenResponse,
  "put /member/{id}/password": auth.TokenResponse,
  "get /member/node/list": admin.MemberListResponse,
  "get /notice": admin.NoticeListResponse,
  "get /alarm": alarm.AlarmListResponse,
  "get /alarm/unrelease": alarm.AlarmRowsResponse,
  "get /measurement": measurement.MeasurementResponse,
  "get /cctv/list": cctv.CameraListResponse,
  "get /cctv/url": cctv.CctvUrlResponse,
  "post /cctv/camera": cctv.CameraSaved,
  "get /node/diagrams": diagram.DiagramListResponse,
  "get /diagram": diagram.DiagramResponse,
  "put /diagram/{plantUid}/svg": diagram.DiagramUploadResponse,
  "get /node/customs": custom.CustomListResponse,
  "get /custom/{unique}": custom.CustomPageResponse,
  "post /custom": custom.CustomSaveResponse,
  "get /help/file": help.HelpListResponse,
  "get /help/file/{id}": help.HelpFile,
  "get /mop/{id}": detail.MopOverview,
  "get /mop/detail/{id}": detail.MopDetail,
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
  "get /node/ancestor/list": watch.AncestorListResponse,
  "get /node/ancestor/list/watch": watch.WatchTreeResponse,
  "get /pvstatus/group/detail": watch.GroupDetailResponse,

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
} satisfies Record<string, Answer | Record<string, Answer>>;

/** A call of the API whose answer is JSON. */
export type JsonCall = { [K in keyof typeof ANSWERS]: (typeof ANSWERS)[K] extends ZodTypeAny ? K : never }[keyof typeof ANSWERS];
/** The answer of a JSON call, as its schema infers it. */
export type AnswerOf<K extends JsonCall> = (typeof ANSWERS)[K] extends ZodTypeAny ? z.infer<(typeof ANSWERS)[K]> : never;
