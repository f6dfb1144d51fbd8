/** Open alarms of plants for the plant cards' fault tooltip (SPEC §3 Plant card data `faults`). */
import type { Kysely } from "kysely";
import type { CardFault } from "../../domain/contract/pvstatus";
import { alarmMessageFields } from "./alarms";
import { faultNamer } from "./fault-codes";
import type { Database } from "./schema";

const MAX_FAULTS = 5;

/** Open alarms of these plants for the fault tooltip, newest first, at most MAX_FAULTS each. */
export async function openFaults(db: Kysely<Database>, plantUids: string[]): Promise<Map<string, CardFault[]>> {
  const out = new Map<string, CardFault[]>();
  const open: Array<{
    plant_uid: string;
    code: number;
    message: string;
    message_code: string | null;
    message_params: string | null;
  }> = [];
  for (let i = 0; i < plantUids.length; i += 500) {
    const rows = await db
      .selectFrom("alarm")
      .select(["plant_uid", "code", "message", "message_code", "message_params", "raised_at"])
      .where("plant_uid", "in", plantUids.slice(i, i + 500))
      .where("released_at", "is", null)
      .orderBy("raised_at", "desc")
      .orderBy("seq", "desc")
      .execute();
    open.push(...rows);
  }
  // An inverter fault reads as its bits' names (the fault-code table), as the alarm screen shows it; the table is
  // read only when a tooltip has a fault to name.
  const faulted = open.some((r) => r.message_code === "inverter_fault" || r.message_code === "plant_wide");
  const names = faulted ? (await faultNamer(db)).ko : undefined;
  for (const r of open) {
    const list = out.get(r.plant_uid) ?? [];
    if (list.length < MAX_FAULTS) list.push({ code: Number(r.code), message: alarmMessageFields(r, names).message });
    out.set(r.plant_uid, list);
  }
  return out;
}
