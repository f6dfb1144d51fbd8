// Issue 13.17: the first view of a map fits the member's plants; zoom is a plain link (camera in the URL).
import { describe, expect, it } from "vitest";
import {
  cameraFromSearch,
  FIT_MAX_ZOOM,
  FIT_PADDING_PX,
  fitCamera,
  MAP_SETTINGS,
  searchWithCamera,
  toViewport,
  zoomStep,
} from "./geo";

const W = 1000;
const H = 640;
const inside = (p: { lat: number; lng: number }, cam: { center: [number, number]; zoom: number }) => {
  const [x, y] = toViewport([p.lat, p.lng], cam.center, cam.zoom, W, H);
  return x >= FIT_PADDING_PX - 0.5 && x <= W - FIT_PADDING_PX + 0.5 && y >= FIT_PADDING_PX - 0.5 && y <= H - FIT_PADDING_PX + 0.5;
};

describe("fitCamera (first view)", () => {
  const korea = [
    { lat: 34.57, lng: 126.6 }, // 해남, south-west
    { lat: 37.49, lng: 127.98 },
    { lat: 35.5, lng: 128.75 },
    { lat: 33.25, lng: 126.56 }, // 제주: outside the SPEC default view
    { lat: 38.2, lng: 128.6 }, // 속초
  ];

  it("the SPEC default view leaves plants outside — the defect", () => {
    expect(korea.filter((p) => !inside(p, MAP_SETTINGS.desktop)).length).toBeGreaterThan(0);
  });

  it("shows every plant inside the viewport, with room for the markers", () => {
    const cam = fitCamera(korea, W, H, MAP_SETTINGS.desktop);
    for (const p of korea) expect(inside(p, cam), JSON.stringify(p)).toBe(true);
    // …and is not zoomed out more than a quarter step beyond what fits.
    expect(korea.every((p) => inside(p, { ...cam, zoom: cam.zoom + 0.25 }))).toBe(false);
  });

  it("fits plants far apart (a test site abroad) and close together (one site)", () => {
    const far = [...korea, { lat: 36, lng: -100 }];
    const cam = fitCamera(far, W, H, MAP_SETTINGS.desktop);
    for (const p of far) expect(inside(p, cam)).toBe(true);
    const one = fitCamera([{ lat: 36.41, lng: 128.16 }], W, H, MAP_SETTINGS.desktop);
    expect(one).toEqual({ center: [expect.closeTo(36.41, 6), expect.closeTo(128.16, 6)], zoom: FIT_MAX_ZOOM });
  });

  it("falls back to the SPEC view (desktop 8.5 at 36,128; mobile 7.5) when no plant has coordinates", () => {
    expect(fitCamera([], W, H, MAP_SETTINGS.desktop)).toEqual({ center: [36, 128], zoom: 8.5 });
    expect(fitCamera([{ lat: NaN, lng: 1 }], 390, 560, MAP_SETTINGS.mobile)).toEqual({ center: [36, 127.5], zoom: 7.5 });
  });
});

describe("camera in the URL (zoom without JavaScript)", () => {
  it("round-trips through the search, keeping the other parameters", () => {
    const base = new URLSearchParams("view=map&hide=normal");
    const href = searchWithCamera(base, { center: [35.123456, 127.5], zoom: 9 });
    const back = new URLSearchParams(href);
    expect(back.get("view")).toBe("map");
    expect(back.get("hide")).toBe("normal");
    expect(cameraFromSearch(back)).toEqual({ center: [35.1235, 127.5], zoom: 9 });
    expect(searchWithCamera(back, null)).toBe("?view=map&hide=normal");
  });

  it("ignores a camera that is not a place or a zoom, and clamps the zoom", () => {
    expect(cameraFromSearch(new URLSearchParams("mz=9"))).toBeNull();
    expect(cameraFromSearch(new URLSearchParams("mz=abc&mc=36,128"))).toBeNull();
    expect(cameraFromSearch(new URLSearchParams("mz=9&mc=95,128"))).toBeNull();
    expect(cameraFromSearch(new URLSearchParams("mz=99&mc=36,128"))).toEqual({ center: [36, 128], zoom: 16 });
  });

  it("steps one zoom level in or out around the same centre, within range", () => {
    expect(zoomStep({ center: [36, 128], zoom: 8.5 }, 1)).toEqual({ center: [36, 128], zoom: 9 });
    expect(zoomStep({ center: [36, 128], zoom: 8.5 }, -1)).toEqual({ center: [36, 128], zoom: 8 });
    expect(zoomStep({ center: [36, 128], zoom: 16 }, 1)).toBeNull();
    expect(zoomStep({ center: [36, 128], zoom: 1 }, -1)).toBeNull();
  });
});
