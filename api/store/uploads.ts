/**
 * Uploaded files (member logos) live under DATA_DIR/uploads and are served at /uploads/<file>
 * (server.ts). Names are random, never taken from the client, so no path can be smuggled in.
 */
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** DATA_DIR/uploads, resolved like config.ts resolves DATA_DIR. */
export function uploadsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.resolve(env.DATA_DIR || "./data"), "uploads");
}

const SAFE_NAME = /^[a-f0-9]{24}\.(png|jpg|webp)$/;

export async function saveUpload(bytes: Uint8Array, ext: "png" | "jpg" | "webp", dir = uploadsDir()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(12).toString("hex")}.${ext}`;
  await writeFile(path.join(dir, name), bytes, { flag: "wx", mode: 0o644 });
  return name;
}

/** Removes a stored upload; names that we did not generate are left alone. */
export async function removeUpload(name: string | null | undefined, dir = uploadsDir()): Promise<void> {
  if (!name || !SAFE_NAME.test(name)) return;
  await rm(path.join(dir, name), { force: true });
}
