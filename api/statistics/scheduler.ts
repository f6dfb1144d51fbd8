/**
 * The report scheduler (issue 16): a cluster singleton job ("report-scheduler", api/cluster/singletons.ts) that,
 * every `intervalMs`, sends each subscription whose period is due (domain/statistics-schedule.ts: the day, week
 * or month before, from 01:00 Seoul) as an XLSX attachment through the mail outbox (api/notify/outbox.ts).
 *
 * Exactly once: the mail is enqueued with the dedupe key `report:<subscription>:<period start>` in the same
 * transaction that records the period as sent, so a second tick, a second server that took over the job, or a
 * run repeated after a crash never queues the same report twice. The report is built as the member would see it
 * now (api/statistics/report.ts, the same code as the page and the exports): a plant or group the member may no
 * longer see, or a disabled member, skips the period and records why (`last_error`, shown in the list).
 */
import { Writable } from "node:stream";
import type { Clock } from "../clock";
import type { SingletonContext, SingletonJob } from "../cluster/singletons";
import type { ReportKind, SubscriptionFrequency } from "../../domain/contract/statistics";
import { formatSeoul } from "../../domain/seoul-time";
import { periodToSend, SUBSCRIPTION_UNIT } from "../../domain/statistics-schedule";
import { alarmFigures, figureTableLines } from "../../domain/alarm-figures";
import { alarmsRaisedIn, plantsWithGroups } from "../store/alarm-figures";
import { REPORT_TITLES, type Lang } from "../../domain/statistics-table";
import type { Period } from "../../domain/statistics";
import { ApiError } from "../http";
import { enqueue } from "../notify/outbox";
import type { Store } from "../store/db";
import type { Kysely } from "kysely";
import type { Database } from "../store/schema";
import { allSubscriptions, type SubscriptionRow } from "../store/report-subscriptions";
import { exportFileName, summaryLines, writeXlsx } from "./export";
import { newTotals, prepareReport, reportChunks, summaryOf } from "./report";

export const REPORT_SCHEDULER = "report-scheduler";
export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const FREQUENCY_TEXT: Record<Lang, Record<SubscriptionFrequency, string>> = {
  ko: { daily: "일간", weekly: "주간", monthly: "월간" },
  en: { daily: "Daily", weekly: "Weekly", monthly: "Monthly" },
};

/** Collects a stream into one buffer (an attachment is stored in the outbox whole). */
class Collector extends Writable {
  chunks: Buffer[] = [];
  _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.chunks.push(chunk);
    cb();
  }
  buffer() {
    return Buffer.concat(this.chunks);
  }
}

export function dedupeKeyOf(seq: number, period: Period): string {
  return `report:${seq}:${period.start}`;
}

