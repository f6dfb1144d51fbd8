import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createNonce } from "./csp.server";
import { DocumentMemo, documentKey, documentMemoBytes } from "./document-memo.server";

/** A render whose output holds the nonce and the data, counting how often it ran. */
function renderer(data: unknown) {
  const calls: string[] = [];
  const render = (nonce: string) => {
    calls.push(nonce);
    return `<html><script nonce="${nonce}">window.__ctx=${JSON.stringify(data)}</script><p>${JSON.stringify(data)}</p></html>`;
  };
  return { render, calls };
}

const get = (url: string, method = "GET") => new Request(url, { method });
const ctx = (loaderData: unknown) => ({ loaderData, errors: null, actionData: null, activeDeferreds: {} });

describe("DocumentMemo", () => {
  it("reuses a document for the same URL and loader data, with the new response's nonce", () => {
    const memo = new DocumentMemo(1 << 20);
    const data = { root: { csrf: "t1", locale: "ko" }, "routes/_app.alarm": { rows: ["벤치 발전소 1", "주 메뉴"], now: 60_000 } };
    const { render, calls } = renderer(data);
    const first = createNonce();
    const second = createNonce();
    const key = documentKey(get("http://x/alarm?status=open"), 200, ctx(data));
    const a = memo.document(key, first, render, true).toString();
    const b = memo
      .document(documentKey(get("http://x/alarm?status=open"), 200, ctx(structuredClone(data))), second, render, true)
      .toString();
    expect(calls).toEqual([first]);
    expect(b).toBe(a.replaceAll(first, second));
    expect(b).toContain(`nonce="${second}"`);
    expect(b).not.toContain(first);
    expect(b).toContain("벤치 발전소 1");
    expect(memo.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  it("renders again when the loader data or the URL differ", () => {
    const memo = new DocumentMemo(1 << 20);
    const one = { root: { csrf: "t1" }, page: { rows: [1] } };
    const { render, calls } = renderer(one);
    memo.document(documentKey(get("http://x/alarm"), 200, ctx(one)), createNonce(), render, true);
    // Another member's CSRF token, another minute of the page's clock, another query: each its own document.
    memo.document(
      documentKey(get("http://x/alarm"), 200, ctx({ root: { csrf: "t2" }, page: { rows: [1] } })),
      createNonce(),
      render,
      true,
    );
    memo.document(
      documentKey(get("http://x/alarm"), 200, ctx({ root: { csrf: "t1" }, page: { rows: [1, 2] } })),
      createNonce(),
      render,
      true,
    );
    memo.document(documentKey(get("http://x/alarm?page=2"), 200, ctx(one)), createNonce(), render, true);
    expect(calls).toHaveLength(4);
    expect(memo.size).toBe(4);
  });

  it("does not keep a document whose response sets a cookie", () => {
    const memo = new DocumentMemo(1 << 20);
    const data = { root: { csrf: "fresh" }, shell: { flash: "saved" } };
    const { render, calls } = renderer(data);
    const key = documentKey(get("http://x/notice"), 200, ctx(data));
    memo.document(key, createNonce(), render, false);
    memo.document(key, createNonce(), render, false);
    expect(calls).toHaveLength(2);
    expect(memo.size).toBe(0);
  });

  it("memoises only a plain GET answered 200 with plain JSON loader data", () => {
    const data = { page: { rows: [1] } };
    expect(documentKey(get("http://x/alarm"), 200, ctx(data))).toEqual(expect.any(String));
    expect(documentKey(get("http://x/alarm"), 404, ctx(data))).toBeNull();
    expect(documentKey(get("http://x/alarm"), 400, ctx(data))).toBeNull();
    expect(documentKey(get("http://x/alarm", "HEAD"), 200, ctx(data))).toBeNull();
    expect(documentKey(get("http://x/alarm"), 200, { ...ctx(data), errors: { page: new Error("x") } })).toBeNull();
    expect(documentKey(get("http://x/alarm"), 200, { ...ctx(data), actionData: { page: { ok: true } } })).toBeNull();
    expect(documentKey(get("http://x/pvstatus"), 200, { ...ctx(data), activeDeferreds: { page: {} } })).toBeNull();
    // A promise, a Map or a class instance is not described by its JSON: two different ones would share a key.
    expect(documentKey(get("http://x/pvstatus"), 200, ctx({ page: { list: Promise.resolve(1) } }))).toBeNull();
    expect(documentKey(get("http://x/a"), 200, ctx({ page: { m: new Map([[1, 2]]) } }))).toBeNull();
    // Without single fetch Remix hands over parsed JSON only: the same key, without checking every value.
    expect(documentKey(get("http://x/alarm"), 200, { ...ctx(data), future: { v3_singleFetch: false } })).toBe(
      documentKey(get("http://x/alarm"), 200, ctx(data)),
    );
    // A null-prototype object and a Date are plain enough (a Date is its ISO string).
    expect(documentKey(get("http://x/a"), 200, ctx({ page: Object.assign(Object.create(null), { a: 1 }) }))).toEqual(
      expect.any(String),
    );
    expect(documentKey(get("http://x/a"), 200, ctx({ page: { at: new Date(0) } }))).toBe(
      documentKey(get("http://x/a"), 200, ctx({ page: { at: "1970-01-01T00:00:00.000Z" } })),
    );
  });

  it("keeps at most its bytes, dropping the least recently used", () => {
    // Each page is ~10,000 bytes: three fit in 32 KB, not four.
    const memo = new DocumentMemo(32 * 1024);
    const page = (i: number) => ({ page: { i, filler: "x".repeat(10_000) } });
    const counts = new Map<number, number>();
    const show = (i: number) => {
      const data = page(i);
      memo.document(
        documentKey(get(`http://x/alarm?page=${i}`), 200, ctx(data)),
        createNonce(),
        (nonce) => {
          counts.set(i, (counts.get(i) ?? 0) + 1);
          return `<script nonce="${nonce}"></script>${JSON.stringify(data)}`;
        },
        true,
      );
    };
    show(1);
    show(2);
    show(3);
    show(1); // used again: page 2 is now the least recently used
    show(4); // evicts page 2
    expect(memo.size).toBe(3);
    expect(memo.stats.bytes).toBeLessThanOrEqual(32 * 1024);
    show(1);
    show(3);
    show(4);
    expect([counts.get(1), counts.get(3), counts.get(4)]).toEqual([1, 1, 1]);
    show(2);
    expect(counts.get(2)).toBe(2);
  });

  it("is off at 0 bytes, and reads its size from DOCUMENT_MEMO_MB", () => {
    const memo = new DocumentMemo(0);
    const { render, calls } = renderer({});
    const key = documentKey(get("http://x/"), 200, ctx({}));
    memo.document(key, createNonce(), render, true);
    memo.document(key, createNonce(), render, true);
    expect(calls).toHaveLength(2);
    expect(documentMemoBytes({})).toBe(32 * 1024 * 1024);
    expect(documentMemoBytes({ DOCUMENT_MEMO_MB: "0" })).toBe(0);
    expect(documentMemoBytes({ DOCUMENT_MEMO_MB: "8" })).toBe(8 * 1024 * 1024);
  });

  it("gives a kept document as gzip with the new response's nonce, compressed when kept, never another's", () => {
    const memo = new DocumentMemo(1 << 20);
    // Korean text, a page of more than one deflate block, the nonce three times, at the start and at the end.
    const rows = Array.from({ length: 2_000 }, (_, i) => `<tr><td>알람 벤치 발전소 ${i}호</td><td>인버터 ${i % 7}</td></tr>`);
    const render = (nonce: string) =>
      `${nonce}<html><script nonce="${nonce}">1</script><table>${rows.join("")}</table><script nonce="${nonce}"></script>${nonce}`;
    const key = documentKey(get("http://x/alarm"), 200, ctx({ rows: rows.length }));
    expect(memo.gzipped(key, createNonce())).toBeNull(); // nothing kept yet
    expect(memo.gzipped(null, createNonce())).toBeNull();
    const first = createNonce();
    const plain = memo.document(key, first, render, true).toString();
    expect(plain).toBe(render(first));
    for (const nonce of [createNonce(), createNonce()]) {
      const gz = memo.gzipped(key, nonce)!;
      expect(gz.length).toBeLessThan(plain.length / 5);
      const text = gunzipSync(gz).toString(); // checks the CRC-32 and the length too
      expect(text).toBe(render(nonce));
      expect(text).not.toContain(first);
    }
    expect(memo.stats).toMatchObject({ hits: 2, misses: 1 });
    // Not kept (a Set-Cookie): no gzip of it either.
    const other = documentKey(get("http://x/notice"), 200, ctx({ rows: 1 }));
    memo.document(other, createNonce(), render, false);
    expect(memo.gzipped(other, createNonce())).toBeNull();
  });

  it("keys by Remix's hand-off string when it has one: the same data the same key, other data or URL another", () => {
    const data = { root: { csrf: "t1" }, page: { rows: [1, "<&>"] } };
    const handoff = (d: unknown) => JSON.stringify({ future: {}, state: { loaderData: d } }).replace(/[<>&]/g, "?");
    const parsed = { ...ctx(data), future: { v3_singleFetch: false } };
    const a = documentKey(get("http://x/alarm"), 200, parsed, handoff(data));
    expect(a).toEqual(expect.any(String));
    expect(documentKey(get("http://x/alarm"), 200, parsed, handoff(structuredClone(data)))).toBe(a);
    expect(documentKey(get("http://x/alarm"), 200, parsed, handoff({ ...data, root: { csrf: "t2" } }))).not.toBe(a);
    expect(documentKey(get("http://x/alarm?page=2"), 200, parsed, handoff(data))).not.toBe(a);
    // Not used where the loader data may not be plain JSON (single fetch): the data's own check decides.
    expect(documentKey(get("http://x/a"), 200, ctx({ m: new Map() }), handoff({}))).toBeNull();
    expect(documentKey(get("http://x/alarm"), 404, parsed, handoff(data))).toBeNull();
  });
});
