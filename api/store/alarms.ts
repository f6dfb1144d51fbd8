/**
 * Alarm queries: the filtered list of the alarm screen, open alarms, counts, acknowledgement and release
 * (with their audit steps in alarm_event), alert preferences, plant contacts and the delivery log.
 * Scoping is the caller's: every function takes the plant uids the member may see (null = every plant,
 * for a member at the root node, so a fleet-wide query needs no list of 1,000 uids).
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import type {
  AlarmListQuery,
  AlarmListResponse,
  AlarmRow,
  AlarmState,
  DeliveryLogResponse,
  DeliveryRow,
  UnreleasedPlantRow,
} from "../../domain/contract/alarm";
import {
  ALARM_MESSAGE_WORDS,
  checkedAlarmMessage,
  renderAlarmMessage,
  storedAlarmMessage,
  type AlarmMessage,
  type DeviceNameOf,
} from "../../domain/alarm-message";
import { DAY_MS, parseSeoul, seoulDayStart } from "../../domain/seoul-time";
import { ApiError, notFound } from "../http";
import type { Database } from "./schema";
import { appendAudit } from "./audit-chain";
import type { Dialect } from "./db";
import { reachesEverything, type Reach } from "../../domain/visibility";

type Eb = ExpressionBuilder<Database, "alarm">;

const CHUNK = 900;
/** The alarm levels the list counts apart (interest, caution, warning, severe). */
const LEVELS = [1, 2, 3, 4] as const;

/**
 * The columns that store an alarm's message (migration 0015): its code and JSON parameters, no sentence. Checked
 * against the schema here, once, so that reading a row only parses its JSON (domain/alarm-message.ts).
 */
export function alarmMessageColumns(m: AlarmMessage) {
  const checked = checkedAlarmMessage(m);
  return { message: "", message_code: checked.code, message_params: JSON.stringify(checked.params) };
}

export function alarmState(a: { released_at: number | null; ack_at: number | null }): AlarmState {
  return a.released_at !== null ? "cleared" : a.ack_at !== null ? "acknowledged" : "active";
}

const selectRow = (db: Kysely<Database>) =>
  db
    .selectFrom("alarm")
    .innerJoin("plant", "plant.uid", "alarm.plant_uid")
    .leftJoin("device", "device.uid", "alarm.device_uid")
    .select([
      "alarm.seq",
      "alarm.plant_uid",
      "plant.name as plantName",
      "alarm.rtu_uid",
      "alarm.device_uid",
      "device.name as deviceName",
      "device.kind as deviceKind",
      "alarm.code",
      "alarm.level",
      "alarm.fault_code",
      "alarm.message",
      "alarm.message_code",
      "alarm.message_params",
      "alarm.raised_at",
      "alarm.released_at",
      "alarm.ack_by",
      "alarm.ack_at",
      "alarm.ack_note",
      "alarm.auto_cleared",
      "alarm.toggles",
    ]);

type RawRow = Awaited<ReturnType<ReturnType<typeof selectRow>["execute"]>>[number];

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/**
 * An alarm's message as the API answers it: rendered in Korean (the default language) for clients that show
 * text as it is, and as its code with parameters for the portal, which renders it in the member's language.
 */
export function alarmMessageFields(
  a: {
    message: string;
    message_code: string | null;
    message_params: string | null;
    device_uid?: string | null;
    deviceName?: string | null;
  },
  faultNames?: (faultCode: number) => readonly string[],
  deviceName: DeviceNameOf = (uid) => (uid === a.device_uid ? a.deviceName : undefined),
) {
  const m = storedAlarmMessage(a.message_code, a.message_params, a.message);
  return {
    message: renderAlarmMessage(ALARM_MESSAGE_WORDS.ko, m, faultNames, deviceName),
    messageCode: m.code,
    messageParams: m.params,
  };
}

function toRow(a: RawRow): AlarmRow {
  const row = {
    seq: Number(a.seq),
    plant_uid: a.plant_uid,
    plantName: a.plantName,
    rtu_uid: a.rtu_uid,
    device_uid: a.device_uid,
    deviceName: a.deviceName ?? null,
    deviceKind: num(a.deviceKind),
    code: Number(a.code),
    level: Number(a.level),
    fault_code: num(a.fault_code),
    ...alarmMessageFields(a),
    raised_at: Number(a.raised_at),
    released_at: num(a.released_at),
    ack_by: a.ack_by,
    ack_at: num(a.ack_at),
    ack_note: a.ack_note,
    autoCleared: Number(a.auto_cleared) === 1,
    toggles: Number(a.toggles ?? 0),
  };
  return { ...row, status: alarmState(row) };
}

