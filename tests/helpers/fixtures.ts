/**
 * Test state created directly in the store (the Epic-Stack way): open the same database the
 * server under test uses and insert what a test needs, instead of clicking through admin screens.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { hashPassword } from "../../api/auth/password";
import { openStore, type Store } from "../../api/store/db";
import type { NewMember } from "../../api/store/schema";

export type { Store };

export function openTestStore(databaseUrl: string): Promise<Store> {
  return openStore(databaseUrl);
}

/** A unique member id that satisfies MEMBER_ID_PATTERN. */
export function uniqueId(prefix = "t"): string {
  return `${prefix}${randomBytes(4).toString("hex")}`.toLowerCase().slice(0, 30);
}

export interface MemberFixture {
  id: string;
  password: string;
}

/** Inserts a member under the root node; defaults: level 1, every service bit, pwd_yn 0, in use. */
export async function createMember(
  store: Store,
  overrides: Partial<Omit<NewMember, "password_hash">> & { password?: string } = {},
): Promise<MemberFixture> {
  const { password = `Pw-${randomBytes(6).toString("hex")}`, ...fields } = overrides;
  const id = fields.id ?? uniqueId("m");
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const now = Date.now();
  await store.db
    .insertInto("member")
    .values({
      name: `테스트 ${id}`,
      auth: 1,
      service: 0xffff,
      node_seq: root.seq,
      use_yn: 1,
      pwd_yn: 0,
      read_only: 0,
      logo: null,
      phone: null,
      email: null,
      helmet_name: null,
      diagram: 1,
      cctv: 1,
      page: 1,
      created_at: now,
      updated_at: now,
      password_changed_at: null,
      ...fields,
      id,
      password_hash: await hashPassword(password),
    })
    .execute();
  return { id, password };
}

export async function memberRow(store: Store, id: string) {
  return store.db.selectFrom("member").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function tokenFamily(store: Store, sessionId: string) {
  return store.db.selectFrom("token_family").selectAll().where("id", "=", sessionId).executeTakeFirst();
}

/** The signing secrets the server generated in its data directory (config.ts). */
export function readSecrets(dataDir: string): { jwt: string; session: string } {
  return JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8"));
}
