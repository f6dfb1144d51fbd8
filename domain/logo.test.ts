import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, logoProblem, sniffLogo } from "./logo";

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const jpg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const webp = new TextEncoder().encode("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ");
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe("logo files", () => {
  it("recognises PNG, JPEG and WebP by their first bytes", () => {
    expect(sniffLogo(png)).toBe("png");
    expect(sniffLogo(jpg)).toBe("jpg");
    expect(sniffLogo(webp)).toBe("webp");
  });
  it("refuses SVG, GIF, HTML and truncated files whatever they claim to be", () => {
    expect(sniffLogo(svg)).toBeNull();
    expect(sniffLogo(new TextEncoder().encode("GIF89a......"))).toBeNull();
    expect(sniffLogo(png.subarray(0, 4))).toBeNull();
    expect(logoProblem({ size: svg.length, type: "image/png", bytes: svg })).toBe("bad_type");
  });
  it("checks size and declared type in the browser, bytes on the server", () => {
    expect(logoProblem(null)).toBe("required");
    expect(logoProblem({ size: 0, type: "image/png" })).toBe("required");
    expect(logoProblem({ size: LOGO_MAX_BYTES + 1, type: "image/png" })).toBe("too_large");
    expect(logoProblem({ size: LOGO_MAX_BYTES, type: "image/png" })).toBeNull();
    expect(logoProblem({ size: 10, type: "image/svg+xml" })).toBe("bad_type");
    expect(logoProblem({ size: png.length, bytes: png })).toBeNull();
  });
});
