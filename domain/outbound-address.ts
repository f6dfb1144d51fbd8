/**
 * The pure half of the outbound-address rule (the API's `api/net/outbound-address.ts` resolves the host and checks
 * every address it resolves to): which URLs the server may be asked to connect to — a camera's stream, a member's
 * alert webhook. Schemes rtsp, rtsps, http and https only (webhooks http and https), a host, and the host written
 * the one way the resolver reads it: the WHATWG URL parser normalises an IPv4 host of a special scheme (http,
 * https) from any spelling (`0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1`); an rtsp URL's host is opaque to
 * it, so it is normalised here the same way before it is checked.
 */

export const OUTBOUND_SCHEMES = ["rtsp:", "rtsps:", "http:", "https:"] as const;
export const WEBHOOK_SCHEMES = ["http:", "https:"] as const;

/** Why an outbound address is refused (the API's 400 `fields.<field>`; the portal's texts name each). */
export type OutboundProblem =
  | "invalid_url"
  | "unsupported_scheme"
  | "host_unresolved"
  | "address_metadata"
  | "address_loopback"
  | "address_link_local"
  | "address_unspecified"
  | "address_multicast"
  | "address_cgnat"
  | "address_reserved"
  | "address_private";

export const OUTBOUND_PROBLEMS: readonly OutboundProblem[] = [
  "invalid_url",
  "unsupported_scheme",
  "host_unresolved",
  "address_metadata",
  "address_loopback",
  "address_link_local",
  "address_unspecified",
  "address_multicast",
  "address_cgnat",
  "address_reserved",
  "address_private",
];

export interface OutboundTarget {
  url: URL;
  /** The host as the resolver is to read it: an IP literal in its canonical form (IPv6 without brackets), or a name. */
  host: string;
  /** Whether `host` is an IP literal (no resolution needed). */
  literal: boolean;
  /** The port connected to (the scheme's default when the URL names none). */
  port: number;
}

const DEFAULT_PORTS: Record<string, number> = { "rtsp:": 554, "rtsps:": 322, "http:": 80, "https:": 443 };

/** The host of an opaque (non-special) URL read as an http URL would read it: IPv4 spellings become dotted quads. */
function canonicalHost(raw: string): string | null {
  try {
    return new URL(`http://${raw.includes(":") && !raw.startsWith("[") ? `[${raw}]` : raw}/`).hostname;
  } catch {
    return null;
  }
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** The URL's target, or why it cannot be one (scheme and form only: the addresses are checked by the API). */
export function outboundTarget(
  raw: string,
  schemes: readonly string[] = OUTBOUND_SCHEMES,
): { ok: true; target: OutboundTarget } | { ok: false; problem: OutboundProblem } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: "invalid_url" };
  }
  if (!schemes.includes(url.protocol)) return { ok: false, problem: "unsupported_scheme" };
  if (!url.hostname) return { ok: false, problem: "invalid_url" };
  let host = url.hostname.toLowerCase();
  const special = url.protocol === "http:" || url.protocol === "https:";
  if (!special) {
    let decoded = host;
    try {
      decoded = decodeURIComponent(host);
    } catch {
      return { ok: false, problem: "invalid_url" };
    }
    const canon = canonicalHost(decoded);
    if (!canon) return { ok: false, problem: "invalid_url" };
    host = canon;
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  const literal = IPV4.test(host) || host.includes(":");
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]!;
  return { ok: true, target: { url, host, literal, port } };
}

/** Why an address cannot be an outbound one by its form alone, or null (the API checks the addresses too). */
export function outboundUrlProblem(raw: string, schemes: readonly string[] = OUTBOUND_SCHEMES): OutboundProblem | null {
  const t = outboundTarget(raw, schemes);
  return t.ok ? null : t.problem;
}
