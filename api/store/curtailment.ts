/**
 * A plant's curtailment and output-limit orders (migration 0025, issue 28 §3). Access is checked by the caller
 * (api/routes/curtailment.ts through api/store/visibility.ts requirePlant); here only the rows.
 */
import type { Kysely } from "kysely";
import { limitKw, type CurtailmentOrder, type LimitUnit, type CurtailmentSource } from "../../domain/contract/curtailment";
import { formatSeoul } from "../../domain/seoul-time";
import type { Database } from "./schema";

type Db = Kysely<Database>;

/** An order as stored: its interval in epoch ms. */
export interface OrderRow {
  from: number;
  to: number;
  limitValue: number;
  limitUnit: LimitUnit;
  source: CurtailmentSource;
  note: string;
}

type Selected = {
  id: number;
  plant_uid: string;
  from_ts: number | string;
  to_ts: number | string;
  limit_value: number | string;
  limit_unit: string;
  source: string;
  note: string;
};

const wall = (t: number) => formatSeoul(t, "YYYY-MM-DD HH:mm");

function toOrder(r: Selected, capacityKw: number): CurtailmentOrder {
  const from = Number(r.from_ts);
  const to = Number(r.to_ts);
  const unit = r.limit_unit as LimitUnit;
  const value = Number(r.limit_value);
  return {
    id: Number(r.id),
    plantUid: r.plant_uid,
    start: wall(from),
    end: wall(to),
    from,
    to,
    limitValue: value,
    limitUnit: unit,
    limitKw: limitKw(value, unit, capacityKw),
    source: r.source as CurtailmentSource,
    note: r.note,
  };
}

const COLUMNS = ["id", "plant_uid", "from_ts", "to_ts", "limit_value", "limit_unit", "source", "note"] as const;

/** The plants' orders overlapping [from, to) (every order without a window), by start. */
export async function ordersOf(
  db: Db,
  plantUids: readonly string[],
  capacityOf: (plantUid: string) => number,
  from?: number,
  to?: number,
): Promise<CurtailmentOrder[]> {
  if (!plantUids.length) return [];
  let q = db
    .selectFrom("curtailment_order")
    .select(COLUMNS)
    .where("plant_uid", "in", [...plantUids]);
  if (to !== undefined) q = q.where("from_ts", "<", to);
  if (from !== undefined) q = q.where("to_ts", ">", from);
  const rows = await q.orderBy("from_ts").orderBy("id").execute();
  return rows.map((r) => toOrder(r, capacityOf(r.plant_uid)));
}

export async function orderById(db: Db, id: number) {
  return db.selectFrom("curtailment_order").select(COLUMNS).where("id", "=", id).executeTakeFirst();
}

export function orderOf(row: Selected, capacityKw: number): CurtailmentOrder {
  return toOrder(row, capacityKw);
}

const values = (o: OrderRow) => ({
  from_ts: o.from,
  to_ts: o.to,
  limit_value: o.limitValue,
  limit_unit: o.limitUnit,
  source: o.source,
  note: o.note,
});

/** Inserts orders of one plant in one transaction (all or none); their ids. */
export async function insertOrders(db: Db, plantUid: string, orders: readonly OrderRow[], by: string, now: number) {
  if (!orders.length) return [];
  return db.transaction().execute(async (trx) => {
    const ids: number[] = [];
    for (const o of orders) {
      const r = await trx
        .insertInto("curtailment_order")
        .values({ plant_uid: plantUid, ...values(o), created_at: now, created_by: by, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push(Number(r.id));
    }
    return ids;
  });
}

export async function updateOrder(db: Db, id: number, o: OrderRow, now: number) {
  await db
    .updateTable("curtailment_order")
    .set({ ...values(o), updated_at: now })
    .where("id", "=", id)
    .execute();
}

export async function deleteOrder(db: Db, id: number) {
  await db.deleteFrom("curtailment_order").where("id", "=", id).execute();
}
