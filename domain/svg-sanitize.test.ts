import { describe, expect, it } from "vitest";
import { sanitizeSvg, SvgRejected } from "./svg-sanitize";

/** No executable or outward-reaching construct is left in the markup. */
function assertInert(svg: string) {
  expect(svg).not.toMatch(/<script|<style|<foreignObject|<image|<iframe|<a[\s>]|<animate|<set[\s>/]|<feImage/i);
  expect(svg).not.toMatch(/\son[a-z]+\s*=/i);
  expect(svg).not.toMatch(/javascript:|data:|https?:\/\/(?!www\.w3\.org)/i);
  expect(svg).not.toMatch(/url\((?!#)/i);
}

describe("sanitizeSvg", () => {
  it("keeps a drawing's shapes, ids, text, gradients and local references", () => {
    const out = sanitizeSvg(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>` +
        `<g id="inv-1" transform="translate(10,10)"><rect width="20" height="10" fill="url(#g)"/><text x="2" y="8">INV 1</text></g><use xlink:href="#inv-1" x="40"/></svg>`,
    );
    expect(out.svg).toContain('viewBox="0 0 100 50"');
    expect(out.svg).toContain("<linearGradient");
    expect(out.svg).toContain('fill="url(#g)"');
    expect(out.svg).toContain('xlink:href="#inv-1"');
    expect(out.svg).toContain(">INV 1</text>");
    expect(out.ids).toEqual(["g", "inv-1"]);
    expect(out.removed).toEqual([]);
  });

  it("takes out scripts, handlers, foreignObject, style sheets, images and links, and says so", () => {
    const out = sanitizeSvg(
      `<svg onload="alert(1)"><script>alert(1)</script><script xlink:href="http://evil.example/x.js"/>` +
        `<rect id="r" onclick="steal()" onmouseover="x()" width="1" height="1"/><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="http://evil.example"/></body></foreignObject>` +
        `<style>@import url(http://evil.example/a.css); rect{fill:url(http://evil.example/p)}</style><image href="http://evil.example/p.png"/>` +
        `<a href="javascript:alert(1)"><text>click</text></a><animate attributeName="href" values="javascript:alert(1)"/><set attributeName="onload" to="alert(1)"/></svg>`,
    );
    assertInert(out.svg);
    expect(out.svg).toContain('<rect id="r" width="1" height="1" />');
    expect(out.svg).toContain("<text>click</text>");
    expect(out.removed).toEqual(
      expect.arrayContaining([
        "<script>",
        "<foreignObject>",
        "<style>",
        "<image>",
        "<a>",
        "<animate>",
        "<set>",
        "onload",
        "onclick",
        "onmouseover",
      ]),
    );
  });

  it("refuses references outside the document in href and url()", () => {
    const out = sanitizeSvg(
      `<svg><use href="http://evil.example/sprite.svg#a"/><use xlink:href="//evil.example/x#b"/><use href="data:image/svg+xml;base64,PHN2Zz4="/>` +
        `<rect fill="url(http://evil.example/x#p)" stroke="url( 'https://evil.example' )" clip-path="url(#ok)" style="fill:url(http://evil.example)"/>` +
        `<rect fill="url(#a) url(http://evil.example)"/><rect fill="u\\rl(http://evil.example)"/><path marker-end="url(#m"/></svg>`,
    );
    assertInert(out.svg);
    expect(out.svg).toContain('clip-path="url(#ok)"');
    expect(out.removed).toEqual(expect.arrayContaining(["href", "xlink:href", "fill", "stroke", "style", "marker-end"]));
  });

  it("ignores doctype entities, processing instructions and comments, and mixed-case tricks", () => {
    const out = sanitizeSvg(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><!-- <script>x</script> -->` +
        `<svg><text>&lol2;</text><SCRIPT>alert(1)</SCRIPT><ScRiPt>y()</ScRiPt><rect ONCLICK="x()" width="1"/></svg>`,
    );
    assertInert(out.svg);
    expect(out.svg).not.toContain("lollol");
  });

  it("escapes text so it cannot break out of the drawing in an HTML page", () => {
    const out = sanitizeSvg(
      `<svg><text>&lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt;</text><desc><![CDATA[</desc><script>alert(2)</script>]]></desc></svg>`,
    );
    expect(out.svg).not.toMatch(/<script/i);
    expect(out.svg.match(/<\/svg>/g)).toHaveLength(1);
  });

  it("refuses what is not an SVG document", () => {
    expect(() => sanitizeSvg("<html><body>hi</body></html>")).toThrow(SvgRejected);
    expect(() => sanitizeSvg("plain text")).toThrow(SvgRejected);
    expect(() => sanitizeSvg("<svg><rect/></svg><script>x</script><svg/>")).toThrow(SvgRejected);
  });
});
