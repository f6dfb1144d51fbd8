/**
 * Scheduled statistics reports (issue 16, migration 0007): a member's subscriptions. Only the member's own
 * subscriptions are listed or deleted (another member's seq answers 404), and a subscription's scope is checked
 * against what the member may see when it is made (resolveScope: a foreign plant or group answers 404) and again
 * at every run (api/statistics/scheduler.ts).
 */
import type { Kysely, Selectable } from "kysely";
import type { ReportKind, StatScope, Subscription, SubscriptionFrequency } from "../../domain/contract/statistics";
import { notFound } from "../http";
import { requireEnabled } from "./visibility";
import type { Database, ReportSubscriptionTable } from "./schema";

export type SubscriptionRow = Selectable<ReportSubscriptionTable>;

export interface NewSubscription {
  report: ReportKind;
  frequency: SubscriptionFrequency;
  plant_uid: string | null;
  group_seq: number | null;
  email: string;
  lang: "ko" | "en";
}

const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The row as the API answers it; `scope` carries the name the resolver found. */
export function toSubscription(
  row: SubscriptionRow,
  scope: StatScope,
): Subscription & { next_run: number | null; last_sent_at: number | null; last_error: string | null } {
  return {
    seq: Number(row.seq),
    report: row.report as ReportKind,
    frequency: row.frequency as SubscriptionFrequency,
    scope,
    email: row.email,
    lang: row.lang === "en" ? "en" : "ko",
    created_at: Number(row.created_at),
    last_period: n(row.last_period),
    last_sent_at: n(row.last_sent_at),
    last_error: row.last_error,
    next_run: null,
  };
}

export function listSubscriptions(db: Kysely<Database>, memberId: string): Promise<SubscriptionRow[]> {
  return db.selectFrom("report_subscription").selectAll().where("member_id", "=", memberId).orderBy("seq").execute();
}

/**
 * The member's subscriptions and e-mail address, in one statement (the report screen asks on every page); a disabled
 * member gets 403 `member_disabled`, as from their reach (api/store/visibility.ts).
 */
export async function subscriptionsWithEmail(
  db: Kysely<Database>,
  memberId: string,
): Promise<{ rows: SubscriptionRow[]; email: string | null }> {
  const found = await db
    .selectFrom("member")
    .leftJoin("report_subscription as s", "s.member_id", "member.id")
    .select(["member.email as member_email", "member.use_yn as member_use"])
    .selectAll("s")
    .where("member.id", "=", memberId)
    .orderBy("s.seq")
    .execute();
  requireEnabled(found[0]?.member_use);
  const rows = found.filter((r) => r.seq !== null).map(({ member_email: _e, member_use: _u, ...r }) => r as SubscriptionRow);
  return { rows, email: found[0]?.member_email ?? null };
}

export function allSubscriptions(db: Kysely<Database>): Promise<SubscriptionRow[]> {
  return db.selectFrom("report_subscription").selectAll().orderBy("seq").execute();
}

export async function insertSubscription(
  db: Kysely<Database>,
  memberId: string,
  s: NewSubscription,
  now: number,
): Promise<SubscriptionRow> {
  return db
    .insertInto("report_subscription")
    .values({ member_id: memberId, ...s, created_at: now, last_period: null, last_sent_at: null, last_error: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one of the member's own subscriptions; 404 for another's or an unknown one. */
export async function deleteSubscription(db: Kysely<Database>, memberId: string, seq: number): Promise<void> {
  const res = await db
    .deleteFrom("report_subscription")
    .where("seq", "=", seq)
    .where("member_id", "=", memberId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) throw notFound("no_such_subscription");
}

/** Whether a member already has the same subscription (kind, scope, frequency, address). */
export async function findSame(db: Kysely<Database>, memberId: string, s: NewSubscription): Promise<SubscriptionRow | undefined> {
  let q = db
    .selectFrom("report_subscription")
    .selectAll()
    .where("member_id", "=", memberId)
    .where("report", "=", s.report)
    .where("frequency", "=", s.frequency)
    .where("email", "=", s.email);
  q = s.plant_uid === null ? q.where("plant_uid", "is", null) : q.where("plant_uid", "=", s.plant_uid);
  q = s.group_seq === null ? q.where("group_seq", "is", null) : q.where("group_seq", "=", s.group_seq);
  return q.executeTakeFirst();
}
