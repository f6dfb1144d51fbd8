/**
 * Member logos: PNG, JPEG or WebP only, at most 512 KB. The type is decided by the file's own
 * first bytes (never by its name or the browser's claim), so an SVG or HTML file renamed to .png
 * is refused — an SVG served from our origin could carry script.
 */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_FIELD = "logo";
export const LOGO_MIME = { png: "image/png", jpg: "image/jpeg", webp: "image/webp" } as const;
export type LogoKind = keyof typeof LOGO_MIME;
/** For <input accept>: what the file picker offers. */
export const LOGO_ACCEPT = "image/png,image/jpeg,image/webp";

export type LogoProblem = "required" | "too_large" | "bad_type";

/** The image kind from magic bytes, or null when it is none of the accepted ones. */
export function sniffLogo(bytes: Uint8Array): LogoKind | null {
  const b = bytes;
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  ) {
    return "png";
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpg";
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/** What is wrong with an uploaded file (server: with its bytes; browser: from size and declared type). */
export function logoProblem(file: { size: number; type?: string; bytes?: Uint8Array } | null | undefined): LogoProblem | null {
  if (!file || file.size === 0) return "required";
  if (file.size > LOGO_MAX_BYTES) return "too_large";
  if (file.bytes) return sniffLogo(file.bytes) ? null : "bad_type";
  if (file.type !== undefined && !(Object.values(LOGO_MIME) as string[]).includes(file.type)) return "bad_type";
  return null;
}
