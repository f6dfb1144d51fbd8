/**
 * The detail host (SPEC §1, §2 Detail window): the sibling host whose first label is 'detail'
 * (detail.example.kr beside portal.example.kr; detail.localhost beside localhost). It serves the
 * handover page and, at its root, the one plant or member its session is scoped to — nothing else.
 */
import { detailWindowUrl, type DetailWindowKind } from "../../domain/detail-window";
import { publicOrigins } from "./env.server";

export function hostOf(request: Request): string {
  return new URL(request.url).host.toLowerCase();
}

export function isDetailHost(request: Request): boolean {
  return hostOf(request).split(".")[0] === "detail" && hostOf(request).includes(".");
}

/** Paths the detail host serves; every other one answers 403 there (root loader). */
export function detailHostAllows(pathname: string): boolean {
  return pathname === "/" || pathname.startsWith("/setNewToken/");
}

/** Throws 403 for anything but the detail window's own pages when the request is for the detail host. */
export function guardDetailHost(request: Request): void {
  if (isDetailHost(request) && !detailHostAllows(new URL(request.url).pathname)) {
    throw new Response("detail window: this page is not available here", { status: 403 });
  }
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/;

/**
 * The detail window's URL for a request to the main host, or null when no sibling host exists
 * (a non-loopback IP address: there is no first label to replace, and the same host would mix the
 * detail session's cookies into the main one). A loopback address goes to detail.localhost.
 * The main host is the request's only when it is one of `origins` (PUBLIC_URL); otherwise the first
 * of them: a forged Host or X-Forwarded-Host never chooses where a one-time code goes.
 */
export function detailUrlFor(
  request: Request,
  kind: DetailWindowKind,
  params: { name: string; uid: string; theme: string },
  origins: string[] = publicOrigins(),
): string | null {
  const asked = new URL(request.url).origin;
  const url = new URL(origins.includes(asked) ? asked : origins[0]!);
  let host = url.host.toLowerCase();
  if (LOOPBACK.test(host)) host = `localhost${url.port ? `:${url.port}` : ""}`;
  const target = detailWindowUrl(kind, params, `${url.protocol}//${host}`);
  return new URL(target).host === url.host.toLowerCase() ? null : target;
}