/** The period of a list query, epoch ms [start, end): whole Seoul days, today when not given. */
export function periodOf(q: Pick<AlarmListQuery, "start" | "end">, now: number): { start: number; end: number } {
  const today = seoulDayStart(now);
  const start = q.start ? parseSeoul(q.start)! : q.end ? parseSeoul(q.end)! : today;
  const end = (q.end ? parseSeoul(q.end)! : Math.max(start, today)) + DAY_MS;
  return { start, end };
}

/**
 * An alarm overlaps the period [start, end) in exactly one of three ways, each a range of its own composite index
 * (migration 0012): raised in the period; raised before it and cleared in it or later; raised before it and still
 * open. Reading them apart keeps every count to the period (one OR over them would walk the whole history before
 * the period's end).
 */
type Part = "raised" | "clearedLater" | "openBefore";

function partOf(eb: Eb, part: Part, period: { start: number; end: number }): Expression<SqlBool> {
  if (part === "raised") return eb.and([eb("alarm.raised_at", ">=", period.start), eb("alarm.raised_at", "<", period.end)]);
  if (part === "clearedLater")
    return eb.and([eb("alarm.released_at", ">=", period.start), eb("alarm.raised_at", "<", period.start)]);
  return eb.and([eb("alarm.released_at", "is", null), eb("alarm.raised_at", "<", period.start)]);
}

/** The filters of a list query other than the period. */
function filters(eb: Eb, plants: string[] | null, q: AlarmListQuery, withLevel: boolean): Expression<SqlBool>[] {
  const and: Expression<SqlBool>[] = [];
  if (plants) and.push(eb("alarm.plant_uid", "in", plants));
  if (q.device) and.push(eb("alarm.device_uid", "=", q.device));
  if (q.code !== undefined) and.push(eb("alarm.code", "=", q.code));
  if (withLevel && q.level !== -1) and.push(eb("alarm.level", "=", q.level));
  if (q.status === "active") and.push(eb.and([eb("alarm.released_at", "is", null), eb("alarm.ack_at", "is", null)]));
  if (q.status === "acknowledged") and.push(eb.and([eb("alarm.released_at", "is", null), eb("alarm.ack_at", "is not", null)]));
  if (q.status === "cleared") and.push(eb("alarm.released_at", "is not", null));
  return and;
}