/** Builds and enqueues one subscription's report for `period`; true when a new mail was queued. */
export async function sendScheduledReport(store: Store, sub: SubscriptionRow, period: Period, now: number): Promise<boolean> {
  const db = store.db;
  const member = await db
    .selectFrom("member")
    .leftJoin("node", "node.seq", "member.node_seq")
    .select(["member.id", "member.service", "node.name as nodeName"])
    .where("member.id", "=", sub.member_id)
    .executeTakeFirst();
  if (!member) throw new ApiError(403, "member_disabled");
  const lang: Lang = sub.lang === "en" ? "en" : "ko";
  const report = sub.report as ReportKind;
  const frequency = sub.frequency as SubscriptionFrequency;
  const fleetName = member.nodeName || member.id;
  const p = await prepareReport(
    db,
    { id: member.id, scope: undefined, service: Number(member.service) },
    report,
    {
      plant: sub.plant_uid ?? undefined,
      isGroup: sub.group_seq !== null ? true : undefined,
      group: sub.group_seq !== null ? Number(sub.group_seq) : undefined,
      unit: SUBSCRIPTION_UNIT[frequency],
      start: formatSeoul(period.start, "YYYY-MM-DD HH:mm"),
      end: formatSeoul(period.end, "YYYY-MM-DD HH:mm"),
      sunRise: false,
    },
    now,
    fleetName,
  );
  const file = new Collector();
  await writeXlsx(db, p, lang, file, member.id, now);
  // The mail's text repeats the summary (the totals of the same rows the file holds).
  const totals = newTotals(p);
  for await (const chunk of reportChunks(db, p)) totals.add(chunk);
  const lines = summaryLines(p, await summaryOf(db, p, totals), lang, member.id, now);
  const label = formatSeoul(period.start, frequency === "monthly" ? "YYYY-MM" : "YYYY-MM-DD");
  const subject = `[${FREQUENCY_TEXT[lang][frequency]}] ${REPORT_TITLES[report][lang]} — ${p.resolved.scope.name} — ${label}`;
  // The monthly report carries the month's alarm figures of its plants (issue 29 §2, domain/alarm-figures.ts).
  const figures =
    frequency === "monthly"
      ? [
          "",
          ...(await monthAlarmFigureLines(
            db,
            p.resolved.plants.map((x) => x.uid),
            period,
            lang,
          )),
        ]
      : [];
  const text = [
    ...lines.map(([k, v, u]) => `${k}: ${v ?? "–"}${u ? ` ${u}` : ""}`),
    ...figures,
    "",
    lang === "ko"
      ? "정기 보고서 메일입니다. 통계 화면(/statistics)에서 구독을 해지할 수 있습니다."
      : "This is a scheduled report mail. Unsubscribe on the statistics screen (/statistics).",
  ].join("\n");
  return db.transaction().execute(async (trx) => {
    const fresh = await enqueue(trx, {
      channel: "mail",
      to: sub.email,
      subject,
      text,
      attachments: [
        { filename: exportFileName(p, "xlsx"), contentType: XLSX_TYPE, contentBase64: file.buffer().toString("base64") },
      ],
      dedupeKey: dedupeKeyOf(Number(sub.seq), period),
    });
    await trx
      .updateTable("report_subscription")
      .set({ last_period: period.start, last_sent_at: now, last_error: null })
      .where("seq", "=", sub.seq)
      .execute();
    return fresh;
  });
}

export interface ReportSchedulerOptions {
  /** How often the subscriptions are looked at (REPORT_SCHEDULE_MS, default a minute). */
  intervalMs: number;
  log: (m: string, e?: unknown) => void;
}

export function reportScheduler(
  store: Store,
  clock: Clock,
  opts: ReportSchedulerOptions,
): SingletonJob & { runOnce(held?: () => boolean): Promise<number> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const job = {
    name: REPORT_SCHEDULER,
    /** Sends every due report; returns how many mails were queued. */
    async runOnce(held: () => boolean = () => true): Promise<number> {
      let queued = 0;
      for (const sub of await allSubscriptions(store.db)) {
        if (!held()) break;
        const now = clock.now();
        const last = sub.last_period === null ? null : Number(sub.last_period);
        const period = periodToSend(sub.frequency as SubscriptionFrequency, last, now);
        if (!period) continue;
        try {
          if (await sendScheduledReport(store, sub, period, now)) queued++;
        } catch (e) {
          if (e instanceof ApiError && (e.status === 404 || e.status === 403 || e.status === 400)) {
            // The scope is gone or no longer visible, or the member is disabled: skip this period, say why.
            await store.db
              .updateTable("report_subscription")
              .set({ last_period: period.start, last_error: e.message })
              .where("seq", "=", sub.seq)
              .execute();
          } else {
            opts.log(`report scheduler: subscription ${sub.seq} failed; tried again at the next run`, e);
          }
        }
      }
      return queued;
    },
    start(ctx: SingletonContext) {
      const pass = () => {
        if (running) return;
        running = job
          .runOnce(() => ctx.held())
          .catch((e) => ctx.held() && opts.log("report scheduler failed", e))
          .finally(() => (running = null));
      };
      pass();
      timer = setInterval(pass, opts.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
  return job;
}

/** The alarm figures of a period among these plants, as the monthly mail's text table. */
async function monthAlarmFigureLines(
  db: Kysely<Database>,
  plantUids: string[],
  period: { start: number; end: number },
  lang: Lang,
): Promise<string[]> {
  const [alarms, plants] = await Promise.all([
    alarmsRaisedIn(db, plantUids, period.start, period.end),
    plantsWithGroups(db, plantUids),
  ]);
  const days = Math.max(1, Math.round((period.end - period.start) / 86_400_000));
  return figureTableLines(alarmFigures(alarms, plants, days), lang);
}
