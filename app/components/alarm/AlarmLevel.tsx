/** An alarm's level as a mark and a word (never by colour alone): the alarm list and the alarm page. */
import type { AlarmCatalogue } from "~/i18n/alarm";

export const LEVEL_MARK: Record<number, string> = { 1: "ⓘ", 2: "△", 3: "▲", 4: "◆" };

export function AlarmLevel({ t, level }: { t: AlarmCatalogue; level: number }) {
  const word = t.alarm.tabs[`l${level}` as "l1"] ?? String(level);
  return (
    <span className={`level-badge level-${level}`}>
      <span aria-hidden="true">{LEVEL_MARK[level] ?? "•"}</span>
      {` ${word}`}
    </span>
  );
}
