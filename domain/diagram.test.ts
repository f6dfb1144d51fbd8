import { describe, expect, it } from "vitest";
import { buildSingleLine, channelCurrents, DIAGRAM_FRESH_MS, flattenElements, type TopologyDevice } from "./diagram";
import { helpArticleFor, searchArticle } from "./help";

const NOW = 1_700_000_000_000;
const dev = (
  uid: string,
  kind: number,
  address: number,
  values: Record<string, unknown> | null = {},
  ts: number | null = NOW,
): TopologyDevice => ({
  uid,
  kind,
  name: uid,
  rtu_uid: "R1",
  address,
  ts,
  values,
});

describe("buildSingleLine", () => {
  it("runs grid → VCB → transformer → ACB → inverters (in turn over the ACBs) → boards (k → k mod n) → strings", () => {
    const root = buildSingleLine(
      [
        dev("I1", 1, 1),
        dev("I2", 1, 2),
        dev("I3", 1, 3),
        dev("B1", 2, 4, { channels: "8,8,2,8" }),
        dev("B2", 2, 5),
        dev("B3", 2, 6),
        dev("B4", 2, 7),
        dev("V", 7, 8, { state: 1 }),
        dev("A1", 8, 9),
        dev("A2", 8, 10),
        dev("E", 4, 11),
      ],
      [],
      NOW,
    );
    expect(root.type).toBe("grid");
    const [vcb] = root.children;
    expect(vcb!.type).toBe("vcb");
    const tr = vcb!.children[0]!;
    expect(tr.type).toBe("transformer");
    expect(tr.children.map((a) => a.device_uid)).toEqual(["A1", "A2"]);
    expect(tr.children[0]!.children.map((i) => i.device_uid)).toEqual(["I1", "I3"]);
    expect(tr.children[1]!.children.map((i) => i.device_uid)).toEqual(["I2"]);
    const i1 = tr.children[0]!.children[0]!;
    expect(i1.children.map((b) => b.device_uid)).toEqual(["B1", "B4"]);
    expect(i1.children[0]!.children.map((s) => [s.name, s.condition])).toEqual([
      ["S1", "ok"],
      ["S2", "ok"],
      ["S3", "low"],
      ["S4", "ok"],
    ]);
    // Environment sensors are not on the single line.
    expect(flattenElements(root).some((e) => e.device_uid === "E")).toBe(false);
  });

  it("connects at low voltage without a VCB (no transformer), and straight to the grid without breakers", () => {
    const lv = buildSingleLine([dev("I1", 1, 1), dev("A", 8, 2)], [], NOW);
    expect(lv.children.map((e) => e.type)).toEqual(["acb"]);
    expect(flattenElements(lv).some((e) => e.type === "transformer")).toBe(false);
    const bare = buildSingleLine([dev("I1", 1, 1), dev("B1", 2, 2)], [], NOW);
    expect(bare.children.map((e) => e.device_uid)).toEqual(["I1"]);
    expect(bare.children[0]!.children.map((e) => e.device_uid)).toEqual(["B1"]);
  });

  it("gives each element a condition: alarm (own or its gateway's), open breaker, stale, no data", () => {
    const root = buildSingleLine(
      [
        dev("I1", 1, 1, { iw: 100 }),
        dev("I2", 1, 2, {}, NOW - DIAGRAM_FRESH_MS - 1),
        dev("I3", 1, 3, null, null),
        dev("A", 8, 4, { state: 0, gf_ma: 3 }),
      ],
      [
        { device_uid: "I1", rtu_uid: "R1", code: 1000006, level: 3, message: "DC 과전압", raised_at: NOW - 10 },
        { device_uid: "I1", rtu_uid: "R1", code: 1000001, level: 2, message: "", raised_at: NOW },
      ],
      NOW,
    );
    const byId = new Map(flattenElements(root).map((e) => [e.device_uid, e]));
    expect(byId.get("I1")).toMatchObject({ condition: "alarm", alarm: { code: 1000006, level: 3 } });
    expect(byId.get("I2")!.condition).toBe("stale");
    expect(byId.get("I3")!.condition).toBe("nodata");
    expect(byId.get("A")).toMatchObject({ condition: "open", values: { breaker: "open", gf_ma: 3 } });
    const silent = buildSingleLine(
      [dev("I1", 1, 1)],
      [{ device_uid: null, rtu_uid: "R1", code: 1000003, level: 4, message: "", raised_at: NOW }],
      NOW,
    );
    expect(silent.children[0]).toMatchObject({ condition: "alarm", alarm: { code: 1000003 } });
  });

  it("reads board channels stored comma-joined or as a list", () => {
    expect(channelCurrents("8.5,0,7")).toEqual([8.5, 0, 7]);
    expect(channelCurrents([1, "x", null])).toEqual([1, null, null]);
    expect(channelCurrents(undefined)).toEqual([]);
  });
});

describe("help", () => {
  it("opens the article of the section a path lies in, the start article otherwise", () => {
    expect(helpArticleFor("/pvstatus")).toBe("pvstatus");
    expect(helpArticleFor("/setting/rtu/R1")).toBe("setting");
    expect(helpArticleFor("/alarm")).toBe("alarm-codes");
    expect(helpArticleFor("/")).toBe("start");
    expect(helpArticleFor("/somewhere")).toBe("start");
  });

  it("matches every word, weighs title hits, and gives an excerpt around the first hit", () => {
    expect(searchArticle("알람 코드", "1000003 인터넷 연결 끊김", "1000003 알람")!.score).toBeGreaterThan(
      searchArticle("x", "1000003 알람", "1000003 알람")!.score,
    );
    expect(searchArticle("t", "abc", "abc zzz")).toBeNull();
    expect(searchArticle("t", `${"a ".repeat(100)}target word`, "TARGET")!.excerpt).toMatch(/^….*target word$/);
  });
});
