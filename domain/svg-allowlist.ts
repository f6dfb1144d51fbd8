/**
 * What an uploaded single-line drawing may contain: drawing elements and presentation attributes only.
 * No script, no style sheets, no event handlers, no foreignObject, no images, no links, and no reference
 * to anything outside the document (href and url() may only point at `#id` inside it). Used by the API
 * when a drawing is stored and again by the portal when it shows one (domain/svg-sanitize.ts,

 * app/components/diagram/uploaded.server.ts).
 */
export const SVG_TAGS = [
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "path",
  "text",
  "tspan",
  "textPath",
  "marker",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "pattern",
] as const;

export const SVG_ATTRIBUTES = [
  "id",
  "class",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "width",
  "height",
  "d",
  "points",
  "viewBox",
  "preserveAspectRatio",
  "transform",
  "fill",
  "fill-opacity",
  "fill-rule",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "dominant-baseline",
  "alignment-baseline",
  "letter-spacing",
  "dx",
  "dy",
  "rotate",
  "textLength",
  "lengthAdjust",
  "visibility",
  "display",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "fx",
  "fy",
  "clip-path",
  "clip-rule",
  "clipPathUnits",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "marker-start",
  "marker-mid",
  "marker-end",
  "href",
  "xlink:href",
  "xmlns",
  "xmlns:xlink",
  "version",
  "role",
  "aria-label",
  "vector-effect",
  "startOffset",
] as const;

/** Attributes whose value is a reference: only a fragment of this document is allowed. */
export const SVG_REFERENCE_ATTRIBUTES = new Set(["href", "xlink:href"]);

/** A value is safe when every url(…) in it names a fragment (`url(#id)`) and it holds no script scheme. */
export function isLocalReferenceValue(value: string): boolean {
  const v = value.replace(/[\u0000-\u0020]+/g, "").toLowerCase();
  if (/(javascript|vbscript|data):/.test(v)) return false;
  const urls = v.match(/url\(([^)]*)\)/g) ?? [];
  if (urls.some((u) => !/^url\((['"]?)#[^'"()]+\1\)$/.test(u))) return false;
  // An unclosed url( or an escape could smuggle a reference past the check above.
  return !/url\((?![^)]*\))/.test(v) && !v.includes("\\");
}

export function isLocalHref(value: string): boolean {
  return /^#[A-Za-z_][A-Za-z0-9_.:-]*$/.test(value.trim());
}
