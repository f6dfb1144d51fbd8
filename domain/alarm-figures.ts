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
