// The detail window of SPEC §1/§2: a plant's (or member's) detail opens on the sibling host whose first
// label is replaced by 'detail', at /setNewToken/{newPlantWindow|newMemberWindow}/ with name, uid, theme.

export type DetailWindowKind = "newPlantWindow" | "newMemberWindow";
export type DetailTheme = "dark" | "default";

export interface DetailWindowParams {
  name: string;
  uid: string;
  /** 'dark' when the dark-theme cookie is set, otherwise 'default'. */
  theme: DetailTheme | string;
}

/**
 * The sibling host: the first label becomes 'detail' (portal.example.kr → detail.example.kr).
 * A single-label host (localhost, an intranet name) gets 'detail.' in front, so localhost:3000 →
 * detail.localhost:3000, which browsers resolve to loopback. IP addresses have no labels to replace:
 * they are kept (the detail routes then run on the same host).
 */
export function detailHost(currentHost: string): string {
  const host = currentHost.trim().toLowerCase();
  const m = /^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(host);
  if (!m) return host;
  const name = m[1]!;
  const port = m[2] ?? "";
  if (name.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return host;
  const labels = name.split(".");
  if (labels[0] === "detail") return host;
  if (labels.length === 1) return `detail.${name}${port}`;
  return `detail.${labels.slice(1).join(".")}${port}`;
}

/**
 * `currentHost` is a host ("portal.example.kr", "localhost:3000") or a whole origin
 * ("https://portal.example.kr"); without a scheme, `protocol` decides (https by default, http for
 * localhost and IP addresses).
 */
export function detailWindowUrl(
  kind: DetailWindowKind,
  params: DetailWindowParams,
  currentHost: string,
  protocol?: "http:" | "https:",
): string {
  let host = currentHost;
  let scheme = protocol;
  const origin = /^(https?:)\/\/([^/]+)/i.exec(currentHost);
  if (origin) {
    scheme ??= origin[1]!.toLowerCase() as "http:" | "https:";
    host = origin[2]!;
  }
  const target = detailHost(host);
  scheme ??= /^(localhost|[^.]+\.localhost|\d{1,3}(\.\d{1,3}){3})(:\d+)?$/.test(target) ? "http:" : "https:";
  const query = new URLSearchParams({ name: params.name, uid: params.uid, theme: params.theme === "dark" ? "dark" : "default" });
  return `${scheme}//${target}/setNewToken/${kind}/?${query.toString()}`;
}
