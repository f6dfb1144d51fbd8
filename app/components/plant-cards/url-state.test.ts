import { describe, expect, it } from "vitest";
import { enabledCategories, onlyLegendChanged, parseView, toggled, viewSearch } from "./url-state";

const parse = (q: string, mobile = false) => parseView(new URLSearchParams(q), { mobile });

describe("parseView", () => {
  it("gives the SPEC defaults for a bare URL: grid, all filters on, name ascending, 10 per page, one page shown", () => {
    const v = parse("");
    expect(v).toMatchObject({
      view: "gd",
      hide: [],
      q: "",
      qt: "name",
      sort: "name",
      order: "asc",
      count: 10,
      effectiveCount: 10,
      limit: 10,
      size: "md",
      off: [],
    });
    expect(enabledCategories(v)).toHaveLength(7);
  });

  it("reads every parameter back", () => {
    const v = parse("view=gh&hide=normal,notWork&q=해남&qt=locality&sort=iw&order=desc&count=25&limit=45&size=bar&off=irr");
    expect(v).toMatchObject({
      view: "gh",
      hide: ["normal", "notWork"],
      q: "해남",
      qt: "locality",
      sort: "iw",
      order: "desc",
      count: 25,
      limit: 45,
      size: "bar",
      off: ["irr"],
    });
    expect(enabledCategories(v)).not.toContain("normal");
  });

  it("falls back to defaults for unknown or malformed values", () => {
    const v = parse("view=xx&hide=bogus&qt=zzz&sort=nope&order=up&count=13&limit=-4&size=huge&off=what");
    expect(v).toMatchObject({
      view: "gd",
      hide: [],
      qt: "name",
      sort: "name",
      order: "asc",
      count: 10,
      limit: 10,
      size: "md",
      off: [],
    });
    expect(parse("limit=999999").limit).toBe(2000);
    expect(parse("view=gh&size=sm").size).toBe("md");
  });

  it("shows one page of the chosen size until more is asked for (issue 13, point 12)", () => {
    expect(parse("count=25").limit).toBe(25);
    expect(parse("count=50").limit).toBe(50);
    expect(parse("count=50", true).limit).toBe(10);
    expect(parse("count=25&limit=75").limit).toBe(75);
  });

  it("forces 10 on a mobile grid but keeps the request (and honours it on a mobile graph)", () => {
    expect(parse("count=50", true)).toMatchObject({ count: 50, effectiveCount: 10 });
    expect(parse("view=gh&count=50", true)).toMatchObject({ effectiveCount: 50 });
  });
});

describe("viewSearch", () => {
  it("writes nothing for the default view and round-trips any other", () => {
    expect(viewSearch(parse(""))).toBe("");
    const q =
      "?view=gh&hide=warning_1000001,notWork&q=%ED%95%B4%EB%82%A8&qt=locality&sort=capa&order=desc&count=50&limit=70&size=lg&off=gen";
    expect(viewSearch(parse(q.slice(1)))).toBe(q);
  });

  it("starts the list again at one page when filters, search, sort or page size change, but not for more, size or legend", () => {
    const v = parse("limit=60&count=25");
    expect(viewSearch(v, { sort: "iw" })).toBe("?sort=iw&count=25");
    expect(viewSearch(v, { hide: ["normal"] })).toBe("?hide=normal&count=25");
    expect(viewSearch(v, { limit: 85 })).toBe("?count=25&limit=85");
    expect(viewSearch(v, { off: ["irr"] })).toBe("?count=25&limit=60&off=irr");
    // A new page size shows one page of the new size: no limit in the URL.
    expect(viewSearch(v, { count: 50 })).toBe("?count=50");
    expect(viewSearch(parse("count=25"), { limit: 50 })).toBe("?count=25&limit=50");
  });

  it("drops a card size the new view mode does not have", () => {
    expect(viewSearch(parse("view=gh&size=bar"), { view: "gd" })).toBe("");
  });
});

describe("helpers", () => {
  it("toggles list members", () => {
    expect(toggled(["a", "b"], "a")).toEqual(["b"]);
    expect(toggled(["b"], "a")).toEqual(["b", "a"]);
  });
  it("tells legend-only changes apart", () => {
    const a = new URLSearchParams("view=gh&off=gen");
    expect(onlyLegendChanged(a, new URLSearchParams("view=gh"))).toBe(true);
    expect(onlyLegendChanged(a, new URLSearchParams("view=gd"))).toBe(false);
    expect(onlyLegendChanged(a, new URLSearchParams("view=gh&off=gen"))).toBe(false);
  });
});
