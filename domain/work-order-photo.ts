/**
 * Photos attached to a work order (issue 29 §3): PNG, JPEG or WebP only, at most 2 MB each, at most 20 per work
 * order. The type is decided by the file's own first bytes (domain/logo.ts's rule), never by its name or the
 * browser's claim, so an SVG or HTML file renamed to .jpg is refused.
 */
import { LOGO_MIME, sniffLogo, type LogoKind } from "./logo";

export const PHOTO_FIELD = "photo";
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
export const PHOTO_MAX_PER_ORDER = 20;
export const PHOTO_ACCEPT = "image/png,image/jpeg,image/webp";
export const PHOTO_MIME = LOGO_MIME;
export type PhotoKind = LogoKind;
export type PhotoProblem = "required" | "too_large" | "bad_type";

/** What is wrong with an uploaded photo (server: with its bytes; browser: from size and declared type), or null. */
export function photoProblem(file: { size: number; type?: string; bytes?: Uint8Array } | null | undefined): PhotoProblem | null {
  if (!file || file.size === 0) return "required";
  if (file.size > PHOTO_MAX_BYTES) return "too_large";
  if (file.bytes) return sniffLogo(file.bytes) ? null : "bad_type";
  if (file.type !== undefined && file.type !== "" && !(Object.values(PHOTO_MIME) as string[]).includes(file.type))
    return "bad_type";
  return null;
}

/** The photo's kind from its bytes, or null. */
export const photoKind = (bytes: Uint8Array): PhotoKind | null => sniffLogo(bytes);
