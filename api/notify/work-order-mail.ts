/**
 * The assignee's mail of a work order (issue 29 §3): enqueued through the outbox inside the transaction that
 * assigned them, keyed by that assignment's history row, so each assignment mails exactly once (a member without
 * an e-mail address gets none). In the member's alert language (alert_pref.lang; Korean by default).
 */
import type { Transaction } from "kysely";
import { WORK_ORDER_WORDS, type WorkOrderWordLocale } from "../../domain/work-order-words";
import type { WorkOrderPriority } from "../../domain/work-order";
import type { Database } from "../store/schema";
import { enqueue } from "./outbox";

/** Where the mail's link points: the portal's work order page (after a login). */
export const workOrderLink = (portalUrl: string, id: number) => `${portalUrl.replace(/\/+$/, "")}/workorder/${id}`;

const fill = (text: string, v: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in v ? String(v[k]) : m));

export async function enqueueAssignmentMail(
  trx: Transaction<Database>,
  a: { workOrderId: number; historySeq: number; assignee: string; by: string },
  portalUrl: string | undefined,
): Promise<boolean> {
  const member = await trx
    .selectFrom("member")
    .leftJoin("alert_pref", "alert_pref.member_id", "member.id")
    .select(["member.email", "alert_pref.lang"])
    .where("member.id", "=", a.assignee)
    .executeTakeFirst();
  if (!member?.email) return false;
  const w = await trx
    .selectFrom("work_order as w")
    .innerJoin("plant as p", "p.uid", "w.plant_uid")
    .select(["w.title", "w.description", "w.priority", "w.due_date", "w.plant_uid", "p.name as plantName"])
    .where("w.id", "=", a.workOrderId)
    .executeTakeFirstOrThrow();
  const by = await trx.selectFrom("member").select("name").where("id", "=", a.by).executeTakeFirst();
  const lang: WorkOrderWordLocale = member.lang === "en" ? "en" : "ko";
  const t = WORK_ORDER_WORDS[lang];
  const text = [
    fill(t.assignedIntro, { by: by?.name ?? a.by, id: a.workOrderId }),
    "",
    `${t.mail.plant}: ${w.plantName} (${w.plant_uid})`,
    `${t.mail.title}: ${w.title}`,
    `${t.mail.priority}: ${t.priorities[w.priority as WorkOrderPriority] ?? w.priority}`,
    `${t.mail.dueDate}: ${w.due_date ?? t.mail.none}`,
    ...(w.description ? [`${t.mail.description}:`, w.description] : []),
    ...(portalUrl ? ["", `${t.mail.link}: ${workOrderLink(portalUrl, a.workOrderId)}`] : []),
  ].join("\n");
  return enqueue(trx, {
    channel: "mail",
    to: member.email,
    subject: fill(t.assignedSubject, { plant: w.plantName, title: w.title }),
    text,
    dedupeKey: `work-order:${a.workOrderId}:assigned:${a.historySeq}`,
    plantUid: w.plant_uid,
    memberId: a.assignee,
  });
}
