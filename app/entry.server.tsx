/**
 * Renders the document. A page whose data is all there (most pages; /pvstatus for kiosks without script)
 * is rendered to one string: nothing could stream, and React's string renderer skips the per-chunk UTF-8
 * encoding of its streaming writer (about a tenth of a /pvstatus render). A page with deferred data still
 * pending streams; bots get such a page whole (onAllReady). Either goes out through the compression
 * middleware (server.ts), the one place that compresses what the portal makes per request.
 *
 * A data request (a wallboard's poll, a revalidation) is answered with a strong ETag made from its JSON
 * (handleDataRequest): the browser keeps the answer (`private, no-cache`) and asks again with If-None-Match,
 * so a poll whose answer has not changed is a 304 without a body.
 */
import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { NonceProvider } from "~/components/Nonce";
import { contentSecurityPolicy, createNonce } from "~/utils/csp.server";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  const nonce = loadContext?.cspNonce || createNonce();
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  const deferreds = Object.values(remixContext.staticHandlerContext.activeDeferreds ?? {});
  if (deferreds.every((d) => d.done)) {
    // Throws on a render error; Remix then renders the error boundary (as with the stream's shell error).
    const html = renderToString(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
    );
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
  }
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new DocumentStream();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * The document's byte stream on its way to the response. It does two things:
 * - React writes in 2 KiB pieces and calls `flush()` on its destination when a batch is complete (the
 *   convention zlib streams follow). The pieces are gathered here and handed on at each flush, so the
 *   compression middleware deflates a few large chunks instead of ~30 small ones per page (each small
 *   one is a trip to zlib's thread pool; gzip cost 6 ms of a 58 KB /pvstatus page before, under 1 ms after).
 *   Streaming still works: the shell and each resolved deferred part are batches of their own.
 * - React 18.3's streaming writer flushes its whole 2 KiB buffer when a multi-byte character does not
 *   fit at its end, so Korean text at a buffer boundary gets NUL bytes inside it (shown as U+FFFD,
 *   e.g. aria-label "주 메\0\0뉴"; fixed in React 19). UTF-8 HTML never holds a real NUL byte, so
 *   dropping them restores the exact text.
 */
class DocumentStream extends Transform {
  private pending: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.pending.push(chunk.includes(0) ? Buffer.from(chunk.filter((byte) => byte !== 0)) : chunk);
    done();
  }

  /** Called by React when it has written all it can for now. */
  flush() {
    if (!this.pending.length) return;
    const batch = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.push(batch);
  }

  override _flush(done: () => void) {
    this.flush();
    done();
  }
}

/**
 * A loader's JSON answer to a data request gets a strong ETag (the SHA-256 of its bytes), and a request that names
 * that tag in If-None-Match gets 304 without the body. `private, no-cache` lets the browser keep the answer and ask
 * with the tag (a route's `no-store` would stop it from ever asking). Deferred answers stream and are passed on
 * as they are, and so is everything but a 200 to a GET (redirects, errors, actions).
 */
export async function handleDataRequest(response: Response, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.method !== "GET" || response.status !== 200) return response;
  if (!response.headers.get("Content-Type")?.startsWith("application/json")) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const etag = `"${createHash("sha256").update(body).digest("base64url")}"`;
  const headers = new Headers(response.headers);
  headers.set("ETag", etag);
  headers.set("Cache-Control", "private, no-cache");
  if (ifNoneMatch(request.headers.get("If-None-Match"), etag)) {
    headers.delete("Content-Type");
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: 200, headers });
}

/** Whether an If-None-Match header names this strong tag (a list, `*`, or weak forms of it: RFC 9110 weak comparison). */
function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
