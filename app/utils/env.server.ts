/** Server-only settings of the portal, handed over by server.ts through the environment. */
export function apiUrl(): string {
  return process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

export function sessionSecret(): string {
  const secret = process.env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set (server.ts sets it from the config)");
  return secret;
}

/**
 * The origins this portal is reached at (PUBLIC_URL, comma-separated; by default the loopback names
 * on PORT). Links to the sibling detail host are built from these, never from the request's Host or
 * X-Forwarded-Host alone (a forged header would carry a one-time code to a foreign host).
 */
export function publicOrigins(env: Record<string, string | undefined> = process.env): string[] {
  const port = env.PORT ?? "3000";
  const listed = (env.PUBLIC_URL ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter(Boolean);
  const urls = listed.length ? listed : [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
  return urls.map((u) => new URL(u).origin);
}
