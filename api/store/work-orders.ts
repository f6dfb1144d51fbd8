/**
 * Work orders (migration 0027, issue 29 §3): the list with its filters, one work order with its devices, alarms
 * and history, and the writes — each one transaction, so a refused input leaves nothing half-written and the
 * assignee's mail (api/notify/work-order-mail.ts) is enqueued with the write that assigned them. Visibility is the
 * caller's (api/routes/work-order.ts); the moves are domain/work-order.ts's.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { WorkOrderDetail, WorkOrderHistoryEntry, WorkOrderListQuery, WorkOrderRow } from "../../domain/contract/work-order";
import { canMove, isClosed, type WorkOrderPriority, type WorkOrderState } from "../../domain/work-order";
import { ApiError, notFound } from "../http";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

/** After an assignment was written (inside its transaction): e.g. enqueue the assignee's mail. */
export type OnAssigned = (
  trx: Transaction<Database>,
  a: { workOrderId: number; historySeq: number; assignee: string },
) => Promise<void>;

function escapeLike(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function baseQuery(db: Db) {
  return db
    .selectFrom("work_order as w")
    .innerJoin("plant as p", "p.uid", "w.plant_uid")
    .leftJoin("member as m", "m.id", "w.assignee_id");
}

const ROW_COLUMNS = [
  "w.id",
  "w.plant_uid",
  "p.name as plantName",
  "w.title",
  "w.description",
  "w.priority",
  "w.state",
  "w.assignee_id",
  "m.name as assigneeName",
  "w.due_date",
  "w.created_by",
  "w.created_at",
  "w.updated_at",
] as const;

type RawRow = {
  id: number;
  plant_uid: string;
  plantName: string;
  title: string;
  description: string;
  priority: string;
  state: string;
  assignee_id: string | null;
  assigneeName: string | null;
  due_date: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
};

function rowOf(r: RawRow): WorkOrderRow {
  return {
    id: Number(r.id),
    plant_uid: r.plant_uid,
    plantName: r.plantName,
    title: r.title,
    description: r.description,
    priority: r.priority as WorkOrderPriority,
    state: r.state as WorkOrderState,
    assignee: r.assignee_id,
    assigneeName: r.assigneeName ?? null,
    dueDate: r.due_date,
    created_by: r.created_by,
    created_at: Number(r.created_at),
    updated_at: Number(r.updated_at),
  };
}

/**
 * The work orders of `plants` (null: every plant) that pass the filters, most urgent first (open ones by due day,
 * then newest); `limit` null reads every match (the export).
 */
export async function listWorkOrders(
  db: Db,
  plants: string[] | null,
  q: Omit<WorkOrderListQuery, "page" | "size">,
  paging: { offset: number; limit: number } | null,
): Promise<{ rows: WorkOrderRow[]; total: number }> {
  if (plants && !plants.length) return { rows: [], total: 0 };
  let query = baseQuery(db);
  if (plants) query = query.where("w.plant_uid", "in", plants);
  if (q.state) query = query.where("w.state", "=", q.state);
  if (q.plant) query = query.where("w.plant_uid", "=", q.plant);
  if (q.assignee) query = query.where("w.assignee_id", "=", q.assignee);
  if (q.priority) query = query.where("w.priority", "=", q.priority);
  if (q.dueBefore) query = query.where("w.due_date", "is not", null).where("w.due_date", "<", q.dueBefore);
  if (q.q) {
    const like = escapeLike(q.q);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(w.title) like ${like} escape '\\'`,
        sql<boolean>`lower(w.description) like ${like} escape '\\'`,
        sql<boolean>`lower(p.name) like ${like} escape '\\'`,
      ]),
    );
  }
  const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  let rows = query
    .select([...ROW_COLUMNS])
    .orderBy(sql`case w.state when 'open' then 0 when 'in_progress' then 0 else 1 end`)
    .orderBy(sql`case when w.due_date is null then 1 else 0 end`)
    .orderBy("w.due_date")
    .orderBy("w.id", "desc");
  if (paging) rows = rows.offset(paging.offset).limit(paging.limit);
  return { rows: (await rows.execute()).map((r) => rowOf(r as RawRow)), total: Number(total?.n ?? 0) };
}

export async function workOrderRow(db: Db, id: number): Promise<WorkOrderRow | null> {
  const r = await baseQuery(db)
    .select([...ROW_COLUMNS])
    .where("w.id", "=", id)
    .executeTakeFirst();
  return r ? rowOf(r as RawRow) : null;
}

export async function workOrderDetail(db: Db, id: number): Promise<WorkOrderDetail | null> {
  const row = await workOrderRow(db, id);
  if (!row) return null;
  const [devices, alarms, history, photos] = await Promise.all([
    db
      .selectFrom("work_order_device as wd")
      .innerJoin("device as d", "d.uid", "wd.device_uid")
      .select(["d.uid", "d.name"])
      .where("wd.work_order_id", "=", id)
      .orderBy("d.uid")
      .execute(),
    db
      .selectFrom("work_order_alarm as wa")
      .innerJoin("alarm as a", "a.seq", "wa.alarm_seq")
      .select(["a.seq", "a.code", "a.level", "a.raised_at", "a.released_at"])
      .where("wa.work_order_id", "=", id)
      .orderBy("a.seq")
      .execute(),
    db
      .selectFrom("work_order_history as h")
      .leftJoin("member as m", "m.id", "h.author_id")
      .select([
        "h.seq",
        "h.kind",
        "h.author_id",
        "m.name as authorName",
        "h.note",
        "h.from_state",
        "h.to_state",
        "h.assignee_id",
        "h.at",
      ])
      .where("h.work_order_id", "=", id)
      .orderBy("h.seq")
      .execute(),
    db
      .selectFrom("work_order_photo")
      .select(["seq", "content_type", "size", "author_id", "at"])
      .where("work_order_id", "=", id)
      .orderBy("seq")
      .execute(),
  ]);
  return {
    ...row,
    devices: devices.map((d) => ({ uid: d.uid, name: d.name })),
    alarms: alarms.map((a) => ({
      seq: Number(a.seq),
      code: Number(a.code),
      level: Number(a.level),
      raised_at: Number(a.raised_at),
      released_at: a.released_at === null ? null : Number(a.released_at),
    })),
    history: history.map((h): WorkOrderHistoryEntry => ({
      seq: Number(h.seq),
      kind: h.kind as WorkOrderHistoryEntry["kind"],
      author: h.author_id,
      authorName: h.authorName ?? null,
      at: Number(h.at),
      note: h.note,
      fromState: h.from_state as WorkOrderState | null,
      toState: h.to_state as WorkOrderState | null,
      assignee: h.assignee_id,
    })),
    photos: photos.map((p) => ({
      seq: Number(p.seq),
      contentType: p.content_type,
      size: Number(p.size),
      author: p.author_id,
      at: Number(p.at),
    })),
    nextStates: isClosed(row.state) ? [] : (["in_progress", "done", "cancelled"] as const).filter((s) => canMove(row.state, s)),
  };
}

/**
 * Field problems of the references a work order on `plantUid` names: devices and alarms must be that plant's,
 * the assignee an enabled member who may see it (`seesPlant`). Empty when all is well.
 */
export async function referenceProblems(
  db: Db,
  plantUid: string,
  refs: { devices?: string[]; alarms?: number[]; assignee?: string | null },
  seesPlant: (memberId: string) => Promise<boolean>,
): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  const devices = [...new Set(refs.devices ?? [])];
  if (devices.length) {
    const found = await db
      .selectFrom("device")
      .select("uid")
      .where("uid", "in", devices)
      .where("plant_uid", "=", plantUid)
      .execute();
    if (found.length !== devices.length) fields.devices = "not_of_plant";
  }
  const alarms = [...new Set(refs.alarms ?? [])];
  if (alarms.length) {
    const found = await db
      .selectFrom("alarm")
      .select("seq")
      .where("seq", "in", alarms)
      .where("plant_uid", "=", plantUid)
      .execute();
    if (found.length !== alarms.length) fields.alarms = "not_of_plant";
  }
  if (refs.assignee) {
    const m = await db.selectFrom("member").select(["id", "use_yn"]).where("id", "=", refs.assignee).executeTakeFirst();
    if (!m || Number(m.use_yn) !== 1) fields.assignee = "no_such_member";
    else if (!(await seesPlant(m.id))) fields.assignee = "member_cannot_see_plant";
  }
  return fields;
}

async function history(
  trx: Transaction<Database>,
  v: { work_order_id: number; kind: WorkOrderHistoryEntry["kind"]; author_id: string; at: number } & Partial<{
    note: string | null;
    from_state: string | null;
    to_state: string | null;
    assignee_id: string | null;
  }>,
): Promise<number> {
  const r = await trx
    .insertInto("work_order_history")
    .values({ note: null, from_state: null, to_state: null, assignee_id: null, ...v })
    .returning("seq")
    .executeTakeFirstOrThrow();
  return Number(r.seq);
}

export interface NewWorkOrder {
  plant: string;
  title: string;
  description: string;
  priority: WorkOrderPriority;
  assignee: string | null;
  dueDate: string | null;
  devices: string[];
  alarms: number[];
}

export async function createWorkOrder(
  db: Kysely<Database>,
  w: NewWorkOrder,
  by: string,
  now: number,
  onAssigned: OnAssigned,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("work_order")
      .values({
        plant_uid: w.plant,
        title: w.title,
        description: w.description,
        priority: w.priority,
        state: "open",
        assignee_id: w.assignee,
        due_date: w.dueDate,
        created_by: by,
        created_at: now,
        updated_at: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const id = Number(row.id);
    await links(trx, id, w.devices, w.alarms);
    await history(trx, { work_order_id: id, kind: "created", author_id: by, at: now, to_state: "open" });
    if (w.assignee) {
      const seq = await history(trx, { work_order_id: id, kind: "assigned", author_id: by, at: now, assignee_id: w.assignee });
      await onAssigned(trx, { workOrderId: id, historySeq: seq, assignee: w.assignee });
    }
    return id;
  });
}

async function links(trx: Transaction<Database>, id: number, devices: string[] | undefined, alarms: number[] | undefined) {
  if (devices) {
    await trx.deleteFrom("work_order_device").where("work_order_id", "=", id).execute();
    const uniq = [...new Set(devices)];
    if (uniq.length)
      await trx
        .insertInto("work_order_device")
        .values(uniq.map((d) => ({ work_order_id: id, device_uid: d })))
        .execute();
  }
  if (alarms) {
    await trx.deleteFrom("work_order_alarm").where("work_order_id", "=", id).execute();
    const uniq = [...new Set(alarms)];
    if (uniq.length)
      await trx
        .insertInto("work_order_alarm")
        .values(uniq.map((a) => ({ work_order_id: id, alarm_seq: a })))
        .execute();
  }
}

export interface WorkOrderChanges {
  title?: string;
  description?: string;
  priority?: WorkOrderPriority;
  assignee?: string | null;
  dueDate?: string | null;
  devices?: string[];
  alarms?: number[];
}

/** Changes the fields given; an open or in-progress work order only (409 `work_order_closed`). */
export async function updateWorkOrder(
  db: Kysely<Database>,
  id: number,
  c: WorkOrderChanges,
  by: string,
  now: number,
  onAssigned: OnAssigned,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const w = await trx.selectFrom("work_order").select(["state", "assignee_id"]).where("id", "=", id).executeTakeFirst();
    if (!w) throw notFound("work_order_not_found");
    if (isClosed(w.state as WorkOrderState)) throw new ApiError(409, "work_order_closed");
    const set: Record<string, unknown> = { updated_at: now };
    if (c.title !== undefined) set.title = c.title;
    if (c.description !== undefined) set.description = c.description;
    if (c.priority !== undefined) set.priority = c.priority;
    if (c.dueDate !== undefined) set.due_date = c.dueDate;
    if (c.assignee !== undefined) set.assignee_id = c.assignee;
    await trx.updateTable("work_order").set(set).where("id", "=", id).execute();
    await links(trx, id, c.devices, c.alarms);
    if (c.assignee !== undefined && c.assignee !== w.assignee_id) {
      const seq = await history(trx, { work_order_id: id, kind: "assigned", author_id: by, at: now, assignee_id: c.assignee });
      if (c.assignee) await onAssigned(trx, { workOrderId: id, historySeq: seq, assignee: c.assignee });
    }
  });
}

/**
 * Moves the work order to `to` when the move is allowed from its state (409 `transition_not_allowed` otherwise),
 * recording the move with its note. The update is conditional on the state read, so two people moving it at once
 * cannot both succeed from the same state.
 */
export async function moveWorkOrder(db: Kysely<Database>, id: number, to: WorkOrderState, note: string, by: string, now: number) {
  await db.transaction().execute(async (trx) => {
    const w = await trx.selectFrom("work_order").select("state").where("id", "=", id).executeTakeFirst();
    if (!w) throw notFound("work_order_not_found");
    const from = w.state as WorkOrderState;
    if (!canMove(from, to)) throw new ApiError(409, "transition_not_allowed", { details: { from: [from], to: [to] } });
    const res = await trx
      .updateTable("work_order")
      .set({ state: to, updated_at: now })
      .where("id", "=", id)
      .where("state", "=", from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(409, "transition_not_allowed");
    await history(trx, {
      work_order_id: id,
      kind: "state",
      author_id: by,
      at: now,
      from_state: from,
      to_state: to,
      note: note || null,
    });
  });
}

export async function addWorkOrderNote(db: Kysely<Database>, id: number, note: string, by: string, now: number) {
  await db.transaction().execute(async (trx) => {
    const w = await trx.selectFrom("work_order").select("id").where("id", "=", id).executeTakeFirst();
    if (!w) throw notFound("work_order_not_found");
    await trx.updateTable("work_order").set({ updated_at: now }).where("id", "=", id).execute();
    await history(trx, { work_order_id: id, kind: "note", author_id: by, at: now, note });
  });
}

/**
 * Attaches a photo (already checked: domain/work-order-photo.ts) unless the work order has `max` already
 * (409 `too_many_photos`); counted and written in one transaction.
 */
export async function addWorkOrderPhoto(
  db: Kysely<Database>,
  id: number,
  photo: { contentType: string; bytes: Uint8Array },
  max: number,
  by: string,
  now: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const w = await trx.selectFrom("work_order").select("id").where("id", "=", id).executeTakeFirst();
    if (!w) throw notFound("work_order_not_found");
    const n = await trx
      .selectFrom("work_order_photo")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("work_order_id", "=", id)
      .executeTakeFirst();
    if (Number(n?.n ?? 0) >= max) throw new ApiError(409, "too_many_photos");
    const row = await trx
      .insertInto("work_order_photo")
      .values({
        work_order_id: id,
        content_type: photo.contentType,
        size: photo.bytes.length,
        data: photo.bytes,
        author_id: by,
        at: now,
      })
      .returning("seq")
      .executeTakeFirstOrThrow();
    await trx.updateTable("work_order").set({ updated_at: now }).where("id", "=", id).execute();
    return Number(row.seq);
  });
}

export async function workOrderPhoto(db: Db, id: number, seq: number) {
  return db
    .selectFrom("work_order_photo")
    .select(["content_type", "data"])
    .where("work_order_id", "=", id)
    .where("seq", "=", seq)
    .executeTakeFirst();
}
