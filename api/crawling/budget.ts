/**
 * Politeness towards external sources: one request at a time per source, and a token bucket per source
 * (a steady rate with a small burst). Kept in process memory on purpose — it only paces our own
 * outgoing requests; several portal processes would each be polite on their own.
 */
export interface BudgetOptions {
  /** Requests per second, steady state. */
  ratePerSecond: number;
  /** Requests allowed back to back before the rate applies. */
  burst: number;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
  /** Tail of this source's queue: requests run strictly one after another. */
  tail: Promise<unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SourceBudget {
  private buckets = new Map<string, Bucket>();
  constructor(private opts: BudgetOptions = { ratePerSecond: 5, burst: 10 }) {}

  private bucket(key: string): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.opts.burst, refilledAt: Date.now(), tail: Promise.resolve() };
      this.buckets.set(key, b);
    }
    return b;
  }

  private async take(b: Bucket): Promise<void> {
    for (;;) {
      const now = Date.now();
      b.tokens = Math.min(this.opts.burst, b.tokens + ((now - b.refilledAt) / 1000) * this.opts.ratePerSecond);
      b.refilledAt = now;
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - b.tokens) / this.opts.ratePerSecond) * 1000));
    }
  }

  /** Runs fn when it is this source's turn and a token is available. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const b = this.bucket(key);
    const result = b.tail.then(async () => {
      await this.take(b);
      return fn();
    });
    b.tail = result.catch(() => undefined);
    return result;
  }
}

/** The process-wide budget shared by every adapter. */
export const sourceBudget = new SourceBudget();
