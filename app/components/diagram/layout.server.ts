/**
 * Lays a single-line tree out with d3-hierarchy's tidy tree, on the server: the grid connection on the left,
 * strings on the right, each element a box whose height depends on its type. The screen gets positions and
 * draws plain SVG (SingleLine.tsx), so the browser needs no layout code and a kiosk without JS sees it all.
 */
import { hierarchy, tree } from "d3-hierarchy";
import type { DiagramElement } from "../../../domain/contract/diagram";

export const BOX = { width: 196, height: 62, stringWidth: 116, stringHeight: 22, column: 236, unit: 12, gap: 1 } as const;

export type PlacedElement = Omit<DiagramElement, "children"> & { x: number; y: number; w: number; h: number; depth: number };

export interface DiagramLayout {
  width: number;
  height: number;
  elements: PlacedElement[];
  /** Connectors: parent's right edge to child's left edge. */
  links: Array<{
    from: string;
    to: string;
    x1: number;
    y1: number;
    x2: number;
    y2: number;
    condition: DiagramElement["condition"];
  }>;
}

const heightOf = (e: DiagramElement) => (e.type === "string" ? BOX.stringHeight : BOX.height);
const widthOf = (e: DiagramElement) => (e.type === "string" ? BOX.stringWidth : BOX.width);
const PAD = 12;

export function layoutDiagram(root: DiagramElement): DiagramLayout {
  const h = hierarchy(root, (e) => e.children);
  // nodeSize in units; separation by the heights of the two neighbours, so boxes never overlap.
  const laid = tree<DiagramElement>()
    .nodeSize([BOX.unit, BOX.column])
    .separation((a, b) => (heightOf(a.data) + heightOf(b.data)) / 2 / BOX.unit + BOX.gap + (a.parent === b.parent ? 0 : 1))(h);
  const nodes = laid.descendants();
  const minY = Math.min(...nodes.map((n) => n.x - heightOf(n.data) / 2));
  const maxY = Math.max(...nodes.map((n) => n.x + heightOf(n.data) / 2));
  const maxX = Math.max(...nodes.map((n) => n.y + widthOf(n.data)));
  const place = (n: (typeof nodes)[number]) => ({ x: PAD + n.y, y: PAD + n.x - minY - heightOf(n.data) / 2 });
  const elements: PlacedElement[] = nodes.map((n) => {
    const { children: _c, ...rest } = n.data;
    return { ...rest, ...place(n), w: widthOf(n.data), h: heightOf(n.data), depth: n.depth };
  });
  const byId = new Map(elements.map((e) => [e.id, e]));
  const links = laid.links().map((l) => {
    const a = byId.get(l.source.data.id)!;
    const b = byId.get(l.target.data.id)!;
    return { from: a.id, to: b.id, x1: a.x + a.w, y1: a.y + a.h / 2, x2: b.x, y2: b.y + b.h / 2, condition: b.condition };
  });
  return { width: Math.ceil(maxX + 2 * PAD), height: Math.ceil(maxY - minY + 2 * PAD), elements, links };
}
