import { describe, expect, it } from "vitest";
import { OutboundAddressRule, parseCidrList, pinnedUrl } from "./outbound-address";

const fixed = (table: Record<string, string[]>) => async (host: string) => {
  const a = table[host];
  if (!a) throw new Error("ENOTFOUND");
  return a;
};

describe("the outbound-address rule (issue 25)", () => {
  const rule = new OutboundAddressRule([], fixed({ "cam.example.kr": ["203.0.113.7"], "evil.example": ["127.0.0.1"] }));
  const problem = async (url: string, r = rule) => {
    const c = await r.check(url);
    return c.ok ? null : c.problem;
  };

  it("refuses loopback, link-local, metadata, unspecified, multicast and CGNAT in every spelling", async () => {
    const cases: Array<[string, string]> = [
      ["http://169.254.169.254/latest/meta-data/", "address_metadata"],
      ["http://[fd00:ec2::254]/latest/meta-data/", "address_metadata"],
      ["http://100.100.100.200/latest/meta-data/", "address_metadata"],
      ["rtsp://127.0.0.1:5432/x", "address_loopback"],
      ["http://[::1]:5432/", "address_loopback"],
      ["http://0x7f000001:5432/", "address_loopback"],
      ["rtsp://0x7f000001:5432/", "address_loopback"],
      ["http://2130706433:5432/", "address_loopback"],
      ["rtsp://2130706433:5432/", "address_loopback"],
      ["rtsp://127.1:5432/", "address_loopback"],
      ["rtsp://0177.0.0.1:5432/", "address_loopback"],
      ["rtsp://%31%32%37.0.0.1:5432/", "address_loopback"],
      ["http://[::ffff:127.0.0.1]:5432/", "address_loopback"],
      ["rtsp://[::ffff:7f00:1]:5432/", "address_loopback"],
      ["http://0.0.0.0:5432/", "address_unspecified"],
      ["rtsp://[::]/", "address_unspecified"],
      ["http://169.254.1.2/", "address_link_local"],
      ["http://[fe80::1]/", "address_link_local"],
      ["rtsp://224.0.0.1/", "address_multicast"],
      ["http://100.64.0.1/", "address_cgnat"],
      ["http://255.255.255.255/", "address_reserved"],
      ["rtsp://10.0.0.5/", "address_private"],
      ["rtsp://172.16.3.4/", "address_private"],
      ["rtsp://192.168.0.64:554/Streaming/Channels/101", "address_private"],
      ["http://[fd12::5]/", "address_private"],
      ["http://evil.example/", "address_loopback"],
      ["http://nowhere.example/", "host_unresolved"],
      ["ftp://203.0.113.7/", "unsupported_scheme"],
      ["file:///etc/passwd", "unsupported_scheme"],
      ["gopher://203.0.113.7/", "unsupported_scheme"],
      ["not a url", "invalid_url"],
    ];
    for (const [url, why] of cases) expect(await problem(url), url).toBe(why);
    expect(await problem("rtsp://203.0.113.7:554/live")).toBeNull();
    expect(await problem("https://cam.example.kr/live.ts")).toBeNull();
  });

  it("allows private ranges the operator lists; metadata never; loopback only when listed", async () => {
    const site = new OutboundAddressRule(parseCidrList("192.168.0.0/16, 10.20.0.0/16, fd00::/8"), fixed({}));
    expect(await problem("rtsp://192.168.0.64/", site)).toBeNull();
    expect(await problem("rtsp://10.20.1.1/", site)).toBeNull();
    expect(await problem("rtsp://10.21.1.1/", site)).toBe("address_private");
    expect(await problem("http://[fd00:ec2::254]/", site)).toBe("address_metadata");
    expect(await problem("rtsp://127.0.0.1/", site)).toBe("address_loopback");
    const tests = new OutboundAddressRule(parseCidrList("127.0.0.0/8, 169.254.0.0/16"), fixed({}));
    expect(await problem("rtsp://127.0.0.1/", tests)).toBeNull();
    expect(await problem("http://169.254.169.254/", tests)).toBe("address_metadata");
  });

  it("checks every address a name resolves to, and again at each connection (DNS rebinding)", async () => {
    let answer = ["203.0.113.7"];
    const rebinding = new OutboundAddressRule([], async () => answer);
    const first = await rebinding.check("http://rebind.example:8080/cam.ts");
    expect(first.ok).toBe(true);
    if (first.ok) expect(pinnedUrl(first, "http://u:p@rebind.example:8080/cam.ts")).toBe("http://u:p@203.0.113.7:8080/cam.ts");
    answer = ["203.0.113.7", "127.0.0.1"];
    expect(await problem("http://rebind.example:8080/cam.ts", rebinding)).toBe("address_loopback");
    answer = ["::1"];
    expect(await problem("rtsp://rebind.example/", rebinding)).toBe("address_loopback");
  });

  it("pins an rtsp URL to the IPv6 address checked", async () => {
    const six = new OutboundAddressRule([], async () => ["2001:db8::7"]);
    const c = await six.check("rtsp://cam6.example:554/live");
    expect(c.ok && pinnedUrl(c, "rtsp://cam6.example:554/live")).toBe("rtsp://[2001:db8::7]:554/live");
  });

  it("reads CCTV_ALLOWED_NETS strictly", () => {
    expect(parseCidrList("")).toEqual([]);
    expect(parseCidrList("10.0.0.0/8,fd00::/8, 192.168.1.5")).toEqual([
      { address: "10.0.0.0", prefix: 8, type: "ipv4" },
      { address: "fd00::", prefix: 8, type: "ipv6" },
      { address: "192.168.1.5", prefix: 32, type: "ipv4" },
    ]);
    expect(() => parseCidrList("10.0.0.0/33")).toThrow(/prefix/);
    expect(() => parseCidrList("example.com/8")).toThrow(/not an address/);
    expect(() => parseCidrList("10.0.0.0/8/1")).toThrow();
  });
});
