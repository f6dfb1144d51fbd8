/**
 * Content encoding for bodies the portal has whole in memory (a rendered document, a kept poll body).
 * Such a body is gzipped here in one call; the compression middleware (server.ts) passes a response
 * that already has a Content-Encoding through untouched and keeps compressing streamed ones.
 */
import Negotiator from "negotiator";

/** Whether the client takes gzip (Accept-Encoding, with q-values, as the middleware reads it). */
export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? undefined;
  return new Negotiator({ headers: { "accept-encoding": header } }).encodings(["gzip", "identity"])[0] === "gzip";
}
