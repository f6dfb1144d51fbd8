/**
 * Queries of the diagram calls: a plant's devices with their newest readings and open alarms (the inputs of
 * domain/diagram.ts), and the uploaded drawings (plant_diagram, migration 0008).
 */
import type { Kysely, Transaction } from "kysely";
import type { DiagramBinding } from "../../domain/contract/diagram";
import type { TopologyAlarm, TopologyDevice } from "../../domain/diagram";
import type { Database } from "./schema";
import { alarmMessageFields } from "./alarms";
import { faultNamer } from "./fault-codes";

type Db = Kysely<Database> | Transaction<Database>;

/** Device kinds the single line and its sensors show (SPEC §3 Device). */
const DIAGRAM_KINDS = [1, 2, 4, 7, 8];

function parseValues(json: string | null): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export async function plantTopology(db: Db, plantUid: string): Promise<{ devices: TopologyDevice[]; alarms: TopologyAlarm[] }> {
  const rows = await db
    .selectFrom("device")
    .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
    .select([
      "device.uid",
      "device.kind",
      "device.name",
      "device.rtu_uid",
      "device.address",
      "device_latest.ts",
      "device_latest.values_json",
    ])
    .where("device.plant_uid", "=", plantUid)
    .where("device.use_yn", "=", 1)
    .where("device.kind", "in", DIAGRAM_KINDS)
    .execute();
  const faultNames = (await faultNamer(db)).ko;
  const alarms = await db
    .selectFrom("alarm")
    .select(["device_uid", "rtu_uid", "code", "level", "message", "message_code", "message_params", "raised_at"])
    .where("plant_uid", "=", plantUid)
    .where("released_at", "is", null)
    .execute();
  return {
    devices: rows.map((r) => ({
      uid: r.uid,
      kind: Number(r.kind),
      name: r.name,
      rtu_uid: r.rtu_uid,
      address: r.address === null ? null : Number(r.address),
      ts: r.ts === null || r.ts === undefined ? null : Number(r.ts),
      values: parseValues(r.values_json ?? null),
    })),
    alarms: alarms.map((a) => ({
      device_uid: a.device_uid,
      rtu_uid: a.rtu_uid,
      code: Number(a.code),
      level: Number(a.level),
      message: alarmMessageFields(a, faultNames).message,
      raised_at: Number(a.raised_at),
    })),
  };
}

export interface StoredDiagram {
  svg: string;
  bindings: DiagramBinding[];
  uploaded_by: string | null;
  uploaded_at: number;
}

export async function storedDiagram(db: Db, plantUid: string): Promise<StoredDiagram | null> {
  const row = await db.selectFrom("plant_diagram").selectAll().where("plant_uid", "=", plantUid).executeTakeFirst();
  if (!row) return null;
  let bindings: DiagramBinding[] = [];
  try {
    bindings = JSON.parse(row.bindings) as DiagramBinding[];
  } catch {
    bindings = [];
  }
  return { svg: row.svg, bindings, uploaded_by: row.uploaded_by, uploaded_at: Number(row.uploaded_at) };
}

/** Uids of the plants (of those given) that have an uploaded drawing. */
export async function plantsWithDrawing(db: Db, plantUids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < plantUids.length; i += 500) {
    const part = plantUids.slice(i, i + 500);
    if (!part.length) continue;
    const rows = await db.selectFrom("plant_diagram").select("plant_uid").where("plant_uid", "in", part).execute();
    for (const r of rows) out.add(r.plant_uid);
  }
  return out;
}

/** Stores (or replaces) the plant's drawing, in a transaction. */
export async function saveDiagram(db: Kysely<Database>, plantUid: string, d: StoredDiagram): Promise<void> {
  const values = { svg: d.svg, bindings: JSON.stringify(d.bindings), uploaded_by: d.uploaded_by, uploaded_at: d.uploaded_at };
  await db.transaction().execute((trx) =>
    trx
      .insertInto("plant_diagram")
      .values({ plant_uid: plantUid, ...values })
      .onConflict((oc) => oc.column("plant_uid").doUpdateSet(values))
      .execute(),
  );
}

/** Removes the plant's drawing, in a transaction; answers whether there was one. */
export async function deleteDiagram(db: Kysely<Database>, plantUid: string): Promise<boolean> {
  const res = await db
    .transaction()
    .execute((trx) => trx.deleteFrom("plant_diagram").where("plant_uid", "=", plantUid).executeTakeFirst());
  return Number(res.numDeletedRows) > 0;
}
