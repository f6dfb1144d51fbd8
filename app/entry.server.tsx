/**
 * Renders the document. A page whose data is all there (most pages; /pvstatus for kiosks without script)
 * is rendered to one string: nothing could stream, and React's string renderer skips the per-chunk UTF-8
 * encoding of its streaming writer (about a tenth of a /pvstatus render). Such a string is compressed here
 * in one call (brotli or gzip, as the compression middleware in server.ts would choose) rather than streamed
 * through that middleware, whose trips to zlib's thread pool cost about a millisecond of a page. A page with
 * deferred data still pending streams; bots get such a page whole (onAllReady).
 * A whole page is rendered once per URL and loader data: a repeat comes from the document memo
 * (app/utils/document-memo.server.ts) with this response's nonce, and only its headers are new; when the client
 * takes gzip its compression is not new either (the kept parts' deflate blocks joined around the nonce).
 */
import { Transform } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { NonceProvider } from "~/components/Nonce";
import { contentSecurityPolicy, createNonce } from "~/utils/csp.server";
import { DocumentMemo, documentKey, documentMemoBytes } from "~/utils/document-memo.server";
import { acceptsGzip, encodeWholeBody, wholeBodyEncoding } from "~/utils/http-encoding.server";

const ABORT_DELAY = 5_000;

/** This portal process's rendered documents (one process per core, each with its own). */
const memo = new DocumentMemo(documentMemoBytes());

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
    // A page with a Set-Cookie (a new CSRF token, a flash message cleared) is not kept: it is not asked again as is.
    const key = documentKey(
      request,
      responseStatusCode,
      { ...remixContext.staticHandlerContext, future: remixContext.future },
      remixContext.serverHandoffString,
    );
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    responseHeaders.append("Vary", "Accept-Encoding");
    // A kept page goes out as gzip, made from its parts compressed when it was kept, whenever the client takes gzip:
    // compressing it again (brotli or gzip, ~0.4 ms of a 70 KB page) would be most of what a repeat costs here.
    const gzipped = acceptsGzip(request) ? memo.gzipped(key, nonce) : null;
    if (gzipped) {
      responseHeaders.set("Content-Encoding", "gzip");
      return new Response(gzipped, { headers: responseHeaders, status: responseStatusCode });
    }
    let body = memo.document(
      key,
      nonce,
      (nonce) =>
        `<!DOCTYPE html>${renderToString(
          <NonceProvider value={nonce}>
            <RemixServer context={remixContext} url={request.url} nonce={nonce} />
          </NonceProvider>,
        )}`,
      !responseHeaders.has("Set-Cookie"),
    );
    const encoding = wholeBodyEncoding(request);
    if (encoding) {
      body = encodeWholeBody(body, encoding);
      responseHeaders.set("Content-Encoding", encoding);
    }
    return new Response(body, { headers: responseHeaders, status: responseStatusCode });
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
