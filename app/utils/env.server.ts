/** Server-only settings of the portal, handed over by server.ts through the environment. */
export function apiUrl(): string {
  return process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
}

export function sessionSecret(): string {
  const secret = process.env.SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET is not set (server.ts sets it from the config)");
  return secret;
}
