/**
 * Sanitising an uploaded SVG drawing (the allow-list of svg-allowlist.ts over sanitize-html's parser, in XML
 * mode so case-sensitive names like viewBox and linearGradient survive). The root must be one <svg>.
 * Anything not on the list is dropped — with its content for script, style and foreignObject — and its name is
 * reported, so the administrator learns what was removed. The API runs it when a drawing is stored; the portal
 * runs it again when it shows one, with `bind` marking the elements bound to devices.
 */
import sanitizeHtml from "sanitize-html";
import { isLocalHref, isLocalReferenceValue, SVG_ATTRIBUTES, SVG_REFERENCE_ATTRIBUTES, SVG_TAGS } from "./svg-allowlist";

export interface SanitizedSvg {
  svg: string;
  /** Ids of the elements kept, in document order. */
  ids: string[];
  /** Tag and attribute names taken out (deduplicated). */
  removed: string[];
}

const TAGS = new Set<string>(SVG_TAGS);
const ATTRIBUTES = new Set<string>(SVG_ATTRIBUTES);
/** Dropped with everything inside them. */
const DROP_WITH_CONTENT = ["script", "style", "foreignObject", "iframe", "object", "embed", "noscript", "textarea", "xmp"];

const DROP_LOWER = new Set(DROP_WITH_CONTENT.map((t) => t.toLowerCase()));

export class SvgRejected extends Error {}

/** Changes a kept element after sanitising (its attributes are already clean); may rename a <g> to <a>. */
export type SvgBind = (tagName: string, attribs: Record<string, string>) => { tagName: string; attribs: Record<string, string> };

export function sanitizeSvg(input: string, bind?: SvgBind): SanitizedSvg {
  const removed = new Set<string>();
  const ids: string[] = [];
  // Declarations, doctypes (entity definitions), processing instructions and CDATA never reach the parser's output.
  const text = input
    .replace(/^\uFEFF/, "")
    .replace(/<\?[\s\S]*?\?>/g, "")
    .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .trim();
  const svg = sanitizeHtml(text, {
    // `a` only as what `bind` makes of a bound group; an uploaded <a> is dropped before (not in TAGS).
    allowedTags: bind ? [...TAGS, "a"] : [...TAGS],
    allowedAttributes: false,
    nonTextTags: DROP_WITH_CONTENT,
    allowVulnerableTags: false,
    parser: {
      xmlMode: true,
      decodeEntities: true,
      lowerCaseTags: false,
      lowerCaseAttributeNames: false,
      recognizeSelfClosing: true,
    },
    selfClosing: ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path", "stop", "use"],
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: false,
    // Case-blind, so <SCRIPT> in XML mode goes with its text too.
    exclusiveFilter: (frame) => DROP_LOWER.has(frame.tag.toLowerCase()),
    onOpenTag: (name: string) => {
      if (!TAGS.has(name)) removed.add(`<${name}>`);
    },
    transformTags: {
      "*": (tagName, attribs) => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(attribs)) {
          if (!ATTRIBUTES.has(name)) {
            removed.add(name);
            continue;
          }
          if (SVG_REFERENCE_ATTRIBUTES.has(name) ? !isLocalHref(value) : !isLocalReferenceValue(value)) {
            removed.add(name);
            continue;
          }
          kept[name] = value;
        }
        if (kept.id && TAGS.has(tagName)) ids.push(kept.id);
        return bind && TAGS.has(tagName) ? bind(tagName, kept) : { tagName, attribs: kept };
      },
    },
  } as sanitizeHtml.IOptions).trim();
  // One <svg> root and nothing beside it (nested <svg> elements are not needed for a drawing).
  if (!/^<svg[\s>]/.test(svg) || !svg.endsWith("</svg>") || (svg.match(/<svg[\s>/]/g) ?? []).length !== 1)
    throw new SvgRejected("not_svg");
  return { svg, ids: [...new Set(ids)], removed: [...removed].sort() };
}
