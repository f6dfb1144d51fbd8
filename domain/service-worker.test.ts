import { describe, expect, it } from "vitest";
import { checkOutcome, checksFirst, isLocalhost } from "./service-worker";

describe("service worker registration (SPEC §7)", () => {
  it("knows localhost", () => {
    for (const h of ["localhost", "127.0.0.1", "127.1.2.3", "[::1]"]) expect(isLocalhost(h)).toBe(true);
    for (const h of ["portal.example.kr", "detail.localhost", "10.0.0.1", "127.0.0.256"]) expect(isLocalhost(h)).toBe(false);
  });

  it("checks the script first outside localhost only", () => {
    expect(checksFirst("portal.example.kr")).toBe(true);
    expect(checksFirst("localhost")).toBe(false);
  });

  it("unregisters and reloads on 404 or a type that is not JavaScript, registers otherwise", () => {
    expect(checkOutcome(404, "text/html")).toBe("unregister_and_reload");
    expect(checkOutcome(404, "application/javascript")).toBe("unregister_and_reload");
    expect(checkOutcome(200, "text/html; charset=utf-8")).toBe("unregister_and_reload");
    expect(checkOutcome(200, null)).toBe("unregister_and_reload");
    expect(checkOutcome(200, "application/javascript; charset=UTF-8")).toBe("register");
    expect(checkOutcome(200, "text/javascript")).toBe("register");
  });
});
