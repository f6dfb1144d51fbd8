/**
 * The patch of @remix-run/node (patches/@remix-run+node+2.17.5.patch): a streamed response body is read only as
 * fast as the client takes it, and a client that went away cancels the body's source instead of leaving it read
 * to the end (or the writer waiting for ever).
 */
import { Writable } from "node:stream";
import { writeReadableStreamToWritable } from "@remix-run/node";
import { describe, expect, it } from "vitest";

const CHUNK = 64 * 1024;

function source(chunks: number) {
  const state = { produced: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.produced >= chunks * CHUNK) return controller.close();
      state.produced += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe("@remix-run/node streaming with back-pressure", () => {
  it("holds no more than a few chunks ahead of a slow client", async () => {
    const { stream, state } = source(200); // 12.5 MB
    let consumed = 0;
    let ahead = 0;
    const slow = new Writable({
      highWaterMark: CHUNK,
      write(chunk: Buffer, _enc, done) {
        ahead = Math.max(ahead, state.produced - consumed);
        setTimeout(() => {
          consumed += chunk.length;
          done();
        }, 1);
      },
    });
    await writeReadableStreamToWritable(stream, slow);
    expect(consumed).toBe(200 * CHUNK);
    // Without the patch the whole body is read at once (12.5 MB ahead of the client).
    expect(ahead).toBeLessThanOrEqual(8 * CHUNK);
  });

  it("cancels the source when the client is gone, and returns", async () => {
    const { stream, state } = source(1_000);
    let writes = 0;
    const gone = new Writable({
      highWaterMark: CHUNK,
      write(_chunk, _enc, done) {
        if (++writes === 3) gone.destroy();
        else setTimeout(done, 1);
      },
    });
    await writeReadableStreamToWritable(stream, gone).catch(() => undefined);
    expect(state.cancelled).toBe(true);
    expect(state.produced).toBeLessThan(20 * CHUNK);
  });
});
