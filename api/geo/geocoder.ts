/**
 * Address → coordinates (SPEC §7 "a maps service geocoding lookup by address uses the key {key}").
 * One small interface with one provider behind MAPS_KEY. Without a key there is no geocoder and the
 * admin enters coordinates. The provider needs the internet, which tests here do not have: its request
 * and answer parsing are covered by a unit test with a stubbed fetch.
 */
import { inKorea } from "../../domain/fleet";

export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface Geocoder {
  readonly provider: string;
  /** The best match for a Korean address, or null when there is none (or it lies outside Korea). */
  geocode(address: string): Promise<GeoPoint | null>;
}

type Fetch = typeof fetch;

/** Kakao Local address search (`KakaoAK {key}`), the usual choice for Korean addresses. */
export function kakaoGeocoder(key: string, fetchImpl: Fetch = fetch, timeoutMs = 5_000): Geocoder {
  return {
    provider: "kakao",
    async geocode(address) {
      const url = new URL("https://dapi.kakao.com/v2/local/search/address.json");
      url.searchParams.set("query", address);
      url.searchParams.set("size", "1");
      const res = await fetchImpl(url, {
        headers: { authorization: `KakaoAK ${key}`, accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`geocoder answered ${res.status}`);
      const body = (await res.json()) as { documents?: Array<{ x?: string; y?: string }> };
      const doc = body.documents?.[0];
      if (!doc) return null;
      const point = { lat: Number(doc.y), lng: Number(doc.x) };
      return Number.isFinite(point.lat) && Number.isFinite(point.lng) && inKorea(point.lat, point.lng) ? point : null;
    },
  };
}

/** The configured geocoder: a provider when MAPS_KEY is set, otherwise none. */
export function geocoderFromKey(key: string | undefined | null): Geocoder | null {
  return key ? kakaoGeocoder(key) : null;
}
