/**
 * The Content-Security-Policy of every page. Scripts: our own files and, for the inline ones Remix
 * writes (the context, route modules, streamed deferred data), a fresh nonce per response. Styles may
 * sit in attributes (charts and the map position elements that way). Images: our own, data URLs, and
 * the OpenStreetMap tiles of the plant map. Nothing may frame the portal but itself.
 */
import { randomBytes } from "node:crypto";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://tile.openstreetmap.org",
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}