export async function listAlarms(
  db: Kysely<Database>,
  plants: string[] | null,
  q: AlarmListQuery,
  now: number,
): Promise<AlarmListResponse> {
  const period = periodOf(q, now);
  const counts: AlarmListResponse["counts"] = { "-1": 0, 1: 0, 2: 0, 3: 0, 4: 0 };
  if (plants && !plants.length) return { alarmList: [], total: 0, page: q.page, size: q.size, ...period, counts };
  // Counts per level and part in one statement: three index-only ranges (no COUNT over the year before the period),
  // one row each. Per level by FILTER rather than GROUP BY level: SQLite sorted the period's rows into a temporary
  // B-tree for the grouping (a month of 16,500 alarms: 10× the time of the range itself).
  const countPart = (part: Part) =>
    db
      .selectFrom("alarm")
      .select((eb) => [
        sql.lit(part).as("part"),
        eb.fn.countAll<number>().as("n"),
        ...LEVELS.map((level) => eb.fn.countAll<number>().filterWhere("alarm.level", "=", level).as(`l${level}`)),
      ])
      .where((eb) => eb.and([partOf(eb, part, period), ...filters(eb, plants, q, false)]));
  const offset = (q.page - 1) * q.size;
  // Newest first: every alarm raised in the period comes before every alarm raised earlier, so the page is the
  // period's own alarms (a bounded range, newest first along raised_at) and, past them, the earlier ones. The
  // first part is read beside the counts (on PostgreSQL over a second connection): past its end it is empty.
  const [byLevel, own] = await Promise.all([
    countPart("raised").unionAll(countPart("clearedLater")).unionAll(countPart("openBefore")).execute(),
    selectRow(db)
      .where((eb) => eb.and([partOf(eb as unknown as Eb, "raised", period), ...filters(eb as unknown as Eb, plants, q, true)]))
      .orderBy("alarm.raised_at", "desc")
      .orderBy("alarm.seq", "desc")
      .limit(q.size)
      .offset(offset)
      .execute(),
  ]);
  const inPart: Record<Part, number> = { raised: 0, clearedLater: 0, openBefore: 0 };
  for (const r of byLevel) {
    const row = r as unknown as Record<string, string | number>;
    for (const level of LEVELS) counts[level] += Number(row[`l${level}`] ?? 0);
    counts["-1"] += Number(r.n);
    inPart[r.part as Part] += Number(q.level === -1 ? r.n : (row[`l${q.level}`] ?? 0));
  }
  const total = q.level === -1 ? counts["-1"] : counts[String(q.level) as "1"];
  const rows: RawRow[] = [...own];
  const earlier = inPart.clearedLater + inPart.openBefore;
  if (rows.length < q.size && earlier > 0 && offset + q.size > inPart.raised) {
    // The earlier alarms are few (those still open or cleared only after the start): their keys from the two
    // ranges of (released_at, raised_at, level), merged here, then the page's rows by seq.
    const found = await Promise.all(
      (["clearedLater", "openBefore"] as const)
        .filter((part) => inPart[part] > 0)
        .map((part) =>
          db
            .selectFrom("alarm")
            .select(["alarm.seq", "alarm.raised_at"])
            .where((eb) => eb.and([partOf(eb, part, period), ...filters(eb, plants, q, true)]))
            .execute(),
        ),
    );
    const keys = found.flat().map((k) => ({ seq: Number(k.seq), raised_at: Number(k.raised_at) }));
    keys.sort((a, b) => b.raised_at - a.raised_at || b.seq - a.seq);
    const from = Math.max(0, offset - inPart.raised);
    const wanted = keys.slice(from, from + q.size - rows.length).map((k) => k.seq);
    if (wanted.length) {
      const more = await selectRow(db).where("alarm.seq", "in", wanted).execute();
      const bySeq = new Map(more.map((r) => [Number(r.seq), r]));
      for (const seq of wanted) {
        const r = bySeq.get(seq);
        if (r) rows.push(r);
      }
    }
  }
  return { alarmList: rows.map(toRow), total, page: q.page, size: q.size, ...period, counts };
}

