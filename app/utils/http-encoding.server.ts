/**
 * Content encoding for bodies the portal has whole in memory (a rendered document, a kept poll body).
 * Such a body is compressed here in one call; the compression middleware (server.ts) passes a response
 * that already has a Content-Encoding through untouched and keeps compressing streamed ones. The choice is
 * the middleware's (brotli when the client takes it, else gzip); brotli runs at quality 2, not the
 * middleware's 4: a 50 KB /pvstatus page becomes 5.5 KB in 0.08 ms instead of 5.1 KB in 0.15 ms (gzip at
 * its default level: 5.7 KB in 0.13 ms), and a wallboard's server renders many pages.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import Negotiator from "negotiator";

export type WholeBodyEncoding = "br" | "gzip";

/** negotiator 0.6 takes a preference order for equal q-values; its types omit that argument. */
type Negotiate = { encoding(available: string[], preferred: string[]): string | undefined };

function negotiate(request: Request, available: string[]): string | undefined {
  const negotiator = new Negotiator({ headers: { "accept-encoding": request.headers.get("accept-encoding") ?? undefined } });
  return (negotiator as unknown as Negotiate).encoding(available, ["br", "gzip"]);
}

/** Whether the client takes gzip (Accept-Encoding with q-values, as the middleware reads it). */
export function acceptsGzip(request: Request): boolean {
  return negotiate(request, ["gzip", "identity"]) === "gzip";
}

/** How to encode a whole body for this request; null for identity (and for HEAD, which has no body). */
export function wholeBodyEncoding(request: Request): WholeBodyEncoding | null {
  if (request.method === "HEAD") return null;
  const chosen = negotiate(request, ["br", "gzip", "identity"]);
  return chosen === "br" || chosen === "gzip" ? chosen : null;
}

export function encodeWholeBody(body: Buffer, encoding: WholeBodyEncoding): ReturnType<typeof gzipSync> {
  if (encoding === "gzip") return gzipSync(body);
  return brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
}
