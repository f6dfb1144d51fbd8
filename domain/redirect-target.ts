/**
 * Where a `redirectTo` may send the browser: decided the way the browser itself will read the URL.
 * The target is parsed by the WHATWG URL parser (the one browsers use: it drops tab and newline
 * characters, reads `\` as `/` and `//host` as another host) against our own origin; only a target that
 * stays on that origin is kept, and it is kept in the parser's serialised form (path, query, fragment),
 * which percent-encodes control characters, so it is always a valid Location header. Anything else,
 * including what does not parse or is longer than REDIRECT_TARGET_MAX (a Location header that proxies and
 * Node's HTTP client refuse past 8–16 KB; no screen of ours has a URL near it), answers the fallback.
 */
const PLACEHOLDER_ORIGIN = "http://portal.invalid";
export const REDIRECT_TARGET_MAX = 2048;

export function localRedirectTarget(value: unknown, origin: string = PLACEHOLDER_ORIGIN, fallback = "/"): string {
  if (typeof value !== "string" || value === "") return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  const local = `${target.pathname}${target.search}${target.hash}`;
  // A path starting with "//" would be read as another host when it comes back in a Location header.
  return local.startsWith("/") && !local.startsWith("//") && local.length <= REDIRECT_TARGET_MAX ? local : fallback;
}
