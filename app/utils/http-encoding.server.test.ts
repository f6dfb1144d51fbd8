import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { acceptsGzip, encodeWholeBody, wholeBodyEncoding } from "./http-encoding.server";

const req = (acceptEncoding: string | null, method = "GET") =>
  new Request("http://portal.localhost/pvstatus", {
    method,
    headers: acceptEncoding === null ? {} : { "accept-encoding": acceptEncoding },
  });

describe("wholeBodyEncoding", () => {
  it("prefers brotli when the client takes both, as the compression middleware does", () => {
    expect(wholeBodyEncoding(req("gzip, deflate, br, zstd"))).toBe("br");
    expect(wholeBodyEncoding(req("gzip"))).toBe("gzip");
  });

  it("follows the client's q-values", () => {
    expect(wholeBodyEncoding(req("br;q=0.5, gzip"))).toBe("gzip");
    expect(wholeBodyEncoding(req("br;q=0, gzip;q=0"))).toBeNull();
  });

  it("sends identity without Accept-Encoding, and nothing to encode for HEAD", () => {
    expect(wholeBodyEncoding(req(null))).toBeNull();
    expect(wholeBodyEncoding(req("gzip, br", "HEAD"))).toBeNull();
  });
});

describe("acceptsGzip", () => {
  it("reads q-values", () => {
    expect(acceptsGzip(req("gzip, br"))).toBe(true);
    expect(acceptsGzip(req("gzip;q=0, br"))).toBe(false);
    expect(acceptsGzip(req(null))).toBe(false);
  });
});

describe("encodeWholeBody", () => {
  const page = Buffer.from(`<!DOCTYPE html><html lang="ko"><body>${"발전소 현황 ".repeat(500)}</body></html>`);

  it("compresses a page so that it decodes back to the same bytes", () => {
    const br = encodeWholeBody(page, "br");
    const gz = encodeWholeBody(page, "gzip");
    expect(br.length).toBeLessThan(page.length / 10);
    expect(gz.length).toBeLessThan(page.length / 10);
    expect(brotliDecompressSync(br).equals(page)).toBe(true);
    expect(gunzipSync(gz).equals(page)).toBe(true);
  });
});
