/** The history tables a plant's data is copied with (export and load), with their columns and keys. */
export const HISTORY_TABLES = {
  m_inverter: {
    key: ["device_uid", "ts"],
    time: "ts",
    columns: [
      "device_uid",
      "ts",
      "dc_v",
      "dc_a",
      "dc_w",
      "ac_v",
      "ac_a",
      "iw",
      "pf",
      "hz",
      "today_wh",
      "total_wh",
      "fault_code",
      "fault_hex",
      "received_at",
    ],
  },
  m_env: { key: ["device_uid", "ts"], time: "ts", columns: ["device_uid", "ts", "his", "iis", "sts", "ats", "received_at"] },
  m_board: { key: ["device_uid", "ts"], time: "ts", columns: ["device_uid", "ts", "v", "total_a", "channels", "received_at"] },
  m_breaker: {
    key: ["device_uid", "ts"],
    time: "ts",
    columns: ["device_uid", "ts", "v", "a", "w", "pf", "state", "gf_ma", "received_at"],
  },
  rollup_hourly: {
    key: ["device_uid", "hour_ts"],
    time: "hour_ts",
    columns: [
      "device_uid",
      "hour_ts",
      "kind",
      "samples",
      "energy_wh",
      "avg_w",
      "max_w",
      "his_wh",
      "iis_wh",
      "avg_sts",
      "avg_ats",
      "iis_sts_wh",
      "sun_samples",
      "lit_samples",
      "run_samples",
    ],
  },
  rollup_daily: {
    key: ["device_uid", "day_ts"],
    time: "day_ts",
    columns: [
      "device_uid",
      "day_ts",
      "kind",
      "samples",
      "energy_wh",
      "max_w",
      "his_wh",
      "iis_wh",
      "avg_sts",
      "avg_ats",
      "total_wh",
      "iis_sts_wh",
      "sun_samples",
      "lit_samples",
      "run_samples",
    ],
  },
} as const;
export type HistoryTable = keyof typeof HISTORY_TABLES;
export const HISTORY_TABLE_NAMES = Object.keys(HISTORY_TABLES) as HistoryTable[];

const TEXT_COLUMNS = new Set(["device_uid", "fault_hex", "channels"]);
const REQUIRED = new Set(["device_uid", "ts", "hour_ts", "day_ts", "received_at", "kind", "samples"]);

/** One row from a source, reduced to the table's columns with checked types; null when unusable. */
export function cleanHistoryRow(table: HistoryTable, row: unknown): Record<string, string | number | null> | null {
  if (!row || typeof row !== "object") return null;
  const src = row as Record<string, unknown>;
  const out: Record<string, string | number | null> = {};
  for (const col of HISTORY_TABLES[table].columns) {
    const v = src[col];
    if (v === null || v === undefined) {
      if (REQUIRED.has(col)) return null;
      out[col] = null;
    } else if (TEXT_COLUMNS.has(col)) {
      if (typeof v !== "string" || v.length > 4000) return null;
      out[col] = v;
    } else {
      const n = Number(v);
      if (!Number.isFinite(n)) return null;
      out[col] = n;
    }
  }
  return out;
}