/** Open alarms (active and acknowledged), newest first. */
export async function openAlarms(db: Kysely<Database>, plants: string[] | null, limit: number): Promise<AlarmRow[]> {
  if (plants && !plants.length) return [];
  const rows = await selectRow(db)
    .where("alarm.released_at", "is", null)
    .$if(!!plants, (qb) => qb.where("alarm.plant_uid", "in", plants!))
    .orderBy("alarm.raised_at", "desc")
    .orderBy("alarm.seq", "desc")
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/** Open alarms and those raised since `since`, newest first (the dashboard's recent list). */
export async function recentAlarms(
  db: Kysely<Database>,
  plants: string[] | null,
  since: number,
  limit: number,
): Promise<AlarmRow[]> {
  if (plants && !plants.length) return [];
  const rows = await selectRow(db)
    .where((eb) => eb.or([eb("alarm.released_at", "is", null), eb("alarm.raised_at", ">=", since)]))
    .$if(!!plants, (qb) => qb.where("alarm.plant_uid", "in", plants!))
    .orderBy("alarm.raised_at", "desc")
    .orderBy("alarm.seq", "desc")
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/** Open alarms per plant with the SPEC §3 counters and the plant's current output. */
export async function unreleasedByPlant(db: Kysely<Database>, plants: string[] | null): Promise<UnreleasedPlantRow[]> {
  if (plants && !plants.length) return [];
  const rows = await db
    .selectFrom("alarm")
    .innerJoin("plant", "plant.uid", "alarm.plant_uid")
    .select((eb) => [
      "alarm.plant_uid",
      "plant.name as plantName",
      eb.fn.countAll<number>().as("alarm_count"),
      ...([1000001, 1000003, 1000004, 1000006] as const).map((c) =>
        eb.fn.sum<number>(eb.case().when("alarm.code", "=", c).then(1).else(0).end()).as(`alarm_${c}_count` as const),
      ),
    ])
    .where("alarm.released_at", "is", null)
    .$if(!!plants, (qb) => qb.where("alarm.plant_uid", "in", plants!))
    .groupBy(["alarm.plant_uid", "plant.name"])
    .orderBy("plant.name")
    .execute();
  const uids = rows.map((r) => r.plant_uid);
  const iw = new Map<string, number>();
  for (let i = 0; i < uids.length; i += CHUNK) {
    const part = await db
      .selectFrom("device")
      .innerJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select((eb) => ["device.plant_uid", eb.fn.sum<number>("device_latest.iw").as("iw")])
      .where("device.kind", "=", 1)
      .where("device.plant_uid", "in", uids.slice(i, i + CHUNK))
      .groupBy("device.plant_uid")
      .execute();
    for (const p of part) iw.set(p.plant_uid!, Number(p.iw ?? 0));
  }
  return rows.map((r) => ({
    plant_uid: r.plant_uid,
    plantName: r.plantName,
    alarm_count: Number(r.alarm_count),
    alarm_1000001_count: Number(r.alarm_1000001_count ?? 0),
    alarm_1000003_count: Number(r.alarm_1000003_count ?? 0),
    alarm_1000004_count: Number(r.alarm_1000004_count ?? 0),
    alarm_1000006_count: Number(r.alarm_1000006_count ?? 0),
    iw: iw.get(r.plant_uid) ?? 0,
  }));
}

export async function alarmBySeq(db: Kysely<Database>, seq: number): Promise<AlarmRow | null> {
  const row = await selectRow(db).where("alarm.seq", "=", seq).executeTakeFirst();
  return row ? toRow(row) : null;
}

/** Acknowledges an open alarm with a note, and records the step. */
export async function acknowledgeAlarm(
  db: Kysely<Database>,
  seq: number,
  memberId: string,
  note: string,
  now: number,
  dialect: Dialect,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const a = await trx
      .selectFrom("alarm")
      .select(["released_at", "ack_at", "plant_uid", "device_uid", "code", "level"])
      .where("seq", "=", seq)
      .executeTakeFirst();
    if (!a) throw notFound("alarm_not_found");
    if (a.released_at !== null) throw new ApiError(409, "alarm_cleared");
    if (a.ack_at !== null) throw new ApiError(409, "already_acknowledged");
    await trx
      .updateTable("alarm")
      .set({ ack_by: memberId, ack_at: now, ack_note: note || null })
      .where("seq", "=", seq)
      .execute();
    await trx
      .insertInto("alarm_event")
      .values({ alarm_seq: seq, kind: "acknowledged", member_id: memberId, note: note || null, at: now })
      .execute();
    // …and in the tamper-evident log (api/store/audit-chain.ts), in the same transaction.
    await appendAudit(trx, dialect, {
      at: now,
      kind: "alarm_ack",
      plant_uid: a.plant_uid,
      ref_seq: seq,
      member_id: memberId,
      detail: { device_uid: a.device_uid, code: Number(a.code), level: Number(a.level), note: note || null },
    });
  });
}

/** An operator's release of an open alarm (e.g. a grid alarm, SPEC §7 setGridAlarmRelease), recorded as a step. */
export async function releaseAlarm(
  db: Kysely<Database>,
  seq: number,
  memberId: string,
  note: string,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const a = await trx.selectFrom("alarm").select(["released_at"]).where("seq", "=", seq).executeTakeFirst();
    if (!a) throw notFound("alarm_not_found");
    if (a.released_at !== null) throw new ApiError(409, "alarm_cleared");
    await trx.updateTable("alarm").set({ released_at: now }).where("seq", "=", seq).execute();
    await trx
      .insertInto("alarm_event")
      .values({ alarm_seq: seq, kind: "released", member_id: memberId, note: note || null, at: now })
      .execute();
  });
}

export async function alarmEvents(db: Kysely<Database>, seq: number) {
  const rows = await db.selectFrom("alarm_event").selectAll().where("alarm_seq", "=", seq).orderBy("at").orderBy("seq").execute();
  return rows.map((e) => ({ seq: Number(e.seq), kind: e.kind, member_id: e.member_id, note: e.note, at: Number(e.at) }));
}

export const DELIVERY_PAGE_SIZE = 50;

/**
 * The delivery log as the admin may see it (the visibility rule): the alerts about plants they see, the messages of
 * no plant (daily digests) to members of their group tree and to themselves; a root member sees every message.
 */
