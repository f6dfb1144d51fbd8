/** Words for codes: plant status, alarm code and level, device kind — never colour alone. */
import { statusIndicator } from "../../../domain/status";
import { formatSeoul } from "../../../domain/seoul-time";
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
 * What the alarm engine found (domain/alarm-rules.ts), rendered in the user's language from the code and the
 * parameters its stored message carries; a message of any other shape (e.g. the fault names of 1000003, shown
 * from the fault table instead) shows nothing rather than its stored English text.
 */
export function engineMessage(t: T, message: string | null | undefined): string | undefined {
  if (!message) return undefined;
  const e = t.main.engine;
  let m = /^plant-wide: all (\d+) (RTUs|inverters) \((.*)\)$/.exec(message);
  if (m) {
    const detail = engineMessage(t, m[3]);
    const text = fmt(m[2] === "RTUs" ? e.plantWideRtus : e.plantWideInverters, { count: m[1]!, detail: detail ?? "" });
    return detail ? text : text.replace(/ \(\)$/, "");
  }
  m = /^RTU (\S+) silent since (\S+)$/.exec(message);
  if (m) {
    const since = Date.parse(m[2]!);
    return fmt(e.rtuSilent, { rtu: m[1]!, since: Number.isFinite(since) ? formatSeoul(since) : m[2]! });
  }
  m = /^device (\S+) not answering$/.exec(message);
  if (m) return fmt(e.deviceSilent, { device: m[1]! });
  m = /^fault 0x([0-9A-F]+)$/.exec(message);
  if (m) return fmt(e.faultCode, { hex: m[1]! });
  m = /^(-?[\d.]+) kW is (-?\d+) % of the reference (-?[\d.]+) kW$/.exec(message);
  if (m) return fmt(e.lowGeneration, { actual: m[1]!, ratio: m[2]!, reference: m[3]! });
  return undefined;
}
