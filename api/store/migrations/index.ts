import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_telemetry";
import * as m0003 from "./0003_admin";
import * as m0004 from "./0004_detail_handover";
import * as m0005 from "./0005_alarms_alerts";
import * as m0008 from "./0008_diagrams_pages";
import * as m0009 from "./0009_scale_out";
import * as m0006 from "./0006_performance";
import * as m0011 from "./0011_cameras";
import * as m0007 from "./0007_statistics";
import * as m0012 from "./0012_alarm_period_indexes";
import * as m0013 from "./0013_plant_daily";
import * as m0014 from "./0014_statistics_report_index";
import * as m0015 from "./0015_alarm_message_code";
import * as m0016 from "./0016_plant_stat_daily";
import * as m0017 from "./0017_plant_daily_regular";
import * as m0018 from "./0018_table_write_notices";
import * as m0019 from "./0019_kept_table_notices";
import * as m0020 from "./0020_statistics_coverage";
import * as m0021 from "./0021_admin_service";
import * as m0022 from "./0022_command_once_outbox_scope";
import * as m0023 from "./0023_api_tokens";
import * as m0024 from "./0024_alarm_escalation";
import * as m0025 from "./0025_curtailment_orders";
import * as m0026 from "./0026_audit_chain_alert_routes";
import * as m0027 from "./0027_work_orders";

export interface Migration {
  name: string;
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/**
 * Kysely's Migrator (api/store/db.ts) runs the pending ones in name order, so a new migration takes the next
 * free number; never edit one that has shipped. Numbers reserved for the open work:
 * 0005 alarms and alerts, 0006 measurement and diagnosis, 0007 statistics reports, 0008 diagrams, pages and
 * cameras, 0009 scale-out, 0010 input hardening, 0012 the alarm list's period indexes, 0013 the per-plant daily rollup (diagnosis), 0014 the statistics report's covering index, 0015 alarm messages as code and parameters, 0016 the integrated statistics report's per-plant days, 0017 the plant-day rows' regular flag (diagnosis), 0018 PostgreSQL's notices of writes to the tables kept answers read, 0019 those notices on every table of api/cache/kept-tables.ts, 0020 the statistics plant-days' irradiance coverage, 0021 the seeded admin's service bits, 0022 commands' one-time tokens and the outbox's plant and member, 0023 API tokens for other systems (hashed secret,
 * scope, plant limit, expiry, rate counters), 0024 alarm escalation ladders (the steps delivered, once each), auto-close and flapping,
 * 0025 curtailment and output-limit orders per plant,
 * 0026 the tamper-evident command and acknowledgement log (hash chain) and per-member alert routes,
 * 0027 work orders (devices, alarms, history of notes and state changes).
 */
export const migrations: Migration[] = [
  { name: "0001_foundation", up: m0001.up },
  { name: "0002_telemetry", up: m0002.up },
  { name: "0003_admin", up: m0003.up },
  { name: "0004_detail_handover", up: m0004.up },
  { name: "0005_alarms_alerts", up: m0005.up },
  { name: "0008_diagrams_pages", up: m0008.up },
  { name: "0009_scale_out", up: m0009.up },
  { name: "0006_performance", up: m0006.up },
  { name: "0011_cameras", up: m0011.up },
  { name: "0007_statistics", up: m0007.up },
  { name: "0012_alarm_period_indexes", up: m0012.up },
  { name: "0013_plant_daily", up: m0013.up },
  { name: "0014_statistics_report_index", up: m0014.up },
  { name: "0015_alarm_message_code", up: m0015.up },
  { name: "0016_plant_stat_daily", up: m0016.up },
  { name: "0017_plant_daily_regular", up: m0017.up },
  { name: "0018_table_write_notices", up: m0018.up },
  { name: "0019_kept_table_notices", up: m0019.up },
  { name: "0020_statistics_coverage", up: m0020.up },
  { name: "0021_admin_service", up: m0021.up },
  { name: "0022_command_once_outbox_scope", up: m0022.up },
  { name: "0023_api_tokens", up: m0023.up },
  { name: "0024_alarm_escalation", up: m0024.up },
  { name: "0025_curtailment_orders", up: m0025.up },
  { name: "0026_audit_chain_alert_routes", up: m0026.up },
  { name: "0027_work_orders", up: m0027.up },
];
