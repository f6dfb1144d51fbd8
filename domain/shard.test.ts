import { describe, expect, it } from "vitest";
import { fairShare, shardOf } from "./shard";

describe("shardOf", () => {
  it("is stable: the same uid lands in the same shard in every process (FNV-1a)", () => {
    // FNV-1a 32-bit of "a" is 0xe40c292c (the published test vector), of "foobar" 0xbf9cf968.
    expect(shardOf("a", 2 ** 31)).toBe(0xe40c292c % 2 ** 31);
    expect(shardOf("foobar", 1000)).toBe(0xbf9cf968 % 1000);
    expect(shardOf("P000123", 8)).toBe(shardOf("P000123", 8));
  });

  it("puts everything in shard 0 when there is one shard", () => {
    expect(shardOf("anything", 1)).toBe(0);
    expect(shardOf("anything", 0)).toBe(0);
  });

  it("spreads sequential and random uids evenly over 8 shards (each within 10 % of its share)", () => {
    for (const uids of [
      Array.from({ length: 20_000 }, (_, i) => `P${String(i).padStart(6, "0")}`),
      Array.from({ length: 20_000 }, (_, i) => (i * 2654435761 + 12345).toString(16).padStart(12, "0")),
    ]) {
      const counts = new Array(8).fill(0);
      for (const u of uids) counts[shardOf(u, 8)]++;
      for (const c of counts) expect(Math.abs(c - 2_500)).toBeLessThan(250);
    }
  });
});

describe("fairShare", () => {
  it("splits evenly, rounding up so that every job has a holder", () => {
    expect(fairShare(8, 1)).toBe(8);
    expect(fairShare(8, 2)).toBe(4);
    expect(fairShare(8, 3)).toBe(3);
    expect(fairShare(8, 0)).toBe(8);
    expect(fairShare(0, 3)).toBe(0);
  });
});
