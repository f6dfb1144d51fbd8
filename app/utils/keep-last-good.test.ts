import { describe, expect, it } from "vitest";
import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { serverUnreachableSince } from "./connectivity";
import { isOutage, keepLastGood } from "./keep-last-good";

function args(serverLoader: () => Promise<unknown>): ClientLoaderFunctionArgs {
  return { serverLoader, request: new Request("http://localhost/pvstatus"), params: {} } as unknown as ClientLoaderFunctionArgs;
}

describe("isOutage", () => {
  it("is a failed request or a gateway's 502/503/504, never a refusal or a bug", () => {
    expect(isOutage(new TypeError("Failed to fetch"))).toBe(true);
    expect(isOutage(new Response("", { status: 503 }))).toBe(true);
    expect(isOutage(new Response("", { status: 502 }))).toBe(true);
    expect(isOutage(new Response("", { status: 504 }))).toBe(true);
    expect(isOutage(new Response("", { status: 500 }))).toBe(false);
    expect(isOutage(new Response("", { status: 403 }))).toBe(false);
    expect(isOutage(new Response(null, { status: 302, headers: { Location: "/login" } }))).toBe(false);
    expect(isOutage(new Error("boom"))).toBe(false);
  });
});

describe("keepLastGood", () => {
  it("keeps the last answer through an outage, says since when, and ends the outage with the next answer", async () => {
    const loader = keepLastGood();
    // Never on hydration: that would have React discard the server's markup (the quality spec's hydration check).
    expect("hydrate" in loader).toBe(false);
    expect(await loader(args(async () => ({ n: 1 })))).toEqual({ n: 1 });
    expect(serverUnreachableSince()).toBeNull();
    expect(await loader(args(() => Promise.reject(new TypeError("Failed to fetch"))))).toEqual({ n: 1 });
    const since = serverUnreachableSince();
    expect(since).toBeTypeOf("number");
    // A second failure keeps the first time of the outage.
    await loader(args(() => Promise.reject(new Response("", { status: 502 }))));
    expect(serverUnreachableSince()).toBe(since);
    expect(await loader(args(async () => ({ n: 2 })))).toEqual({ n: 2 });
    expect(serverUnreachableSince()).toBeNull();
  });

  it("passes refusals and redirects on, and has nothing to keep before a first answer", async () => {
    const loader = keepLastGood();
    const outage = new TypeError("Failed to fetch");
    await expect(loader(args(() => Promise.reject(outage)))).rejects.toBe(outage);
    await loader(args(async () => ({ n: 1 })));
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    await expect(loader(args(() => Promise.reject(redirect)))).rejects.toBe(redirect);
    const forbidden = new Response("", { status: 403 });
    await expect(loader(args(() => Promise.reject(forbidden)))).rejects.toBe(forbidden);
  });
});
