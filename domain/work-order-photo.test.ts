import { describe, expect, it } from "vitest";
import { PHOTO_MAX_BYTES, photoKind, photoProblem } from "./work-order-photo";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe("work order photos", () => {
  it("takes PNG, JPEG and WebP by their bytes, nothing else", () => {
    expect(photoKind(png)).toBe("png");
    expect(photoKind(jpg)).toBe("jpg");
    expect(photoKind(svg)).toBeNull();
    expect(photoProblem({ size: png.length, bytes: png })).toBeNull();
    expect(photoProblem({ size: svg.length, type: "image/png", bytes: svg })).toBe("bad_type");
  });

  it("refuses an empty or too large file, and a declared type that is not an image we take", () => {
    expect(photoProblem(null)).toBe("required");
    expect(photoProblem({ size: 0 })).toBe("required");
    expect(photoProblem({ size: PHOTO_MAX_BYTES + 1, type: "image/jpeg" })).toBe("too_large");
    expect(photoProblem({ size: PHOTO_MAX_BYTES, type: "image/jpeg" })).toBeNull();
    expect(photoProblem({ size: 10, type: "image/svg+xml" })).toBe("bad_type");
  });
});
