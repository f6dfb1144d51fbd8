/**
 * Table types of the store, shared by the SQLite and PostgreSQL dialects.
 * Times are epoch milliseconds; flags are 0/1 integers (the spec's *_yn fields).
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

type AutoSeq = Generated<number>;

export interface NodeTable {
  seq: AutoSeq;
  parent_seq: number | null;
  name: string;
  sort_order: ColumnType<number, number | undefined, number>;
  created_at: number;
}

export interface PackageTable {
  seq: AutoSeq;
  name: string;
}

export interface MemberTable {
  id: string;
  password_hash: string;
  name: string;
  auth: number;
  service: number;
  node_seq: number | null;
  use_yn: number;
  pwd_yn: number;
  read_only: number;
  logo: string | null;
  phone: string | null;
  email: string | null;
  helmet_name: string | null;
  diagram: number;
  cctv: number;
  page: number;
  created_at: number;
  updated_at: number;
  password_changed_at: number | null;
}

export interface PlantTable {
  uid: string;
  name: string;
  alias: string | null;
  /** Capacity in the spec's raw unit (×0.01 = kW, SPEC §9). */
  capa: number;
  locality: string | null;
  address: string | null;
  lat: number | null;
  lng: number | null;
  node_seq: number | null;
  package_seq: number | null;
  created_at: number;
  updated_at: number;
  /** Power temperature coefficient γ per °C of the reference (migration 0006); null = −0.00415. */
  temp_coeff?: number | null;
  /** System factor η of the reference; null = 0.87. */
  system_factor?: number | null;
}

export interface RtuTable {
  uid: string;
  alias: string | null;
  name: string;
  mac: string | null;
  kind: number;
  plant_uid: string | null;
  node_seq: number | null;
  package_seq: number | null;
  config: number;
  credential_hash: string | null;
  use_yn: number;
  created_at: number;
  updated_at: number;
  last_seen_at: number | null;
}

export interface DeviceTable {
  uid: string;
  rtu_uid: string | null;
  plant_uid: string | null;
  kind: number;
  name: string;
  /** Bus address / channel on the RTU. */
  address: number | null;
  /** Rated capacity in the spec's raw unit (inverters), null for others. */
  capa: number | null;
  use_yn: number;
  created_at: number;
  updated_at: number;
}

export interface MemberPlantTable {
  member_id: string;
  plant_uid: string;
  created_at: number;
}

