/** Accounts every install has: the initial admin and the read-only guest (SPEC §1). */
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { ADMIN_SERVICE_MASK, serviceMask } from "../../domain/service-bits";
import { hashPassword } from "../auth/password";
import { INVERTER_FAULT_CODES } from "../sim/faults";
import type { Store } from "./db";

export const ROOT_NODE_NAME = "전체";

export async function seedFoundation(store: Store, opts: { adminPassword: string }): Promise<{ created: string[] }> {
  const db = store.db;
  const now = Date.now();
  const created: string[] = [];
  let root = await db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirst();
  if (!root) {
    root = await db
      .insertInto("node")
      .values({ parent_seq: null, name: ROOT_NODE_NAME, sort_order: 0, created_at: now })
      .returning("seq")
      .executeTakeFirstOrThrow();
  }
  const base = {
    node_seq: root.seq,
    use_yn: 1,
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
  };
  if (!(await db.selectFrom("member").select("id").where("id", "=", "admin").executeTakeFirst())) {
    await db
      .insertInto("member")
      .values({
        ...base,
        id: "admin",
        name: "관리자",
        password_hash: await hashPassword(opts.adminPassword),
        auth: 10,
        service: ADMIN_SERVICE_MASK,
        pwd_yn: 0,
        read_only: 0,
      })
      .execute();
    created.push("admin");
  }
  if (!(await db.selectFrom("member").select("id").where("id", "=", GUEST_ID).executeTakeFirst())) {
    await db
      .insertInto("member")
      .values({
        ...base,
        id: GUEST_ID,
        name: "게스트",
        password_hash: await hashPassword(GUEST_PASSWORD),
        auth: 1,
        service: serviceMask(["help", "diagnoseAll", "diagnoseCompare", "breakStatus", "deviceOperation"]),
        pwd_yn: 0,
        read_only: 1,
      })
      .execute();
    created.push(GUEST_ID);
  }
  // The default fault-code table (editable on /setting/config/faultCodes).
  if (!(await db.selectFrom("fault_code").select("code").limit(1).executeTakeFirst())) {
    await db
      .insertInto("fault_code")
      .values(
        INVERTER_FAULT_CODES.map((f) => ({ code: f.code, hex: f.hex, name_ko: f.nameKo, name_en: f.nameEn, level: f.level })),
      )
      .execute();
  }
  return { created };
}
