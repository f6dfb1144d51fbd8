/**
 * Alarm figures (issue 29 §2), pure: over the alarms raised in a period, per code, plant and group (and in all) —
 * - rate: alarms per 100 plants per day (count ÷ plants ÷ days × 100; the plants of that plant, group or scope);
 * - nuisance share: the share cleared within 10 minutes of being raised without an acknowledgement;
 * - mean time to acknowledge (over the acknowledged ones) and to clear (over the cleared ones), in ms; null when
 *   none was.
 */
export const NUISANCE_MS = 10 * 60_000;

export interface FigureAlarm {
  plant_uid: string;
  /** The plant's group (node seq), or null. */
  group: number | null;
  code: number;
  raised_at: number;
  released_at: number | null;
  ack_at: number | null;
}

export interface AlarmFigure {
  count: number;
  /** Alarms per 100 plants per day; null when there are no plants or no days. */
  perHundredPlantsPerDay: number | null;
  nuisance: number;
  /** nuisance ÷ count; null without alarms. */
  nuisanceShare: number | null;
  acknowledged: number;
  meanToAckMs: number | null;
  cleared: number;
  meanToClearMs: number | null;
}

export const isNuisance = (a: Pick<FigureAlarm, "raised_at" | "released_at" | "ack_at">) =>
  a.released_at !== null && a.ack_at === null && a.released_at - a.raised_at <= NUISANCE_MS;

/** The figures of one set of alarms, over `plants` plants and `days` days. */
export function alarmFigure(alarms: readonly FigureAlarm[], plants: number, days: number): AlarmFigure {
  let nuisance = 0;
  let acked = 0;
  let ackSum = 0;
  let cleared = 0;
  let clearSum = 0;
  for (const a of alarms) {
    if (isNuisance(a)) nuisance++;
    if (a.ack_at !== null) {
      acked++;
      ackSum += a.ack_at - a.raised_at;
    }
    if (a.released_at !== null) {
      cleared++;
      clearSum += a.released_at - a.raised_at;
    }
  }
  const n = alarms.length;
  return {
    count: n,
    perHundredPlantsPerDay: plants > 0 && days > 0 ? (n / plants / days) * 100 : null,
    nuisance,
    nuisanceShare: n ? nuisance / n : null,
    acknowledged: acked,
    meanToAckMs: acked ? ackSum / acked : null,
    cleared,
    meanToClearMs: cleared ? clearSum / cleared : null,
  };
}

export interface FigureRow<K> extends AlarmFigure {
  key: K;
}

/**
 * The figures in all and per code, plant and group. `plantsInScope` are the plants counted (with their group), so a
 * plant or group without alarms still counts in the rate's denominator; a code's rate is over every plant in scope.
 * Rows are by count, most first (then key).
 */
export function alarmFigures(
  alarms: readonly FigureAlarm[],
  plantsInScope: ReadonlyArray<{ uid: string; group: number | null }>,
  days: number,
) {
  const groupPlants = new Map<number | null, number>();
  for (const p of plantsInScope) groupPlants.set(p.group, (groupPlants.get(p.group) ?? 0) + 1);
  const by = <K>(keyOf: (a: FigureAlarm) => K, plantsOf: (k: K) => number): FigureRow<K>[] => {
    const parts = new Map<K, FigureAlarm[]>();
    for (const a of alarms) {
      const k = keyOf(a);
      const list = parts.get(k);
      if (list) list.push(a);
      else parts.set(k, [a]);
    }
    return [...parts.entries()]
      .map(([key, list]) => ({ key, ...alarmFigure(list, plantsOf(key), days) }))
      .sort((x, y) => y.count - x.count || String(x.key).localeCompare(String(y.key)));
  };
  const total = plantsInScope.length;
  return {
    total: alarmFigure(alarms, total, days),
    byCode: by(
      (a) => a.code,
      () => total,
    ),
    byPlant: by(
      (a) => a.plant_uid,
      () => 1,
    ),
    byGroup: by(
      (a) => a.group,
      (g) => groupPlants.get(g) ?? 0,
    ),
  };
}

/** The words of the figures' text table (the monthly report mail). */
export const FIGURE_TABLE_WORDS = {
  ko: {
    title: "알람 지표",
    head: ["구분", "알람 수", "100개소·1일당", "불필요 알람 비율", "평균 확인 시간(분)", "평균 해제 시간(분)"],
    total: "전체",
    code: "코드",
    nuisance: "불필요 알람: 발생 후 10분 안에 확인 없이 해제",
  },
  en: {
    title: "Alarm figures",
    head: ["Item", "Alarms", "Per 100 plants per day", "Nuisance share", "Mean to acknowledge (min)", "Mean to clear (min)"],
    total: "All",
    code: "Code",
    nuisance: "Nuisance: cleared within 10 minutes of being raised, without an acknowledgement",
  },
} as const;

/**
 * The figures as a plain-text table (one line a row, cells joined by " | "): the total, then per code (at most
 * `maxCodes`, most alarms first). "–" where a figure has no value.
 */
export function figureTableLines(
  f: { total: AlarmFigure; byCode: Array<FigureRow<number>> },
  lang: keyof typeof FIGURE_TABLE_WORDS,
  maxCodes = 10,
): string[] {
  const w = FIGURE_TABLE_WORDS[lang];
  const n = (v: number | null, digits: number) => (v === null ? "–" : v.toFixed(digits));
  const row = (label: string, x: AlarmFigure) =>
    [
      label,
      String(x.count),
      n(x.perHundredPlantsPerDay, 2),
      x.nuisanceShare === null ? "–" : `${(x.nuisanceShare * 100).toFixed(1)}%`,
      n(x.meanToAckMs === null ? null : x.meanToAckMs / 60_000, 1),
      n(x.meanToClearMs === null ? null : x.meanToClearMs / 60_000, 1),
    ].join(" | ");
  return [
    w.title,
    w.head.join(" | "),
    row(w.total, f.total),
    ...f.byCode.slice(0, maxCodes).map((r) => row(`${w.code} ${r.key}`, r)),
    w.nuisance,
  ];
}