export interface NoticeTable {
  seq: AutoSeq;
  content: string;
  use_yn: number;
  author_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface TokenFamilyTable {
  /** The session id handed to the client. */
  id: string;
  member_id: string;
  current_jti: string;
  previous_jti: string | null;
  rotated_at: number;
  expires_at: number;
  revoked_at: number | null;
  revoked_reason: string | null;
  created_at: number;
  user_agent: string | null;
  /** Detail-window sessions only (migration 0004): 'plant' or 'member', and that plant's uid / member's id. */
  scope_kind: ColumnType<string | null, string | null | undefined, string | null>;
  scope_uid: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One-time detail-window handover codes (migration 0004); only the code's sha256 is kept. */
export interface DetailHandoverTable {
  code_hash: string;
  member_id: string;
  kind: string;
  target: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface ApiTokenTable {
  id: string;
  member_id: string;
  name: string;
  secret_hash: string;
  hint: string;
  scope: string;
  /** JSON array of plant uids; null: every plant the member sees. */
  plants: string | null;
  per_minute: number;
  per_day: number;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_by: string | null;
  last_used_at: number | null;
  minute_start: Generated<number>;
  minute_count: Generated<number>;
  day_start: Generated<number>;
  day_count: Generated<number>;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  first_failure_at: number;
  last_failure_at: number;
}

export interface AlarmTable {
  seq: AutoSeq;
  plant_uid: string;
  rtu_uid: string | null;
  device_uid: string | null;
  code: number;
  level: number;
  fault_code: number | null;
  /**
   * Before migration 0015 the engine's English sentence; now '' for the engine's alarms, whose message is
   * message_code with message_params (domain/alarm-message.ts). A row without a code shows this text verbatim.
   */
  message: string;
  message_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the message's parameters. */
  message_params: ColumnType<string | null, string | null | undefined, string | null>;
  raised_at: number;
  released_at: number | null;
  /** Acknowledgement (migration 0005): who, when, with which note; cleared when the alarm is raised again. */
  ack_by: ColumnType<string | null, string | null | undefined, string | null>;
  ack_at: ColumnType<number | null, number | null | undefined, number | null>;
  ack_note: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0024: when the current episode began (the ladder counts from it; null = raised_at). */
  active_since: ColumnType<number | null, number | null | undefined, number | null>;
  /** The last pass that saw its condition (auto-close counts from it; null = raised_at). */
  last_seen_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** How many times it came back after clearing (flapping: one alarm with this count). */
  toggles: ColumnType<number, number | undefined, number>;
  /** 1 when cleared by itself (auto-close). */
  auto_cleared: ColumnType<number, number | undefined, number>;
}

/** One step of an alarm's lifecycle (raised, acknowledged, reactivated, cleared, released): the audit trail. */
export interface AlarmEventTable {
  seq: AutoSeq;
  alarm_seq: number;
  kind: string;
  member_id: string | null;
  note: string | null;
  at: number;
}
/** A condition seen but not yet an alarm (it becomes one after the raise delay). */
export interface AlarmIncidentTable {
  key: string;
  plant_uid: string;
  first_seen_at: number;
}
export interface AlertPrefTable {
  member_id: string;
  min_level: number;
  mail: number;
  webhook: number;
  webhook_url: string | null;
  /** Quiet hours as minutes after Seoul midnight; both null when there are none. */
  quiet_from: number | null;
  quiet_to: number | null;
  digest: number;
  updated_at: number;
  /** The language of the member's alerts (migration 0015): 'ko' or 'en'. */
  lang: ColumnType<string, string | undefined, string>;
}
/** An escalation ladder (migration 0024): scope `plant:<uid>` or `group:<seq>`, steps as JSON. */
export interface AlarmLadderTable {
  scope: string;
  steps: string;
  updated_at: number;
  updated_by: string | null;
}
/** A plant's curtailment or output-limit order (migration 0025, domain/contract/curtailment.ts). */
export interface CurtailmentOrderTable {
  id: AutoSeq;
  plant_uid: string;
  from_ts: number;
  to_ts: number;
  limit_value: number;
  limit_unit: string;
  source: string;
  note: string;
  created_at: number;
  created_by: string | null;
  updated_at: number;
}
/** Work orders (migration 0027, issue 29 §3): a job on a plant, from alarms or not (domain/work-order.ts states). */
export interface WorkOrderTable {
  id: AutoSeq;
  plant_uid: string;
  title: string;
  description: string;
  priority: string;
  state: string;
  assignee_id: string | null;
  /** 'YYYY-MM-DD' (Seoul). */
  due_date: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}
export interface WorkOrderDeviceTable {
  work_order_id: number;
  device_uid: string;
}
export interface WorkOrderAlarmTable {
  work_order_id: number;
  alarm_seq: number;
}
/** A photo of a work order (PNG, JPEG or WebP, size-limited; domain/work-order-photo.ts). */
export interface WorkOrderPhotoTable {
  seq: AutoSeq;
  work_order_id: number;
  content_type: string;
  size: number;
  data: Uint8Array;
  author_id: string;
  at: number;
}
/** What happened to a work order, appended only: created, note, state (from → to), assigned. */
export interface WorkOrderHistoryTable {
  seq: AutoSeq;
  work_order_id: number;
  kind: string;
  author_id: string;
  note: string | null;
  from_state: string | null;
  to_state: string | null;
  assignee_id: string | null;
  at: number;
}
/** A ladder step delivered: one row per alarm, episode and step (the primary key makes it once). */
export interface AlarmEscalationTable {
  alarm_seq: number;
  active_since: number;
  step: number;
  at: number;
  recipients: number;
}
/** The tamper-evident command and acknowledgement log (migration 0026, api/store/audit-chain.ts). */
export interface AuditChainTable {
  seq: Generated<number>;
  at: number;
  kind: string;
  plant_uid: string | null;
  ref_seq: number | null;
  member_id: string | null;
  detail: string;
  prev_hash: string;
  hash: string;
}
/** A member's alert route (migration 0026, domain/alert-routing.ts). */
export interface AlertRouteTable {
  seq: Generated<number>;
  member_id: string;
  plant_uid: string | null;
  group_seq: number | null;
  min_level: number;
  /** JSON array of alarm codes; null: every code. */
  codes: string | null;
  mail: number;
  webhook: number;
}
export interface PlantContactTable {
  plant_uid: string;
  role: string;
  member_id: string;
  updated_at: number;
  updated_by: string | null;
}
export interface OutboxTable {
  seq: AutoSeq;
  dedupe_key: string;
  channel: string;
  recipient: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  attachments: string | null;
  status: string;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  claimed_until: ColumnType<number, number | undefined, number>;
  claimed_by: string | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  /** Whose alert: the plant and the recipient member (migration 0019), null for messages of neither. */
  plant_uid: ColumnType<string | null, string | null | undefined, string | null>;
  member_id: ColumnType<string | null, string | null | undefined, string | null>;
}
export interface ReportSubscriptionTable {
  seq: AutoSeq;
  member_id: string;
  report: string;
  frequency: string;
  plant_uid: string | null;
  group_seq: number | null;
  email: string;
  lang: string;
  created_at: number;
  last_period: number | null;
  last_sent_at: number | null;
  last_error: string | null;
}
export interface OutboxAttemptTable {
  seq: AutoSeq;
  outbox_seq: number;
  attempt: number;
  at: number;
  ok: number;
  detail: string | null;
}

export interface InverterMeasurementTable {
  device_uid: string;
  ts: number;
  dc_v: number | null;
  dc_a: number | null;
  dc_w: number | null;
  ac_v: number | null;
  ac_a: number | null;
  iw: number | null;
  pf: number | null;
  hz: number | null;
  today_wh: number | null;
  total_wh: number | null;
  fault_code: number | null;
  fault_hex: string | null;
  received_at: number;
}
export interface EnvMeasurementTable {
  device_uid: string;
  ts: number;
  his: number | null;
  iis: number | null;
  sts: number | null;
  ats: number | null;
  received_at: number;
}
export interface BoardMeasurementTable {
  device_uid: string;
  ts: number;
  v: number | null;
  total_a: number | null;
  channels: string | null;
  received_at: number;
}
export interface BreakerMeasurementTable {
  device_uid: string;
  ts: number;
  v: number | null;
  a: number | null;
  w: number | null;
  pf: number | null;
  state: number | null;
  gf_ma: number | null;
  received_at: number;
}

/** The newest reading of each device, so status screens never scan history. */
export interface DeviceLatestTable {
  device_uid: string;
  kind: number;
  ts: number;
  received_at: number;
  iw: number | null;
  today_wh: number | null;
  total_wh: number | null;
  fault_code: number | null;
  his: number | null;
  iis: number | null;
  sts: number | null;
  ats: number | null;
  state: number | null;
  values_json: string;
}

export interface RollupHourlyTable {
  device_uid: string;
  hour_ts: number;
  kind: number;
  samples: number;
  energy_wh: number | null;
  avg_w: number | null;
  max_w: number | null;
  his_wh: number | null;
  iis_wh: number | null;
  avg_sts: number | null;
  avg_ats: number | null;
  max_today_wh: number | null;
  max_total_wh: number | null;
  iis_sts_wh: number | null;
  sun_samples: number | null;
  lit_samples: number | null;
  run_samples: number | null;
}
/** day_ts is the epoch ms of local midnight (Asia/Seoul). */
export interface RollupDailyTable {
  device_uid: string;
  day_ts: number;
  kind: number;
  samples: number;
  energy_wh: number | null;
  max_w: number | null;
  his_wh: number | null;
  iis_wh: number | null;
  avg_sts: number | null;
  avg_ats: number | null;
  total_wh: number | null;
  iis_sts_wh: number | null;
  sun_samples: number | null;
  lit_samples: number | null;
  run_samples: number | null;
}

/** One plant's day for the fleet ranking and a whole plant's diagnosis (migrations 0013, 0017; api/telemetry/rollups.ts plantDailySql). */
export interface RollupPlantDailyTable {
  plant_uid: string;
  day_ts: number;
  inverters: number;
  kept: number;
  dropped: number;
  energy: number;
  expected: number;
  yref: number;
  corrw: number;
  sunw: number;
  runw: number;
  downtime: number;
  /** 1 when every rated inverter's bucket of the day adds up with its siblings' (migration 0017). */
  regular: number;
}

/** Plants whose rollup_plant_daily rows predate a rating or membership change (migration 0013's triggers). */
export interface RollupPlantDailyStaleTable {
  plant_uid: string;
}

/** One plant's day of the integrated statistics report (migration 0016; api/store/plant-stat-days.ts). */
export interface RollupPlantStatDailyTable {
  plant_uid: string;
  day_ts: number;
  inv_n: number | null;
  energy_wh: number | null;
  max_w: number | null;
  sensors: number;
  iis_wh: number | null;
  /** Producing steps of its inverters, summed; lit steps of its sensors, mean (migration 0019; null before). */
  run_n: number | null;
  lit_n: number | null;
}

/** Plants whose rollup_plant_stat_daily rows may count another set of devices (migration 0016's triggers). */
export interface RollupPlantStatStaleTable {
  plant_uid: string;
}

/** A member's first comparison selection (migration 0006). */
export interface CompareSelectionTable {
  member_id: string;
  device_uids: string;
  kind: number;
  data_type: string;
  created_at: number;
}

export interface FaultCodeTable {
  code: number;
  hex: string;
  name_ko: string;
  name_en: string;
  level: number;
}

export interface SettingTable {
  key: string;
  value: string;
  updated_at: number;
  updated_by: string | null;
}

export interface CommandTable {
  seq: AutoSeq;
  rtu_uid: string;
  device_uid: string;
  device_type: number;
  ch: number;
  hex_on: string | null;
  hex_off: string | null;
  requested_by: string;
  requested_at: number;
  status: string;
  result: string | null;
  completed_at: number | null;
  /** The device's plant when it was commanded (migration 0005). */
  plant_uid: ColumnType<string | null, string | null | undefined, string | null>;
  /** The confirmation's one-time token, unique per member (migration 0019). */
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An external source for importing plants, RTUs and devices (migration 0003). */
export interface CrawlSourceTable {
  seq: AutoSeq;
  site: string;
  name: string;
  base_url: string;
  login_id: string;
  /** AES-256-GCM ciphertext of the source password; never returned by the API. */
  password_enc: string;
  node_seq: number | null;
  address: string | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
  last_polled_at: number | null;
  last_error: string | null;
}

/** An uploaded single-line drawing of a plant (migration 0008); `bindings` is JSON [{element, device_uid}]. */
export interface PlantDiagramTable {
  plant_uid: string;
  svg: string;
  bindings: string;
  uploaded_by: string | null;
  uploaded_at: number;
}

/** A member's custom page of widgets (migration 0008); `widgets` is JSON (domain/contract/custom.ts). */
export interface CustomPageTable {
  member_id: string;
  unique_key: string;
  title: string;
  widgets: string;
  created_at: number;
  updated_at: number;
}

/** A singleton job's lease (migration 0009): owner, fencing token, checkpoint. */
export interface ClusterLeaseTable {
  name: string;
  owner: string;
  token: number;
  acquired_at: number;
  heartbeat_at: number;
  checkpoint: string | null;
}

/** A plant's camera (migration 0011): address without credentials, the password sealed; never sent to a browser. */
export interface CameraTable {
  uid: string;
  plant_uid: string;
  name: string;
  url: string;
  username: string | null;
  password_sealed: string | null;
  width: number | null;
  height: number | null;
  probed_at: number | null;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  node: NodeTable;
  package: PackageTable;
  member: MemberTable;
  plant: PlantTable;
  rtu: RtuTable;
  device: DeviceTable;
  member_plant: MemberPlantTable;
  notice: NoticeTable;
  token_family: TokenFamilyTable;
  login_throttle: LoginThrottleTable;
  api_token: ApiTokenTable;
  alarm: AlarmTable;
  m_inverter: InverterMeasurementTable;
  m_env: EnvMeasurementTable;
  m_board: BoardMeasurementTable;
  m_breaker: BreakerMeasurementTable;
  device_latest: DeviceLatestTable;
  rollup_hourly: RollupHourlyTable;
  rollup_daily: RollupDailyTable;
  rollup_plant_daily: RollupPlantDailyTable;
  rollup_plant_daily_stale: RollupPlantDailyStaleTable;
  rollup_plant_stat_daily: RollupPlantStatDailyTable;
  rollup_plant_stat_stale: RollupPlantStatStaleTable;
  compare_selection: CompareSelectionTable;
  fault_code: FaultCodeTable;
  setting: SettingTable;
  command: CommandTable;
  alarm_event: AlarmEventTable;
  alarm_incident: AlarmIncidentTable;
  alert_pref: AlertPrefTable;
  plant_contact: PlantContactTable;
  alarm_ladder: AlarmLadderTable;
  alarm_escalation: AlarmEscalationTable;
  curtailment_order: CurtailmentOrderTable;
  audit_chain: AuditChainTable;
  alert_route: AlertRouteTable;
  work_order: WorkOrderTable;
  work_order_device: WorkOrderDeviceTable;
  work_order_alarm: WorkOrderAlarmTable;
  work_order_history: WorkOrderHistoryTable;
  work_order_photo: WorkOrderPhotoTable;
  outbox: OutboxTable;
  outbox_attempt: OutboxAttemptTable;
  report_subscription: ReportSubscriptionTable;
  crawl_source: CrawlSourceTable;
  detail_handover: DetailHandoverTable;
  plant_diagram: PlantDiagramTable;
  custom_page: CustomPageTable;
  cluster_lease: ClusterLeaseTable;
  camera: CameraTable;
}

export type Member = Selectable<MemberTable>;
export type NewMember = Insertable<MemberTable>;
export type MemberUpdate = Updateable<MemberTable>;
export type Plant = Selectable<PlantTable>;
export type TokenFamily = Selectable<TokenFamilyTable>;
