/**
 * Statistics calls of the portal (SPEC §7 Statistics): the scope's choices, a report, an export file.
 * Which call a report tab uses: integrated → /rpi/statistics/group/plant (rows per plant), inverter → /rpi,
 * environment → /rpe (or /rpe/statistics/group for a group), VCB → /rpv, ACB → /rpa.
 */
import type {
  PdfDetail,
  ReportKind,
  StatisticsResponse,
  StatisticsScopeResponse,
  Subscription,
  SubscriptionFrequency,
} from "../../domain/contract/statistics";
import { apiQuery, type StatisticsView } from "../../domain/statistics-view";
import { api, apiFile, apiShaped, keptShapes } from "./api.server";

const REPORT_PATH: Record<ReportKind, string> = {
  integrated: "/rpi/statistics/group/plant",
  inverter: "/rpi",
  env: "/rpe",
  vcb: "/rpv",
  acb: "/rpa",
};

function scopeQuery(view: Pick<StatisticsView, "plant" | "group">) {
  return view.group !== undefined ? { isGroup: 1, group: view.group } : view.plant ? { plant: view.plant } : {};
}

export const statisticsScope = (token: string, view: StatisticsView) =>
  api<StatisticsScopeResponse>("/rpi/statistics/scope", { token, query: scopeQuery(view) });

/** A report's page as the screen shows it, derived from the API's answer, with that answer's size. */
interface Shaped {
  value: unknown;
  bytes: number;
}

/**
 * Report pages already shaped, by what they were shaped for and the API's answer (its ETag): a report asked again
 * — reloaded, printed, or asked by the next member for the same scope — is neither parsed nor shaped again.
 * The answer's size stands in for the shape's; least recently used first out.
 */
const shapedReports = keptShapes<Shaped>(32 * 1024 * 1024);

/**
 * A report as the screen shows it: the API answers the rows of one page of its table (`rows`), with the totals,
 * the summary and the chart's series of the whole report — the API sums every row, the page gets only what it
 * draws — and `shape` turns that answer into what the page renders. `shapeKey` names everything `shape` depends on
 * besides the answer (the language, the report kind, the page).
 */
export async function statisticsReport<T>(
  token: string,
  view: StatisticsView,
  rows: { offset: number; limit: number },
  shapeKey: string,
  shape: (report: StatisticsResponse) => T,
): Promise<T> {
  const path = view.report === "env" && view.group !== undefined ? "/rpe/statistics/group" : REPORT_PATH[view.report];
  const { value } = await apiShaped(
    path,
    { token, query: { ...apiQuery(view), offset: rows.offset, limit: rows.limit, series: 1 } },
    shapedReports,
    `${shapeKey}\u0000`,
    (text) => ({ value: shape(JSON.parse(text) as StatisticsResponse), bytes: text.length }),
  );
  return value.value as T;
}

export const statisticsExport = (
  token: string,
  view: StatisticsView,
  format: "csv" | "xlsx" | "pdf",
  lang: "ko" | "en",
  detail?: PdfDetail,
) =>
  apiFile("/statistics/export", {
    token,
    query: { ...apiQuery(view), report: view.report, format, lang, ...(detail ? { detail } : {}) },
  });

export type SubscriptionItem = Subscription & { next_run: number | null; last_sent_at: number | null; last_error: string | null };

/** The member's scheduled report mails, and their own address (a new subscription's default). */
export const statisticsSubscriptions = (token: string) =>
  api<{ subscriptions: SubscriptionItem[]; email: string | null }>("/statistics/subscriptions", { token });

export const subscribeReport = (
  token: string,
  body: {
    report: ReportKind;
    frequency: SubscriptionFrequency;
    plant?: string;
    isGroup?: boolean;
    group?: number;
    email: string;
    lang: "ko" | "en";
  },
) => api<{ subscription: SubscriptionItem; existing: boolean }>("/statistics/subscriptions", { token, method: "POST", body });

export const unsubscribeReport = (token: string, seq: number) =>
  api<void>(`/statistics/subscriptions/${seq}`, { token, method: "DELETE" });
