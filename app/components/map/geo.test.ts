import { describe, expect, it } from "vitest";
import { clusterPoints, MAP_SETTINGS, project, toViewport, unproject } from "./geo";

describe("projection", () => {
  it("matches Web-Mercator tile pixels (zoom 0: 256 px world)", () => {
    expect(project([0, 0], 0)).toEqual([128, 128]);
    const [x] = project([0, 180], 1);
    expect(x).toBe(512);
    const back = unproject(project([36, 128], 8.5), 8.5);
    expect(back[0]).toBeCloseTo(36, 9);
    expect(back[1]).toBeCloseTo(128, 9);
  });
  it("puts the centre in the middle of the viewport", () => {
    expect(toViewport([36, 128], [36, 128], 8.5, 800, 600)).toEqual([400, 300]);
    const [x, y] = toViewport([37, 127], [36, 128], 8.5, 800, 600);
    expect(x).toBeLessThan(400); // west is left
    expect(y).toBeLessThan(300); // north is up
  });
  it("keeps the SPEC §2 map settings", () => {
    expect(MAP_SETTINGS.desktop).toEqual({ center: [36, 128], zoom: 8.5 });
    expect(MAP_SETTINGS.mobile.zoom).toBe(7.5);
    expect(MAP_SETTINGS.mobile.center[1]).toBe(127.5);
  });
});

describe("clusterPoints", () => {
  const p = (uid: string, lat: number, lng: number, status = 2) => ({ uid, name: uid, lat, lng, status });
  it("keeps distant plants apart and merges overlapping ones", () => {
    const pts = [p("a", 36, 128), p("b", 36.0005, 128.0005), p("c", 35, 127)];
    const clusters = clusterPoints(pts, 8.5);
    expect(clusters).toHaveLength(2);
    expect(
      clusters
        .find((c) => c.points.length === 2)!
        .points.map((x) => x.uid)
        .sort(),
    ).toEqual(["a", "b"]);
  });
  it("separates them again when zoomed in far enough", () => {
    const pts = [p("a", 36, 128), p("b", 36.01, 128.01)];
    expect(clusterPoints(pts, 7)).toHaveLength(1);
    expect(clusterPoints(pts, 14)).toHaveLength(2);
  });
  it("leads with and reports the most urgent status, counting each indicator", () => {
    const pts = [p("n1", 36, 128, 2), p("x", 36.0001, 128, 4), p("z", 36.0002, 128, 1)];
    const [c] = clusterPoints(pts, 8);
    expect(c!.key).toBe("x");
    expect(c!.worst).toBe("abnormal");
    expect(c!.counts).toEqual({ normal: 1, abnormal: 1, not: 1 });
  });
  it("skips plants without coordinates", () => {
    expect(clusterPoints([p("a", Number.NaN, 128)], 8)).toEqual([]);
  });
});
