/**
 * Alerts to the people responsible for a plant (MOTIE 2021: owner and electrical safety manager): each
 * alarm step (raised, raised again, cleared) becomes one outbox message per member and channel, in the
 * same transaction as the step, keyed by the step so it is sent exactly once; members who chose the daily
 * digest get one mail a day instead.
 */
import type { Kysely, Transaction } from "kysely";
import { DEFAULT_ALERT_PREF, DIGEST_HOUR, planAlert, type AlertPrefView } from "../../domain/alert-policy";
import { STATUS_WORDS } from "../../domain/status-words";
import { DAY_MS, HOUR_MS, formatSeoul, seoulDayStart } from "../../domain/seoul-time";
import type { Database } from "../store/schema";
import { enqueue } from "./outbox";

type Db = Kysely<Database> | Transaction<Database>;

export type AlarmStep = "raised" | "reactivated" | "cleared";

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
    message: string;
    raised_at: number;
  };
  at: number;
}

/** Names in mails (Korean first, the portal's default language; the code is always given too): the one vocabulary. */
const CODE_NAME = STATUS_WORDS.ko.codes as Readonly<Record<number, string>>;
const LEVEL_NAME: Record<number, string> = { 1: "관심", 2: "주의", 3: "경고", 4: "심각" };
const STEP_NAME: Record<AlarmStep, string> = { raised: "발생", reactivated: "재발생", cleared: "해제" };

interface Recipient {
  plant_uid: string;
  member_id: string;
  email: string | null;
  pref: AlertPrefView;
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
      "member.id",
      "member.email",
      "member.use_yn",
      "alert_pref.min_level",
      "alert_pref.mail",
      "alert_pref.webhook",
      "alert_pref.webhook_url",
      "alert_pref.quiet_from",
      "alert_pref.quiet_to",
      "alert_pref.digest",
    ])
    .where("plant_contact.plant_uid", "in", plantUids)
    .execute();
  for (const r of rows) {
    if (Number(r.use_yn) !== 1) continue;
    const list = out.get(r.plant_uid) ?? [];
    // An owner who is also the safety manager is one recipient.
    if (list.some((x) => x.member_id === r.id)) continue;
    list.push({ plant_uid: r.plant_uid, member_id: r.id, email: r.email, pref: prefView(r) });
    out.set(r.plant_uid, list);
  }
  return out;
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

/** Enqueues the alerts of these alarm steps (call inside the transaction that wrote them). */
export async function enqueueAlarmAlerts(db: Db, events: AlarmStepEvent[], now = Date.now()): Promise<number> {
  if (!events.length) return 0;
  const plantUids = [...new Set(events.map((e) => e.alarm.plant_uid))];
  const who = await recipients(db, plantUids);
  if (!who.size) return 0;
  const n = await names(db, plantUids, [...new Set(events.map((e) => e.alarm.device_uid).filter((d): d is string => !!d))]);
  let queued = 0;
  for (const e of events) {
    const a = e.alarm;
    const plantName = n.plant.get(a.plant_uid) ?? a.plant_uid;
    const subject = `[${STEP_NAME[e.step]}] ${plantName} · ${CODE_NAME[a.code] ?? a.code} (${LEVEL_NAME[a.level] ?? a.level})`;
    const text = [
      `발전소: ${plantName} (${a.plant_uid})`,
      `장비: ${a.device_uid ? `${n.device.get(a.device_uid) ?? a.device_uid} (${a.device_uid})` : a.rtu_uid ? `RTU ${a.rtu_uid}` : "발전소 전체"}`,
      `경보: ${a.code} ${CODE_NAME[a.code] ?? ""} · 등급 ${a.level} ${LEVEL_NAME[a.level] ?? ""}`,
      `내용: ${a.message}`,
      `발생: ${formatSeoul(a.raised_at, "YYYY-MM-DD HH:mm:ss")}`,
      `${STEP_NAME[e.step]}: ${formatSeoul(e.at, "YYYY-MM-DD HH:mm:ss")}`,
      `경보 번호: ${a.seq}`,
    ].join("\n");
    for (const r of who.get(a.plant_uid) ?? []) {
      const plan = planAlert(r.pref, r.email, a.level, now);
      for (const c of plan.channels) {
        const fresh = await enqueue(db, {
          channel: c.channel,
          to: c.to,
          subject,
          text,
          notBefore: plan.notBefore,
          dedupeKey: `alarm-event:${e.eventSeq}:${r.member_id}:${c.channel}`,
        });
        if (fresh) queued++;
      }
    }
  }
  return queued;
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
    .select(["member.id", "member.email", "alert_pref.min_level"])
    .where("alert_pref.digest", "=", 1)
    .where("alert_pref.mail", "=", 1)
    .where("member.use_yn", "=", 1)
    .where("member.email", "is not", null)
    .execute();
  let queued = 0;
  for (const m of members) {
    const plants = (await db.selectFrom("plant_contact").select("plant_uid").where("member_id", "=", m.id).execute()).map(
      (p) => p.plant_uid,
    );
    if (!plants.length) continue;
    const alarms = await db
      .selectFrom("alarm")
      .innerJoin("plant", "plant.uid", "alarm.plant_uid")
      .select(["alarm.seq", "alarm.code", "alarm.level", "alarm.message", "alarm.raised_at", "alarm.released_at", "plant.name"])
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
        `${formatSeoul(Number(a.raised_at), "HH:mm")} ${a.name} · ${CODE_NAME[Number(a.code)] ?? a.code} (${LEVEL_NAME[Number(a.level)] ?? a.level})` +
        `${a.released_at === null ? " · 미해제" : ` · 해제 ${formatSeoul(Number(a.released_at), "HH:mm")}`} — ${a.message}`,
    );
    const fresh = await enqueue(db, {
      channel: "mail",
      to: m.email!,
      subject: `[일일 요약] ${day} 경보 ${alarms.length}건`,
      text: lines.join("\n"),
      dedupeKey: `digest:${m.id}:${day}`,
    });
    if (fresh) queued++;
  }
  return queued;
}
