/**
 * Carries a freshly issued gateway secret across the redirect after creation or rotation, so it can be
 * shown exactly once: a signed, httpOnly cookie scoped to the RTU screens, read and cleared by the next page.
 */
import { createCookie } from "@remix-run/node";
import { sessionSecret } from "./env.server";

let cookie: ReturnType<typeof createCookie> | undefined;
function secretCookie() {
  cookie ??= createCookie("rtu_secret", {
    path: "/setting/rtu",
    httpOnly: true,
    sameSite: "strict",
    maxAge: 120,
    secrets: [sessionSecret()],
  });
  return cookie;
}

export function stashSecret(rtuUid: string, secret: string): Promise<string> {
  return secretCookie().serialize({ rtuUid, secret });
}

/** The secret for this RTU (once) and the Set-Cookie that clears it. */
export async function takeSecret(request: Request, rtuUid: string): Promise<{ secret: string | null; clear: string | null }> {
  const value = (await secretCookie().parse(request.headers.get("cookie"))) as { rtuUid?: string; secret?: string } | null;
  if (!value || typeof value !== "object") return { secret: null, clear: null };
  const clear = await secretCookie().serialize("", { maxAge: 0 });
  return { secret: value.rtuUid === rtuUid && typeof value.secret === "string" ? value.secret : null, clear };
}
