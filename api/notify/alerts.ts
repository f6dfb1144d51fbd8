/**
 * Alerts to the people responsible for a plant (MOTIE 2021: owner and electrical safety manager): each
 * alarm step (raised, raised again, cleared) becomes one outbox message per member and channel, in the
 * same transaction as the step, keyed by the step so it is sent exactly once; members who chose the daily
 * digest get one mail a day instead.
 */
import type { Kysely, Transaction } from "kysely";
import { DEFAULT_ALERT_PREF, DIGEST_HOUR, type AlertPrefView } from "../../domain/alert-policy";
import { routeAlert, type AlertRoute } from "../../domain/alert-routing";
import { groupPaths } from "../store/alarm-ladders";
import { routesOf } from "../store/alert-routes";
import { ALARM_MESSAGE_WORDS, renderAlarmMessage, storedAlarmMessage, type AlarmMessage } from "../../domain/alarm-message";
import { STATUS_WORDS, type WordLocale } from "../../domain/status-words";
import { DAY_MS, HOUR_MS, formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import type { Database } from "../store/schema";
import { canSeePlant, type PlantRef } from "../../domain/visibility";
import { plantRef, reachOf } from "../store/visibility";
import { ALERT_PREF_COLUMNS } from "../store/alarms";
import { faultNamer } from "../store/fault-codes";
import { enqueue } from "./outbox";

type Db = Kysely<Database> | Transaction<Database>;

export type AlarmStep = "raised" | "reactivated" | "cleared" | "auto_cleared";

export interface AlarmStepEvent {
  eventSeq: number;
  step: AlarmStep;
  alarm: {
    seq: number;
    plant_uid: string;
    device_uid: string | null;
    rtu_uid: string | null;
    code: number;
    level: number;
    message: AlarmMessage;
    raised_at: number;
  };
  at: number;
}

/**
 * The words of alert mails and webhooks in each language (the recipient's, alert_pref.lang; Korean by default).
 * Alarm code names come from the one vocabulary (domain/status-words.ts), the engine's findings from
 * domain/alarm-message.ts; the code is always given too.
 */
const MAIL_WORDS: Record<
  WordLocale,
  {
    levels: Record<number, string>;
    steps: Record<AlarmStep, string>;
    plant: string;
    device: string;
    wholePlant: string;
    alarm: string;
    level: string;
    content: string;
    raisedAt: string;
    alarmNo: string;
    open: string;
    cleared: string;
    digest: string;
    digestCount: string;
    reminder: string;
    link: string;
  }
> = {
  ko: {
    levels: { 1: "관심", 2: "주의", 3: "경고", 4: "심각" },
    steps: { raised: "발생", reactivated: "재발생", cleared: "해제", auto_cleared: "자동 해제" },
    plant: "발전소",
    device: "장비",
    wholePlant: "발전소 전체",
    alarm: "경보",
    level: "등급",
    content: "내용",
    raisedAt: "발생",
    alarmNo: "경보 번호",
    open: "미해제",
    cleared: "해제",
    digest: "일일 요약",
    digestCount: "경보 {n}건",
    reminder: "미확인 {n}단계",
    link: "확인·조치",
  },
  en: {
    levels: { 1: "Interest", 2: "Caution", 3: "Warning", 4: "Severe" },
    steps: { raised: "Raised", reactivated: "Raised again", cleared: "Cleared", auto_cleared: "Auto-cleared" },
    plant: "Plant",
    device: "Device",
    wholePlant: "whole plant",
    alarm: "Alarm",
    level: "level",
    content: "Details",
    raisedAt: "Raised",
    alarmNo: "Alarm number",
    open: "open",
    cleared: "cleared",
    digest: "Daily summary",
    digestCount: "{n} alarms",
    reminder: "Unacknowledged, step {n}",
    link: "Open and acknowledge",
  },
};
const codeName = (lang: WordLocale, code: number) => (STATUS_WORDS[lang].codes as Readonly<Record<number, string>>)[code];
const langOf = (v: string | null | undefined): WordLocale => (v === "en" ? "en" : "ko");

/** The fault-code table's names in both languages, to name an inverter fault's bits in an alert. */
interface Recipient {
  plant_uid: string;
  /** The member's roles for this plant (owner, safety, operator). */
  roles: string[];
  member_id: string;
  email: string | null;
  pref: AlertPrefView;
  /** The member's alert routes (domain/alert-routing.ts); none: the preferences' minimum level for every plant. */
  routes: AlertRoute[];
  lang: WordLocale;
}

/** Whether a member may see the plant now (the visibility rule); a disabled or deleted member sees nothing. */
export async function memberSeesPlant(db: Db, memberId: string, plant: PlantRef): Promise<boolean> {
  try {
    return canSeePlant(await reachOf(db, { id: memberId }), { uid: plant.uid, node_seq: plant.node_seq });
  } catch {
    return false;
  }
}

/**
 * Why an alert about a plant may not go to this member at send time, or null: the outbox worker asks before each
 * delivery, so a contact moved to a group that cannot see the plant (or disabled) gets nothing more, and the
 * delivery log says why.
 */
export async function alertRecipientProblem(db: Db, plantUid: string, memberId: string): Promise<string | null> {
  const plant = await plantRef(db, plantUid);
  if (!plant) return "plant_gone";
  return (await memberSeesPlant(db, memberId, plant)) ? null : "recipient_cannot_see_plant";
}

async function recipients(db: Db, plantUids: string[]): Promise<Map<string, Recipient[]>> {
  const out = new Map<string, Recipient[]>();
  if (!plantUids.length) return out;
  const rows = await db
    .selectFrom("plant_contact")
    .innerJoin("member", "member.id", "plant_contact.member_id")
    .leftJoin("alert_pref", "alert_pref.member_id", "member.id")
    .select([
      "plant_contact.plant_uid",
      "plant_contact.role",
      "member.id",
      "member.email",
      "member.use_yn",
      ...ALERT_PREF_COLUMNS,
    ])
    .where("plant_contact.plant_uid", "in", plantUids)
    .execute();
  for (const r of rows) {
    if (Number(r.use_yn) !== 1) continue;
    const list = out.get(r.plant_uid) ?? [];
    // An owner who is also the safety manager is one recipient.
    const known = list.find((x) => x.member_id === r.id);
    if (known) {
      known.roles.push(r.role);
      continue;
    }
    list.push({
      plant_uid: r.plant_uid,
      roles: [r.role],
      member_id: r.id,
      email: r.email,
      pref: prefView(r),
      routes: [],
      lang: langOf(r.lang),
    });
    out.set(r.plant_uid, list);
  }
  const routes = await routesOf(db, [...new Set(rows.map((r) => r.id))]);
  for (const list of out.values()) for (const r of list) r.routes = routes.get(r.member_id) ?? [];
  return out;
}

/** The plant's group and its ancestors, nearest first (what a group route matches). */
async function plantGroupPath(db: Db, plantUid: string): Promise<number[]> {
  const plant = await db.selectFrom("plant").select("node_seq").where("uid", "=", plantUid).executeTakeFirst();
  if (plant?.node_seq === null || plant?.node_seq === undefined) return [];
  return (await groupPaths(db)).get(Number(plant.node_seq)) ?? [Number(plant.node_seq)];
}

export function prefView(r: {
  min_level: number | null;
  mail: number | null;
  webhook: number | null;
  webhook_url: string | null;
  quiet_from: number | null;
  quiet_to: number | null;
  digest: number | null;
}): AlertPrefView {
  if (r.min_level === null || r.min_level === undefined) return DEFAULT_ALERT_PREF;
  return {
    minLevel: Number(r.min_level),
    mail: Number(r.mail) === 1,
    webhook: Number(r.webhook) === 1,
    webhookUrl: r.webhook_url,
    quietFrom: r.quiet_from === null ? null : Number(r.quiet_from),
    quietTo: r.quiet_to === null ? null : Number(r.quiet_to),
    digest: Number(r.digest) === 1,
  };
}

async function names(db: Db, plantUids: string[], deviceUids: string[]) {
  const plants = plantUids.length
    ? await db.selectFrom("plant").select(["uid", "name"]).where("uid", "in", plantUids).execute()
    : [];
  const devices = deviceUids.length
    ? await db.selectFrom("device").select(["uid", "name"]).where("uid", "in", deviceUids).execute()
    : [];
  return { plant: new Map(plants.map((p) => [p.uid, p.name])), device: new Map(devices.map((d) => [d.uid, d.name])) };
}

/** Where an alarm mail's link points: the portal's alarm page, which asks for a login first and comes back. */
export const alarmLink = (portalUrl: string, seq: number) => `${portalUrl.replace(/\/+$/, "")}/alarm/${seq}`;

/** One alarm mail in one language: subject and text (with the link that opens the alarm to acknowledge it). */
function composeAlarmMail(
  lang: WordLocale,
  label: string,
  e: { alarm: AlarmStepEvent["alarm"]; at: number; stepWord: string },
  n: Awaited<ReturnType<typeof names>>,
  faults: Awaited<ReturnType<typeof faultNamer>>,
  portalUrl: string | undefined,
) {
  const w = MAIL_WORDS[lang];
  const a = e.alarm;
  const plantName = n.plant.get(a.plant_uid) ?? a.plant_uid;
  const subject = `[${label}] ${plantName} · ${codeName(lang, a.code) ?? a.code} (${w.levels[a.level] ?? a.level})`;
  const text = [
    `${w.plant}: ${plantName} (${a.plant_uid})`,
    `${w.device}: ${a.device_uid ? `${n.device.get(a.device_uid) ?? a.device_uid} (${a.device_uid})` : a.rtu_uid ? `RTU ${a.rtu_uid}` : w.wholePlant}`,
    `${w.alarm}: ${a.code} ${codeName(lang, a.code) ?? ""} · ${w.level} ${a.level} ${w.levels[a.level] ?? ""}`,
    `${w.content}: ${renderAlarmMessage(ALARM_MESSAGE_WORDS[lang], a.message, faults[lang])}`,
    `${w.raisedAt}: ${formatSeoul(a.raised_at, "YYYY-MM-DD HH:mm:ss")}`,
    `${e.stepWord}: ${formatSeoul(e.at, "YYYY-MM-DD HH:mm:ss")}`,
    `${w.alarmNo}: ${a.seq}`,
    ...(portalUrl ? [`${w.link}: ${alarmLink(portalUrl, a.seq)}`] : []),
  ].join("\n");
  return { subject, text };
}

/** Enqueues each recipient's deliveries of one alarm mail (their channels, level and quiet hours); how many were new. */
async function enqueueToRecipients(
  db: Db,
  who: Recipient[],
  a: AlarmStepEvent["alarm"],
  compose: (lang: WordLocale) => { subject: string; text: string },
  key: (r: Recipient, channel: string) => string,
  now: number,
): Promise<number> {
  const composed: Partial<Record<WordLocale, { subject: string; text: string }>> = {};
  let queued = 0;
  const groupPath = who.some((r) => r.routes.some((x) => x.group !== null)) ? await plantGroupPath(db, a.plant_uid) : [];
  for (const r of who) {
    const plan = routeAlert(r.pref, r.routes, r.email, { plant_uid: a.plant_uid, groupPath, level: a.level, code: a.code }, now);
    const { subject, text } = (composed[r.lang] ??= compose(r.lang));
    for (const c of plan.channels) {
      const fresh = await enqueue(db, {
        channel: c.channel,
        to: c.to,
        subject,
        text,
        notBefore: plan.notBefore,
        dedupeKey: key(r, c.channel),
        plantUid: a.plant_uid,
        memberId: r.member_id,
      });
      if (fresh) queued++;
    }
  }
  return queued;
}

/**
 * Enqueues the alerts of these alarm steps to every contact of the plant (call inside the transaction that wrote
 * them). The steps that make an alarm active (raised, raised again) are not alerted here: the escalation ladder
 * delivers them (enqueueLadderStep), its first step at once.
 */
export async function enqueueAlarmAlerts(
  db: Db,
  events: AlarmStepEvent[],
  now = Date.now(),
  portalUrl?: string,
): Promise<number> {
  if (!events.length) return 0;
  const plantUids = [...new Set(events.map((e) => e.alarm.plant_uid))];
  const who = await recipients(db, plantUids);
  if (!who.size) return 0;
  const n = await names(db, plantUids, [...new Set(events.map((e) => e.alarm.device_uid).filter((d): d is string => !!d))]);
  const faults = await faultNamer(db);
  let queued = 0;
  for (const e of events) {
    const compose = (lang: WordLocale) =>
      composeAlarmMail(
        lang,
        MAIL_WORDS[lang].steps[e.step],
        { alarm: e.alarm, at: e.at, stepWord: MAIL_WORDS[lang].steps[e.step] },
        n,
        faults,
        // A cleared alarm's mail links to it too (what happened), though there is nothing left to acknowledge.
        portalUrl,
      );
    queued += await enqueueToRecipients(
      db,
      who.get(e.alarm.plant_uid) ?? [],
      e.alarm,
      compose,
      (r, channel) => `alarm-event:${e.eventSeq}:${r.member_id}:${channel}`,
      now,
    );
  }
  return queued;
}

/**
 * Enqueues one step of an alarm's escalation ladder to the plant's contacts in the step's roles (call inside the
 * transaction that records the step in alarm_escalation: its key makes the step once). The first step is the alarm's
 * own alert ("raised", "raised again"); later ones are reminders ("unacknowledged, step n"). Returns how many
 * deliveries were enqueued.
 */
export async function enqueueLadderStep(
  db: Db,
  step: { index: number; roles: readonly string[]; activeSince: number; reactivated: boolean },
  alarm: AlarmStepEvent["alarm"],
  now: number,
  portalUrl?: string,
): Promise<number> {
  const who = ((await recipients(db, [alarm.plant_uid])).get(alarm.plant_uid) ?? []).filter((r) =>
    r.roles.some((role) => step.roles.includes(role)),
  );
  if (!who.length) return 0;
  const n = await names(db, [alarm.plant_uid], alarm.device_uid ? [alarm.device_uid] : []);
  const faults = await faultNamer(db);
  const compose = (lang: WordLocale) => {
    const w = MAIL_WORDS[lang];
    const kind = w.steps[step.reactivated ? "reactivated" : "raised"];
    const label = step.index === 0 ? kind : w.reminder.replace("{n}", String(step.index + 1));
    return composeAlarmMail(lang, label, { alarm, at: step.activeSince, stepWord: kind }, n, faults, portalUrl);
  };
  return enqueueToRecipients(
    db,
    who,
    alarm,
    compose,
    (r, channel) => `alarm-ladder:${alarm.seq}:${step.activeSince}:${step.index}:${r.member_id}:${channel}`,
    now,
  );
}

/**
 * The daily digest of yesterday's (Seoul) alarm steps for members who chose it, once a day after
 * DIGEST_HOUR. Its key is the member and the day, so a restart or a second server sends it once.
 */
export async function enqueueDigests(db: Db, now: number): Promise<number> {
  const today = seoulDayStart(now);
  if (now < today + DIGEST_HOUR * HOUR_MS) return 0;
  const from = today - DAY_MS;
  const day = formatSeoul(from, "YYYY-MM-DD");
  const members = await db
    .selectFrom("alert_pref")
    .innerJoin("member", "member.id", "alert_pref.member_id")
    .select(["member.id", "member.email", "alert_pref.min_level", "alert_pref.lang"])
    .where("alert_pref.digest", "=", 1)
    .where("alert_pref.mail", "=", 1)
    .where("member.use_yn", "=", 1)
    .where("member.email", "is not", null)
    .execute();
  const faults = members.length ? await faultNamer(db) : null;
  let queued = 0;
  for (const m of members) {
    const lang = langOf(m.lang);
    const w = MAIL_WORDS[lang];
    const contactOf = (
      await db
        .selectFrom("plant_contact")
        .innerJoin("plant", "plant.uid", "plant_contact.plant_uid")
        .select(["plant.uid", "plant.node_seq"])
        .where("plant_contact.member_id", "=", m.id)
        .execute()
    ).map((p) => ({ uid: p.uid, node_seq: p.node_seq === null ? null : Number(p.node_seq) }));
    // Only the plants the member may see today (the visibility rule), as for every alert.
    const plants: string[] = [];
    for (const p of contactOf) if (await memberSeesPlant(db, m.id, p)) plants.push(p.uid);
    if (!plants.length) continue;
    const alarms = await db
      .selectFrom("alarm")
      .innerJoin("plant", "plant.uid", "alarm.plant_uid")
      .select([
        "alarm.seq",
        "alarm.code",
        "alarm.level",
        "alarm.message",
        "alarm.message_code",
        "alarm.message_params",
        "alarm.raised_at",
        "alarm.released_at",
        "plant.name",
      ])
      .where("alarm.plant_uid", "in", plants)
      .where("alarm.raised_at", ">=", from)
      .where("alarm.raised_at", "<", today)
      .where("alarm.level", ">=", Number(m.min_level))
      .orderBy("alarm.raised_at")
      .limit(500)
      .execute();
    if (!alarms.length) continue;
    const lines = alarms.map(
      (a) =>
        `${formatSeoul(Number(a.raised_at), "HH:mm")} ${a.name} · ${codeName(lang, Number(a.code)) ?? a.code} (${w.levels[Number(a.level)] ?? a.level})` +
        `${a.released_at === null ? ` · ${w.open}` : ` · ${w.cleared} ${formatSeoul(Number(a.released_at), "HH:mm")}`} — ` +
        renderAlarmMessage(
          ALARM_MESSAGE_WORDS[lang],
          storedAlarmMessage(a.message_code, a.message_params, a.message),
          faults![lang],
        ),
    );
    const fresh = await enqueue(db, {
      channel: "mail",
      to: m.email!,
      subject: `[${w.digest}] ${day} ${w.digestCount.replace("{n}", String(alarms.length))}`,
      text: lines.join("\n"),
      dedupeKey: `digest:${m.id}:${day}`,
      memberId: m.id,
    });
    if (fresh) queued++;
  }
  return queued;
}
