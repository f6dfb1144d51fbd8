import { describe, expect, it } from "vitest";
import { SourceBudget } from "./budget";

describe("SourceBudget", () => {
  it("runs one request at a time per source", async () => {
    const budget = new SourceBudget({ ratePerSecond: 1000, burst: 100 });
    let running = 0;
    let peak = 0;
    const job = () =>
      budget.run("a", async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      });
    await Promise.all([job(), job(), job(), job()]);
    expect(peak).toBe(1);
  });

  it("paces requests beyond the burst at the configured rate", async () => {
    const budget = new SourceBudget({ ratePerSecond: 20, burst: 2 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => budget.run("b", async () => undefined)));
    // 2 free, then 4 at 20/s ≈ 200 ms
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("keeps sources independent and survives a failing request", async () => {
    const budget = new SourceBudget({ ratePerSecond: 1000, burst: 10 });
    await expect(
      budget.run("c", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await budget.run("c", async () => 7)).toBe(7);
    expect(await budget.run("d", async () => 8)).toBe(8);
  });
});
