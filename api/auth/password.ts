/** Password hashing with argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane). */
import { hash, verify } from "@node-rs/argon2";

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified against when the id does not exist, so that an
 * unknown id costs the same time as a wrong password and the answer does not leak existence.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  return decoy;
}