export async function deliveryLog(
  db: Kysely<Database>,
  reach: Reach,
  status: string | undefined,
  page: number,
): Promise<Omit<DeliveryLogResponse, "channels">> {
  const base = db
    .selectFrom("outbox")
    .$if(!!status, (qb) => qb.where("status", "=", status!))
    .$if(!reachesEverything(reach), (qb) =>
      qb.where((eb) => {
        const nodes = reach.only ? [] : [...reach.nodes];
        const linked = reach.only ? [] : [...reach.linked];
        const ofPlant = [
          ...(nodes.length
            ? [eb("outbox.plant_uid", "in", eb.selectFrom("plant").select("plant.uid").where("plant.node_seq", "in", nodes))]
            : []),
          ...(linked.length ? [eb("outbox.plant_uid", "in", linked)] : []),
        ];
        const ofMember = [
          eb("outbox.member_id", "=", reach.memberId),
          ...(nodes.length
            ? [eb("outbox.member_id", "in", eb.selectFrom("member").select("member.id").where("member.node_seq", "in", nodes))]
            : []),
        ];
        const seen =
          reach.all && !reach.only
            ? eb.lit(true)
            : eb.or([...ofPlant, eb.and([eb("outbox.plant_uid", "is", null), eb.or(ofMember)])]);
        // An API token limited to plants: only their messages, within what the member sees.
        return reach.plants ? eb.and([seen, eb("outbox.plant_uid", "in", reach.plants.length ? [...reach.plants] : [""])]) : seen;
      }),
    );
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select([
      "seq",
      "channel",
      "recipient",
      "subject",
      "status",
      "attempts",
      "next_attempt_at",
      "last_error",
      "created_at",
      "sent_at",
    ])
    .orderBy("seq", "desc")
    .limit(DELIVERY_PAGE_SIZE)
    .offset((page - 1) * DELIVERY_PAGE_SIZE)
    .execute();
  const deliveryList: DeliveryRow[] = rows.map((r) => ({
    seq: Number(r.seq),
    channel: r.channel as DeliveryRow["channel"],
    recipient: r.recipient,
    subject: r.subject,
    status: r.status as DeliveryRow["status"],
    attempts: Number(r.attempts),
    next_attempt_at: Number(r.next_attempt_at),
    last_error: r.last_error,
    created_at: Number(r.created_at),
    sent_at: num(r.sent_at),
  }));
  return { deliveryList, total, page, size: DELIVERY_PAGE_SIZE };
}

/** Plants of a node's subtree among `plants` (null = all). */
export async function plantsUnderNode(db: Kysely<Database>, seqs: number[], plants: string[] | null): Promise<string[]> {
  if (!seqs.length) return [];
  const rows = await db
    .selectFrom("plant")
    .select("uid")
    .where("node_seq", "in", seqs)
    .$if(!!plants, (qb) => qb.where("uid", "in", plants!.length ? plants! : [""]))
    .execute();
  return rows.map((r) => r.uid);
}

/** `text` as a LIKE pattern matching names that hold it, case-insensitively (escape character \). */
function holding(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Plants among `plants` (null = all) whose name holds `text`: an exact name first, then by name; one more than
 * `limit` is read so the caller knows there are more.
 */
export async function plantsNamed(db: Kysely<Database>, text: string, plants: string[] | null, limit: number) {
  if (plants && !plants.length) return [];
  const rows = await db
    .selectFrom("plant")
    .select(["uid", "name"])
    .where(sql<boolean>`lower(name) like ${holding(text)} escape '\\'`)
    .$if(!!plants, (qb) => qb.where("uid", "in", plants!))
    .orderBy(sql`case when lower(name) = ${text.toLowerCase()} then 0 else 1 end`)
    .orderBy("name")
    .orderBy("uid")
    .limit(limit + 1)
    .execute();
  return rows.map((r) => ({ uid: r.uid, name: r.name }));
}

/** Groups among `nodes` (null = all) whose name holds `text`, like plantsNamed. */
export async function groupsNamed(db: Kysely<Database>, text: string, nodes: readonly number[] | null, limit: number) {
  if (nodes && !nodes.length) return [];
  const rows = await db
    .selectFrom("node")
    .select(["seq", "name"])
    .where(sql<boolean>`lower(name) like ${holding(text)} escape '\\'`)
    .$if(!!nodes, (qb) => qb.where("seq", "in", nodes!))
    .orderBy(sql`case when lower(name) = ${text.toLowerCase()} then 0 else 1 end`)
    .orderBy("name")
    .orderBy("seq")
    .limit(limit + 1)
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), name: r.name }));
}

