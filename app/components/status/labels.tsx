/** Words for codes: plant status, alarm code and level, device kind — never colour alone. */
import { statusIndicator } from "../../../domain/status";
import { renderAlarmMessage, type DeviceNameOf } from "../../../domain/alarm-message";
import { alarmMessageOf, type RecentAlarm } from "../../../domain/contract/alarm";
import { fmt, type useT } from "~/i18n";

type T = ReturnType<typeof useT>;

export function statusLabel(t: T, status: number): string {
  switch (status) {
    case 2:
      return t.main.status.normal;
    case 3:
      return t.main.status.warning_1000003;
    case 4:
      return t.main.status.warning_1000001;
    case 5:
      return t.main.status.warning_1000004;
    case 6:
      return t.main.status.warning_1000006;
    default:
      return t.main.status.notWork;
  }
}

/** Status with a shape and a word: ● normal, ▲ abnormal, ○ not working (SPEC §2 indicator). */
export function StatusBadge({ t, status }: { t: T; status: number }) {
  const kind = statusIndicator(status);
  const mark = kind === "normal" ? "●" : kind === "abnormal" ? "▲" : "○";
  return (
    <span className={`status-badge status-${kind}`}>
      <span aria-hidden="true">{mark}</span> {statusLabel(t, status)}
    </span>
  );
}

export function alarmCodeLabel(t: T, code: number): string {
  const key = `c${code}` as keyof T["main"]["codes"];
  return key in t.main.codes && key !== "other" ? t.main.codes[key] : fmt(t.main.codes.other, { code });
}

export function levelLabel(t: T, level: number): string {
  const key = `l${level}` as keyof T["main"]["levels"];
  return key in t.main.levels ? t.main.levels[key] : String(level);
}

export function LevelBadge({ t, level }: { t: T; level: number }) {
  return <span className={`level-badge level-${level}`}>{levelLabel(t, level)}</span>;
}

export function deviceKindLabel(t: T, kind: number): string {
  const key = `k${kind}` as keyof T["detail"]["kinds"];
  return key in t.detail.kinds ? t.detail.kinds[key] : t.detail.kinds.other;
}

/**
 * What an alarm is about: its device (name and kind), else its RTU (an RTU's own alarm, e.g. no longer reporting),
 * else the whole plant.
 */
export function alarmSubject(t: T, a: Pick<RecentAlarm, "deviceName" | "deviceKind" | "rtu_uid">): string {
  if (a.deviceName) return `${a.deviceName} (${deviceKindLabel(t, a.deviceKind ?? 0)})`;
  return a.rtu_uid ? `RTU ${a.rtu_uid}` : t.main.plantDevice;
}

/**
 * What the alarm engine found, rendered in the user's language from the message code and parameters of the
 * alarm (domain/alarm-message.ts) with the catalogue's words; a text of no known shape is shown as it is.
 * `faultNames` names an inverter fault's bits (the fault-code table in the user's language), when at hand.
 */
export function engineMessage(
  t: T,
  a: Pick<RecentAlarm, "messageCode" | "messageParams"> & Partial<Pick<RecentAlarm, "device_uid" | "deviceName">>,
  faultNames?: (faultCode: number) => readonly string[],
  deviceName: DeviceNameOf = (uid) => (uid === a.device_uid ? a.deviceName : undefined),
): string | undefined {
  return renderAlarmMessage(t.main.engine, alarmMessageOf(a), faultNames, deviceName) || undefined;
}
