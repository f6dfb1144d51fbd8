/**
 * The single-line diagram drawn as plain SVG from a server-side layout (layout.server.ts). Every element with a
 * device is a link to its measurements; its state is a shape and a word, colour only adds to them.
 */
import type { Condition } from "../../../domain/contract/diagram";
import { fmt } from "~/i18n";
import { useWorkspaceT } from "~/i18n/workspace";
import type { DiagramLayout, PlacedElement } from "./layout.server";
import { conditionText, elementName, measurementHref, typeLabel, valuesText } from "./words";

/** The condition's shape, centred on (cx, cy). */
function Mark({ condition, cx, cy, r = 5 }: { condition: Condition; cx: number; cy: number; r?: number }) {
  const cls = `sl-mark sl-mark-${condition}`;
  switch (condition) {
    case "ok":
      return <circle className={cls} cx={cx} cy={cy} r={r} />;
    case "alarm":
      return <polygon className={cls} points={`${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}`} />;
    case "open":
      return <polygon className={cls} points={`${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`} />;
    case "low":
      return <polygon className={cls} points={`${cx - r},${cy - r} ${cx + r},${cy - r} ${cx},${cy + r}`} />;
    case "stale":
    case "nodata":
      return <circle className={cls} cx={cx} cy={cy} r={r} />;
    default:
      return null;
  }
}

/** A small symbol of the element's type at the box's left (electrical drawing conventions, simplified). */
function Symbol({ e }: { e: PlacedElement }) {
  const y = e.h / 2;
  switch (e.type) {
    case "grid":
      return (
        <g className="sl-sym">
          <line x1={8} y1={y - 10} x2={28} y2={y - 10} />
          <line x1={11} y1={y - 4} x2={25} y2={y - 4} />
          <line x1={14} y1={y + 2} x2={22} y2={y + 2} />
          <line x1={18} y1={y - 10} x2={18} y2={y - 18} />
        </g>
      );
    case "vcb":
    case "acb": {
      const open = e.values.breaker === "open";
      return (
        <g className="sl-sym">
          <line x1={6} y1={y} x2={13} y2={y} />
          <circle cx={14} cy={y} r={1.8} />
          <line x1={14} y1={y} x2={open ? 26 : 28} y2={open ? y - 10 : y} />
          <circle cx={29} cy={y} r={1.8} />
          <line x1={30} y1={y} x2={34} y2={y} />
        </g>
      );
    }
    case "transformer":
      return (
        <g className="sl-sym">
          <circle cx={15} cy={y} r={7} />
          <circle cx={24} cy={y} r={7} />
        </g>
      );
    case "inverter":
      return (
        <g className="sl-sym">
          <rect x={7} y={y - 11} width={24} height={22} />
          <line x1={7} y1={y + 11} x2={31} y2={y - 11} />
          <text x={11} y={y - 2} className="sl-sym-text" aria-hidden="true">
            ~
          </text>
          <text x={20} y={y + 9} className="sl-sym-text" aria-hidden="true">
            =
          </text>
        </g>
      );
    case "board":
      return (
        <g className="sl-sym">
          <rect x={7} y={y - 11} width={24} height={22} />
          <line x1={13} y1={y - 7} x2={13} y2={y + 7} />
          <line x1={19} y1={y - 7} x2={19} y2={y + 7} />
          <line x1={25} y1={y - 7} x2={25} y2={y + 7} />
        </g>
      );
    default:
      return null;
  }
}

function ElementBox({ e, plantUid }: { e: PlacedElement; plantUid: string }) {
  const t = useWorkspaceT();
  const name = elementName(t, e);
  const values = valuesText(t, e.type, e.values);
  const state = conditionText(t, e.condition, e.alarm);
  const label = [
    e.type === "grid" || e.type === "transformer" ? name : `${typeLabel(t, e)} ${name}`,
    values,
    e.condition === "none" ? "" : state,
  ]
    .filter(Boolean)
    .join(", ");
  const cls = `sl-el sl-${e.type} sl-cond-${e.condition}`;
  // Each text ends in a space (not drawn: SVG drops it): the texts then read as separate words, "인버터 1 28.00 kW",
  // not "인버터 128.00 kW", and the visible words are part of the link's accessible name.
  const body =
    e.type === "string" ? (
      <g transform={`translate(${e.x},${e.y})`} className={cls}>
        <rect className="sl-box" width={e.w} height={e.h} rx={4} />
        <Mark condition={e.condition} cx={10} cy={e.h / 2} r={4} />
        <text x={20} y={e.h / 2 + 4} className="sl-name">
          {name}{" "}
        </text>
        <text x={e.w - 6} y={e.h / 2 + 4} className="sl-val" textAnchor="end">
          {values || "–"}
        </text>
        <title>{label}</title>
      </g>
    ) : (
      <g transform={`translate(${e.x},${e.y})`} className={cls}>
        <rect className="sl-box" width={e.w} height={e.h} rx={6} />
        <Symbol e={e} />
        <text x={40} y={17} className="sl-name">
          {name.length > 16 ? `${name.slice(0, 15)}…` : name}{" "}
        </text>
        <text x={40} y={34} className="sl-val">
          {values || (e.type === "grid" || e.type === "transformer" ? typeLabel(t, e) : "–")}{" "}
        </text>
        {e.condition !== "none" ? (
          <>
            <Mark condition={e.condition} cx={46} cy={47} r={4.5} />
            <text x={55} y={51} className="sl-state">
              {state.length > 22 ? `${state.slice(0, 21)}…` : state}
            </text>
          </>
        ) : null}
        <title>{label}</title>
      </g>
    );
  if (!e.device_uid || e.type === "string") return body;
  return (
    <a
      href={measurementHref(plantUid, e.device_uid)}
      aria-label={`${label} — ${fmt(t.diagram.openMeasurement, { name })}`}
      className="sl-link"
    >
      {body}
    </a>
  );
}

export function SingleLine({ layout, plantUid, title }: { layout: DiagramLayout; plantUid: string; title: string }) {
  return (
    <svg
      className="single-line"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={layout.width}
      height={layout.height}
      aria-labelledby="sl-title"
    >
      <title id="sl-title">{title}</title>
      <g className="sl-links" aria-hidden="true">
        {layout.links.map((l) => {
          const mx = (l.x1 + l.x2) / 2;
          return (
            <path
              key={`${l.from}>${l.to}`}
              className={`sl-wire sl-wire-${l.condition}`}
              d={`M${l.x1},${l.y1} H${mx} V${l.y2} H${l.x2}`}
            />
          );
        })}
      </g>
      {layout.elements.map((e) => (
        <ElementBox key={e.id} e={e} plantUid={plantUid} />
      ))}
    </svg>
  );
}
