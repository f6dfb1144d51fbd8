import { describe, expect, it } from "vitest";
import { geocoderFromKey, kakaoGeocoder } from "./geocoder";

describe("geocoder", () => {
  it("is absent without a maps key", () => {
    expect(geocoderFromKey(undefined)).toBeNull();
    expect(geocoderFromKey("")).toBeNull();
  });

  it("asks the provider with the key and reads the first match", async () => {
    let seen: { url: string; auth: string | null } | null = null;
    const fake = (async (url: URL, init: RequestInit) => {
      seen = { url: String(url), auth: new Headers(init.headers).get("authorization") };
      return new Response(JSON.stringify({ documents: [{ x: "127.0276", y: "37.4979" }] }), { status: 200 });
    }) as unknown as typeof fetch;
    const point = await kakaoGeocoder("k3y", fake).geocode("서울 강남구 강남대로 396");
    expect(point).toEqual({ lat: 37.4979, lng: 127.0276 });
    expect(seen!.auth).toBe("KakaoAK k3y");
    expect(seen!.url).toContain("query=%EC%84%9C%EC%9A%B8");
  });

  it("returns null for no match or a point outside Korea, throws on provider errors", async () => {
    const none = (async () => new Response(JSON.stringify({ documents: [] }))) as unknown as typeof fetch;
    expect(await kakaoGeocoder("k", none).geocode("x")).toBeNull();
    const far = (async () => new Response(JSON.stringify({ documents: [{ x: "2.35", y: "48.85" }] }))) as unknown as typeof fetch;
    expect(await kakaoGeocoder("k", far).geocode("Paris")).toBeNull();
    const down = (async () => new Response("no", { status: 401 })) as unknown as typeof fetch;
    await expect(kakaoGeocoder("k", down).geocode("x")).rejects.toThrow(/401/);
  });
});
