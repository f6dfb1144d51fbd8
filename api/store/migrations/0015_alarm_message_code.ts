import type { Kysely } from "kysely";
import { parseLegacyAlarmMessage } from "../../../domain/alarm-message";
import type { Dialect } from "../db";

/**
 * Alarm messages as a code with parameters (domain/alarm-message.ts) instead of the engine's English sentence,
 * so every reader sees them in their own language and a reworded sentence changes no history:
 * - `alarm.message_code`, `alarm.message_params` (JSON); existing rows are converted by
 *   `convertLegacyAlarmMessages` (a sentence of a known template becomes its code and parameters, any other
 *   text a `text` message kept verbatim);
 * - `alert_pref.lang`: the language of a member's alert mails and webhooks (Korean unless they chose English).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable("alarm").addColumn("message_code", "text").execute();
  await db.schema.alterTable("alarm").addColumn("message_params", "text").execute();
  await db.schema
    .alterTable("alert_pref")
    .addColumn("lang", "text", (c) => c.notNull().defaultTo("ko"))
    .execute();
  await convertLegacyAlarmMessages(db);
}

/**
 * Gives every alarm without a message code the code and parameters of its stored sentence. Rows are converted
 * by distinct (code, fault code, sentence), so a history of many alarms with few distinct sentences costs few
 * statements. Returns how many distinct sentences were converted.
 */
export async function convertLegacyAlarmMessages(db: Kysely<any>): Promise<number> {
  const faultTable = (await db.selectFrom("fault_code").select(["code", "name_ko"]).execute()).map((f) => ({
    code: Number(f.code),
    name: String(f.name_ko),
  }));
  const distinct: Array<{ fault_code: number | null; message: string }> = await db
    .selectFrom("alarm")
    .select(["fault_code", "message"])
    .where("message_code", "is", null)
    .distinct()
    .execute();
  for (const row of distinct) {
    const faultCode = row.fault_code === null ? null : Number(row.fault_code);
    const m = parseLegacyAlarmMessage(row.message, { faultCode }, faultTable);
    await db
      .updateTable("alarm")
      .set({ message_code: m.code, message_params: JSON.stringify(m.params) })
      .where("message_code", "is", null)
      .where("message", "=", row.message)
      .where("fault_code", faultCode === null ? "is" : "=", faultCode)
      .execute();
  }
  return distinct.length;
}
