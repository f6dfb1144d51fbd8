/** Words for a diagram element's type, values and condition (shared by the drawing, its table and the custom pages). */
import type { Condition, DiagramElement, ElementAlarm, ElementValues } from "../../../domain/contract/diagram";
import { formatEnergy, formatPower } from "../../../domain/units";
import { fmt } from "~/i18n";
import type { WorkspaceCatalogue } from "~/i18n/workspace";
import { alarmCodeLabel, levelLabel } from "~/components/status/labels";

type T = WorkspaceCatalogue;

const q = (x: { value: string; unit: string }) => `${x.value} ${x.unit}`;
const fixed = (v: number, d: number) => v.toFixed(d);

/** The shape that goes with a condition, drawn and written (never colour alone). */
export const CONDITION_MARK: Record<Condition, string> = {
  ok: "●",
  alarm: "▲",
  open: "◆",
  stale: "○",
  nodata: "○",
  none: "",
  low: "▼",
};

export function typeLabel(t: T, e: Pick<DiagramElement, "type">): string {
  return t.diagram.types[e.type];
}

/** The element's name as shown: devices by their name, the grid point and transformers by their type. */
export function elementName(t: T, e: Pick<DiagramElement, "type" | "name" | "device_uid">): string {
  if (e.type === "grid") return t.diagram.types.grid;
  if (e.type === "transformer") return e.name.replace(/^TR/, t.diagram.types.transformer);
  return e.name;
}

export function valuesText(t: T, type: DiagramElement["type"], v: ElementValues): string {
  const parts: string[] = [];
  if (type === "vcb" || type === "acb") {
    if (v.breaker) parts.push(t.diagram.breaker[v.breaker]);
    if (v.w != null) parts.push(q(formatPower(v.w)));
    if (v.gf_ma != null) parts.push(fmt(t.diagram.gf, { value: fixed(v.gf_ma, 1) }));
  } else if (type === "inverter") {
    if (v.w != null) parts.push(q(formatPower(v.w)));
    if (v.today_wh != null) parts.push(fmt(t.diagram.today, { value: q(formatEnergy(v.today_wh)) }));
    if (v.fault_code) parts.push(fmt(t.diagram.fault, { code: v.fault_code }));
  } else if (type === "board") {
    if (v.v != null) parts.push(`${fixed(v.v, 0)} V`);
    if (v.a != null) parts.push(`${fixed(v.a, 1)} A`);
  } else if (type === "string") {
    if (v.a != null) parts.push(`${fixed(v.a, 1)} A`);
  }
  return parts.join(" · ");
}

export function alarmText(t: T, alarm: ElementAlarm): string {
  return `${levelLabel(t, alarm.level)} · ${alarmCodeLabel(t, alarm.code)}`;
}

export function conditionText(t: T, condition: Condition, alarm: ElementAlarm | null): string {
  if (condition === "alarm" && alarm) return `${t.diagram.conditions.alarm}: ${alarmText(t, alarm)}`;
  return t.diagram.conditions[condition];
}

/** The measurement screen of a device (built by another screen; it reads plant and device from the URL). */
export function measurementHref(plantUid: string, deviceUid: string): string {
  return `/measurement?${new URLSearchParams({ plant: plantUid, device: deviceUid })}`;
}

const TYPE_OF_KIND = { 1: "inverter", 2: "board", 7: "vcb", 8: "acb" } as const;

/** The diagram type of a device kind (SPEC §3 Device kinds 1, 2, 7, 8). */
export function deviceType(kind: number): DiagramElement["type"] {
  return TYPE_OF_KIND[kind as keyof typeof TYPE_OF_KIND] ?? "inverter";
}
