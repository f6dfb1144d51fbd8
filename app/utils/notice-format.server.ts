/** Dates of notices, formatted once on the server (Asia/Seoul) so the browser shows the same text. */
import type { NoticeRow } from "../../domain/notice-form";
import type { Locale } from "../i18n";

export function noticeDate(ms: number, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "ko" ? "ko-KR" : "en-GB", {
    timeZone: "Asia/Seoul",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    // h23, not hour12: false: some ICU builds write the hour after midnight as 24.
    hourCycle: "h23",
  }).format(new Date(ms));
}

export function withDates(rows: NoticeRow[], locale: Locale) {
  return rows.map((n) => ({ ...n, date: noticeDate(n.created_at, locale) }));
}
