/**
 * Statistics calls of the portal (SPEC §7 Statistics): the scope's choices, a report, an export file.
 * Which call a report tab uses: integrated → /rpi/statistics/group/plant (rows per plant), inverter → /rpi,
 * environment → /rpe (or /rpe/statistics/group for a group), VCB → /rpv, ACB → /rpa.
 */
import type {
  ReportKind,
  StatisticsResponse,
  StatisticsScopeResponse,
  Subscription,
  SubscriptionFrequency,
} from "../../domain/contract/statistics";
import { apiQuery, type StatisticsView } from "../../domain/statistics-view";
import { api, apiFile } from "./api.server";

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

/**
 * A report as the screen shows it: the rows of one page of its table (`rows`), with the totals, the summary
 * and the chart's series of the whole report — the API sums every row, the page gets only what it draws.
 */
export function statisticsReport(token: string, view: StatisticsView, rows: { offset: number; limit: number }) {
  const path = view.report === "env" && view.group !== undefined ? "/rpe/statistics/group" : REPORT_PATH[view.report];
  return api<StatisticsResponse>(path, {
    token,
    query: { ...apiQuery(view), offset: rows.offset, limit: rows.limit, series: 1 },
  });
}

export const statisticsExport = (token: string, view: StatisticsView, format: "csv" | "xlsx", lang: "ko" | "en") =>
  apiFile("/statistics/export", { token, query: { ...apiQuery(view), report: view.report, format, lang } });

export type SubscriptionItem = Subscription & { next_run: number | null; last_sent_at: number | null; last_error: string | null };

export const statisticsSubscriptions = (token: string) =>
  api<{ subscriptions: SubscriptionItem[] }>("/statistics/subscriptions", { token });

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