/** A plant's devices in use, by kind and name (the alarm screen's device filter). */
export async function plantDevices(db: Kysely<Database>, plantUid: string) {
  const rows = await db
    .selectFrom("device")
    .select(["uid", "name", "kind"])
    .where("plant_uid", "=", plantUid)
    .where("use_yn", "=", 1)
    .orderBy("kind")
    .orderBy("name")
    .orderBy("uid")
    .execute();
  return rows.map((d) => ({ uid: d.uid, name: d.name, kind: Number(d.kind) }));
}

/** A group (node) by its seq: its name, or undefined when there is none. */
export async function nodeNamed(db: Kysely<Database>, seq: number) {
  return db.selectFrom("node").select(["seq", "name"]).where("seq", "=", seq).executeTakeFirst();
}

/** Open alarms (active and acknowledged) counted by code and level, among `plants` (null = all). */
export async function openAlarmCounts(db: Kysely<Database>, plants: string[] | null) {
  const rows = await db
    .selectFrom("alarm")
    .select((eb) => [
      "code",
      "level",
      eb.fn.countAll<number>().as("n"),
      eb.fn.count<number>(eb.case().when("ack_at", "is", null).then(1).end()).as("unacked"),
    ])
    .$if(!!plants, (qb) => qb.where("plant_uid", "in", plants!))
    .where("released_at", "is", null)
    .groupBy(["code", "level"])
    .execute();
  return rows.map((r) => ({ code: Number(r.code), level: Number(r.level), n: Number(r.n), unacked: Number(r.unacked) }));
}

/** A member's e-mail address (null when they have none or do not exist). */
export async function memberEmail(db: Kysely<Database>, memberId: string): Promise<string | null> {
  return (await db.selectFrom("member").select("email").where("id", "=", memberId).executeTakeFirst())?.email ?? null;
}

export interface AlertPrefValues {
  min_level: number;
  mail: number;
  webhook: number;
  webhook_url: string | null;
  quiet_from: number | null;
  quiet_to: number | null;
  digest: number;
  updated_at: number;
  /** Unchanged when not given ('ko' for a new row). */
  lang?: string;
}

/** Writes a member's alert preferences (one row per member). */
export async function saveAlertPref(db: Kysely<Database>, memberId: string, row: AlertPrefValues): Promise<void> {
  await db
    .insertInto("alert_pref")
    .values({ member_id: memberId, ...row })
    .onConflict((oc) => oc.column("member_id").doUpdateSet(row))
    .execute();
}

/** A member's stored alert preferences, as the /modify form and the alert planner read them. */
export const ALERT_PREF_COLUMNS = [
  "alert_pref.min_level",
  "alert_pref.mail",
  "alert_pref.webhook",
  "alert_pref.webhook_url",
  "alert_pref.quiet_from",
  "alert_pref.quiet_to",
  "alert_pref.digest",
  "alert_pref.lang",
] as const;

/** A member's e-mail address and stored alert preferences (all null when they never saved any). */
export async function alertPrefRow(db: Kysely<Database>, memberId: string) {
  return db
    .selectFrom("member")
    .leftJoin("alert_pref", "alert_pref.member_id", "member.id")
    .select(["member.email", ...ALERT_PREF_COLUMNS])
    .where("member.id", "=", memberId)
    .executeTakeFirst();
}

/** Which of these member ids are members in use. */
export async function membersInUse(db: Kysely<Database>, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom("member").select("id").where("id", "in", ids).where("use_yn", "=", 1).execute();
  return rows.map((m) => m.id);
}

/** Sets a plant's owner and safety manager (a missing one is removed), in one transaction. */
export async function setPlantContacts(
  db: Kysely<Database>,
  plantUid: string,
  contacts: { owner?: string | null; safety?: string | null; operator?: string | null },
  by: string,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The operator is kept as it is when not given (a form of before the role).
    for (const role of ["owner", "safety", ...(contacts.operator !== undefined ? (["operator"] as const) : [])] as const) {
      await trx.deleteFrom("plant_contact").where("plant_uid", "=", plantUid).where("role", "=", role).execute();
      const id = contacts[role];
      if (id)
        await trx
          .insertInto("plant_contact")
          .values({ plant_uid: plantUid, role, member_id: id, updated_at: now, updated_by: by })
          .execute();
    }
  });
}

/** A plant's contacts with their member's name and e-mail. */
export async function plantContactRows(db: Kysely<Database>, plantUid: string) {
  return db
    .selectFrom("plant_contact")
    .innerJoin("member", "member.id", "plant_contact.member_id")
    .select(["plant_contact.role", "member.id", "member.name", "member.email"])
    .where("plant_contact.plant_uid", "=", plantUid)
    .execute();
}
