/**
 * RTU gateway credentials. A gateway authenticates its pushes with
 * `Authorization: Basic base64(rtuUid:secret)`; the secret is a random 32-byte value shown to the admin once
 * (on creation or rotation) and only its sha256 hex digest is stored in `rtu.credential_hash`.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Store } from "../store/db";

/** A fresh secret: 32 random bytes, base64url (43 characters, no padding, safe in Basic auth). */
export function newGatewaySecret(): string {
  return randomBytes(32).toString("base64url");
}

/** sha256 hex digest of the secret — what the store keeps. */
export function hashGatewaySecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time check of a presented secret against a stored hash; false for a missing hash. */
export function verifyGatewaySecret(secret: string, hash: string | null | undefined): boolean {
  if (!hash || !/^[0-9a-f]{64}$/i.test(hash)) return false;
  const presented = Buffer.from(hashGatewaySecret(secret), "hex");
  const stored = Buffer.from(hash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Parses `Basic base64(rtuUid:secret)`; null when the header is absent or malformed. */
export function parseGatewayAuthorization(header: string | undefined): { rtuUid: string; secret: string } | null {
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const i = decoded.indexOf(":");
  if (i <= 0) return null;
  return { rtuUid: decoded.slice(0, i), secret: decoded.slice(i + 1) };
}

/** Checks a gateway's credential against the store (HTTP ingest and MQTT): false when unknown, disabled or wrong. */
export async function authenticateGateway(store: Store, rtuUid: string, secret: string): Promise<boolean> {
  const rtu = await store.db.selectFrom("rtu").select(["credential_hash", "use_yn"]).where("uid", "=", rtuUid).executeTakeFirst();
  return !!rtu && rtu.use_yn === 1 && verifyGatewaySecret(secret, rtu.credential_hash);
}
