/**
 * Help articles from Markdown to HTML on the server (marked), then through an allow-list (sanitize-html):
 * the files are ours, but what reaches a page as HTML is checked all the same. Links stay inside the portal
 * or open elsewhere with rel="noopener"; no images from outside, no raw HTML beyond the list.
 */
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const marked = new Marked({ gfm: true, breaks: false, async: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "p",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "code",
    "pre",
    "blockquote",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "hr",
    "br",
    "dl",
    "dt",
    "dd",
    "kbd",
    "sub",
    "sup",
  ],
  allowedAttributes: { a: ["href", "title", "rel", "target"], th: ["scope", "align"], td: ["align"], h2: ["id"], h3: ["id"] },
  allowedSchemes: ["https", "mailto"],
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? "";
      const external = /^https?:/i.test(href);
      return { tagName, attribs: { ...attribs, ...(external ? { rel: "noopener noreferrer", target: "_blank" } : {}) } };
    },
  },
};

/** Heading ids from their text, so a section can be linked (`#…`). */
function withHeadingIds(html: string): string {
  const used = new Set<string>();
  return html.replace(/<h([23])>([\s\S]*?)<\/h\1>/g, (_, level: string, inner: string) => {
    const base =
      inner
        .replace(/<[^>]+>/g, "")
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, "-")
        .replace(/^-|-$/g, "") || "section";
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return `<h${level} id="${id}">${inner}</h${level}>`;
  });
}

export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(withHeadingIds(marked.parse(markdown) as string), ALLOWED);
}
