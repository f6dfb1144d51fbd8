import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * The seeded admin's service bits (issue 26): it was seeded with all 16 bits, and bits 7 and 8 *hide* CO₂ and
 * REC·SMP (SPEC §6), so the admin saw less than the guest. The seed now gives every bit but those two
 * (domain/service-bits.ts ADMIN_SERVICE_MASK). An existing store's admin is changed only while it still holds the
 * seeded value (65535): a mask an administrator chose is left alone. The values are frozen here, as shipped.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  const seeded = 0xffff;
  const admin = seeded & ~((1 << 7) | (1 << 8));
  await db.updateTable("member").set({ service: admin }).where("id", "=", "admin").where("service", "=", seeded).execute();
}
