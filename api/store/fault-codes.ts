/** The fault-code table (SPEC §7 /code) as the settings screen reads and edits it. */
import type { Kysely } from "kysely";
import { faultBitNames } from "../../domain/alarm-message";
import type { WordLocale } from "../../domain/status-words";
import type { Database, FaultCodeTable } from "./schema";

/** Every fault code, by code. */
export async function faultCodes(db: Kysely<Database>) {
  return db.selectFrom("fault_code").selectAll().orderBy("code").execute();
}

export async function faultCodeExists(db: Kysely<Database>, code: number): Promise<boolean> {
  return !!(await db.selectFrom("fault_code").select("code").where("code", "=", code).executeTakeFirst());
}

export async function createFaultCode(db: Kysely<Database>, row: FaultCodeTable) {
  await db.insertInto("fault_code").values(row).execute();
}

/** Changes a fault code's texts and level; false when there is no such code. */
export async function changeFaultCode(db: Kysely<Database>, row: FaultCodeTable): Promise<boolean> {
  const res = await db
    .updateTable("fault_code")
    .set({ hex: row.hex, name_ko: row.name_ko, name_en: row.name_en, level: row.level })
    .where("code", "=", row.code)
    .executeTakeFirst();
  return !!Number(res.numUpdatedRows);
}

export async function deleteFaultCode(db: Kysely<Database>, code: number) {
  await db.deleteFrom("fault_code").where("code", "=", code).execute();
}

/** The names of a fault register's bits in each language, from the fault-code table as it is now. */
export async function faultNamer(db: Kysely<Database>) {
  const table = await db.selectFrom("fault_code").select(["code", "name_ko", "name_en"]).execute();
  const of = (lang: WordLocale) => {
    const named = table.map((f) => ({ code: Number(f.code), name: lang === "en" ? f.name_en : f.name_ko }));
    return (faultCode: number) => faultBitNames(named, faultCode);
  };
  return { ko: of("ko"), en: of("en") };
}
