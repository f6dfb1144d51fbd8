/**
 * The outbound-address rule, written once and used wherever the server connects to an address a member gave it:
 * a camera's stream (registration, change, and every start of its ffmpeg) and an alert webhook (the preference,
 * and every delivery). The form (scheme, host spelling) is domain/outbound-address.ts; here the host is resolved
 * (names too, every address they resolve to) and each address is checked:
 * - cloud metadata addresses (169.254.169.254, 169.254.170.2, fd00:ec2::254, 100.100.100.200) are refused whatever
 *   is configured;
 * - an address inside CCTV_ALLOWED_NETS (the operator's list, e.g. the site VPN's 10.20.0.0/16) is allowed;
 * - otherwise loopback, link-local, unspecified, multicast, reserved (240/4), carrier-grade NAT (100.64/10) and
 *   the private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) are refused.
 * IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked as the IPv4 address they carry (net.BlockList does).
 * The check runs again right before each connection, with the addresses resolved then (DNS rebinding), and the
 * caller connects to the address checked, not to the name again.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { OUTBOUND_SCHEMES, outboundTarget, type OutboundProblem, type OutboundTarget } from "../../domain/outbound-address";

export interface Cidr {
  address: string;
  prefix: number;
  type: "ipv4" | "ipv6";
}

/** A comma-separated CIDR list (`10.0.0.0/8, fd12::/16`, a bare address is /32 or /128); throws naming the bad entry. */
export function parseCidrList(value: string | undefined): Cidr[] {
  const out: Cidr[] = [];
  for (const part of (value ?? "").split(",").map((s) => s.trim())) {
    if (!part) continue;
    const [address, prefixText, extra] = part.split("/");
    const kind = isIP(address ?? "");
    if (!kind || extra !== undefined) throw new Error(`"${part}" is not an address or CIDR range`);
    const max = kind === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max)
      throw new Error(`"${part}": the prefix length must be 0–${max}`);
    out.push({ address: address!, prefix, type: kind === 4 ? "ipv4" : "ipv6" });
  }
  return out;
}

const RANGES: Array<[OutboundProblem, string]> = [
  ["address_metadata", "169.254.169.254/32, 169.254.170.2/32, 100.100.100.200/32, fd00:ec2::254/128"],
  ["address_loopback", "127.0.0.0/8, ::1/128"],
  ["address_unspecified", "0.0.0.0/8, ::/128"],
  ["address_link_local", "169.254.0.0/16, fe80::/10"],
  ["address_multicast", "224.0.0.0/4, ff00::/8"],
  ["address_reserved", "240.0.0.0/4"],
  ["address_cgnat", "100.64.0.0/10"],
  ["address_private", "10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7"],
];

function blockList(cidrs: Cidr[]): BlockList {
  const list = new BlockList();
  for (const c of cidrs) list.addSubnet(c.address, c.prefix, c.type);
  return list;
}

const CLASSES = RANGES.map(([problem, cidrs]) => ({ problem, list: blockList(parseCidrList(cidrs)) }));

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

export type OutboundCheck = { ok: true; target: OutboundTarget; addresses: string[] } | { ok: false; problem: OutboundProblem };

export class OutboundAddressRule {
  private allowed: BlockList;

  constructor(
    allowedNets: Cidr[] = [],
    private resolve: Resolver = systemResolver,
  ) {
    this.allowed = blockList(allowedNets);
  }

  /** Why this IP address is refused, or null. */
  classify(ip: string): OutboundProblem | null {
    const type = isIP(ip) === 6 ? "ipv6" : "ipv4";
    if (CLASSES[0]!.list.check(ip, type)) return "address_metadata";
    if (this.allowed.check(ip, type)) return null;
    return CLASSES.find((c) => c.list.check(ip, type))?.problem ?? null;
  }

  /** The URL's target and the addresses it resolves to now, every one of them allowed; or why not. */
  async check(raw: string, schemes: readonly string[] = OUTBOUND_SCHEMES): Promise<OutboundCheck> {
    const t = outboundTarget(raw, schemes);
    if (!t.ok) return t;
    let addresses: string[];
    if (t.target.literal) addresses = [t.target.host];
    else {
      try {
        addresses = await this.resolve(t.target.host);
      } catch {
        addresses = [];
      }
    }
    if (!addresses.length || addresses.some((a) => !isIP(a))) return { ok: false, problem: "host_unresolved" };
    for (const a of addresses) {
      const problem = this.classify(a);
      if (problem) return { ok: false, problem };
    }
    return { ok: true, target: t.target, addresses };
  }
}

/** The URL with its host replaced by the checked address, so the connection goes where the check looked. */
export function pinnedUrl(check: { target: OutboundTarget; addresses: string[] }, raw: string): string {
  const u = new URL(raw.trim());
  const ip = check.addresses[0]!;
  u.hostname = isIP(ip) === 6 ? `[${ip}]` : ip;
  return u.toString();
}
