/** Polls `probe` until it answers something truthy (its answer is returned) or the time is up. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  opts: { ms?: number; every?: number; failure?: () => string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.ms ?? 8_000);
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(opts.failure?.() ?? "condition not met in time");
    await new Promise((r) => setTimeout(r, opts.every ?? 100));
  }
}
