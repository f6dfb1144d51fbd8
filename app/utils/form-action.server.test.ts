import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseSearch } from "./form-action.server";
import { searchParam } from "./search-params";

const url = (query: string) => new URL(`http://x/list?${query}`);

const ListSearch = z.object({
  status: searchParam.oneOf(["online", "offline"]),
  order: searchParam.oneOf(["name", "uid"], "name"),
  pkg: searchParam.digits(),
  type: searchParam.digits(2),
  q: searchParam.text(5),
  node: searchParam.id(),
  code: searchParam.id(0),
});

describe("parseSearch with lenient list filters", () => {
  it("reads good values as written", () => {
    expect(parseSearch(ListSearch, url("status=offline&order=uid&pkg=12&type=7&q=%20ab%20&node=3&code=0"))).toEqual({
      status: "offline",
      order: "uid",
      pkg: "12",
      type: "7",
      q: "ab",
      node: 3,
      code: 0,
    });
  });

  it("gives the defaults when the values are absent", () => {
    expect(parseSearch(ListSearch, url(""))).toEqual({
      status: "",
      order: "name",
      pkg: "",
      type: "",
      q: "",
      node: undefined,
      code: undefined,
    });
  });

  it("gives the defaults for wrong, repeated or out-of-range values rather than an error", () => {
    const bad = "status=ONLINE&order=x&pkg=-1&type=123&q=a&q=b&node=0&code=1e3";
    expect(parseSearch(ListSearch, url(bad))).toEqual({
      status: "",
      order: "name",
      pkg: "",
      type: "",
      q: "",
      node: undefined,
      code: undefined,
    });
    expect(parseSearch(ListSearch, url("node=abc&code=-4&pkg=1.5")).node).toBeUndefined();
    expect(parseSearch(ListSearch, url("node=99999999999999999999")).node).toBeUndefined();
  });

  it("cuts free text to its length and drops control characters", () => {
    expect(parseSearch(ListSearch, url("q=abcdefgh")).q).toBe("abcde");
    expect(parseSearch(ListSearch, url("q=a%00b%0A")).q).toBe("ab");
  });

  it("answers 400 naming the field when a strict field is wrong", async () => {
    const Strict = z.object({ uid: z.string().trim().min(1, "required").max(4, "too_long") });
    expect(parseSearch(Strict, new Request("http://x/?uid=abc"))).toEqual({ uid: "abc" });
    let thrown: unknown;
    try {
      parseSearch(Strict, new Request("http://x/?uid=toolong"));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: "uid: too_long", errors: { uid: "too_long" } });
  });
});
