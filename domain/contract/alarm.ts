/** Payloads of the alarm calls of the status screens (SPEC §7 GET /alarm/recent, GET /alarm/count). */

export interface RecentAlarm {
  seq: number;
  plant_uid: string;
  plantName: string;
  rtu_uid: string | null;
  device_uid: string | null;
  deviceName: string | null;
  deviceKind: number | null;
  code: number;
  level: number;
  fault_code: number | null;
  message: string;
  raised_at: number;
  released_at: number | null;
}

export interface RecentAlarmsResponse {
  alarmList: RecentAlarm[];
}

export interface AlarmCountResponse {
  alarm_count: number;
  alarm_1000001_count: number;
  alarm_1000003_count: number;
  alarm_1000004_count: number;
  alarm_1000006_count: number;
  levels: Record<"1" | "2" | "3" | "4", number>;
}
