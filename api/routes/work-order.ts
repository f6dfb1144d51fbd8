/**
 * Work orders (issue 29 §3). Visibility follows the plant's exactly like alarms (api/store/visibility.ts): a work
 * order of a plant the member may not see answers 404 and is absent from the list. Writes take the alarm screen's
 * rule for acknowledging (requireWriter: any member but a read-only one, who only reads).
 *
 * GET   /workorder                  the filtered list (state, plant, assignee, priority, dueBefore, q; page, size)
 * GET   /workorder/export           the same filters as CSV (UTF-8 with BOM; lang ko|en for the words)
 * POST  /workorder                  create {plant, title, description, priority, assignee, dueDate, devices, alarms}
 * GET   /workorder/{id}             one, with devices, alarms, history and the moves allowed now
 * PATCH /workorder/{id}             change fields (open or in progress only)
 * POST  /workorder/{id}/state       {state, note} — a move of domain/work-order.ts, else 409
 * POST  /workorder/{id}/note        {note}
 * POST  /workorder/{id}/photo       multipart, one file `photo` (PNG, JPEG or WebP by its bytes, ≤ 2 MB, ≤ 20 each)
 * GET   /workorder/{id}/photo/{seq} the photo's bytes
 */
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import {
  WorkOrderCreateSchema,
  WorkOrderListQuerySchema,
  WorkOrderNoteSchema,
  WorkOrderStateSchema,
  WorkOrderUpdateSchema,
  type WorkOrderDetail,
  type WorkOrderListResponse,
} from "../../domain/contract/work-order";
import { wholeNumber } from "../../domain/contract/params";
import type { AccessClaims } from "../../domain/contract/auth";
import { reachesEverything, type Reach } from "../../domain/visibility";
import { WORK_ORDER_WORDS } from "../../domain/work-order-words";
import { formatSeoul } from "../../domain/seoul-time";
import { requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { ApiError, badRequest, handle, notFound, parse } from "../http";
import { PHOTO_FIELD, PHOTO_MAX_BYTES, PHOTO_MAX_PER_ORDER, PHOTO_MIME, photoKind } from "../../domain/work-order-photo";
import { memberSeesPlant } from "../notify/alerts";
import { enqueueAssignmentMail } from "../notify/work-order-mail";
import { plantRef, reachOf, requirePlant, visiblePlantUids } from "../store/visibility";
import {
  addWorkOrderNote,
  addWorkOrderPhoto,
  createWorkOrder,
  listWorkOrders,
  moveWorkOrder,
  referenceProblems,
  updateWorkOrder,
  workOrderDetail,
  workOrderPhoto,
  workOrderRow,
} from "../store/work-orders";

const IdParam = z.object({ id: wholeNumber(1, 2 ** 31 - 1) });
const PhotoParam = z.object({ id: wholeNumber(1, 2 ** 31 - 1), seq: wholeNumber(1, 2 ** 31 - 1) });
const ExportQuery = WorkOrderListQuerySchema.extend({ lang: z.enum(["ko", "en"]).default("ko") });
export const WORK_ORDER_EXPORT_MAX = 20_000;

export function workOrderRoutes(ctx: ApiContext, opts: { portalUrl?: string } = {}): Router {
  const r = Router();
  const db = ctx.store.db;

  /** The plants whose work orders the member sees (null: every plant), narrowed to `plant` when asked (404 if foreign). */
  async function plantsFor(me: AccessClaims, plant: string | undefined): Promise<string[] | null> {
    const reach = await reachOf(db, me);
    if (plant) {
      await requirePlant(db, reach, plant);
      return [plant];
    }
    return reachesEverything(reach) ? null : visiblePlantUids(db, reach);
  }

  /** The work order, when its plant is one the member sees; 404 `work_order_not_found` otherwise. */
  async function visible(me: AccessClaims, id: number, reach?: Reach) {
    const row = await workOrderRow(db, id);
    if (!row) throw notFound("work_order_not_found");
    try {
      await requirePlant(db, reach ?? (await reachOf(db, me)), row.plant_uid);
    } catch {
      throw notFound("work_order_not_found");
    }
    return row;
  }

  async function detail(id: number): Promise<WorkOrderDetail> {
    const d = await workOrderDetail(db, id);
    if (!d) throw notFound("work_order_not_found");
    return d;
  }

  /** Refuses references that are not the plant's (400 with the fields), before anything is written. */
  async function checkReferences(plantUid: string, refs: Parameters<typeof referenceProblems>[2]) {
    const plant = await plantRef(db, plantUid);
    const fields = await referenceProblems(
      db,
      plantUid,
      refs,
      async (memberId) => !!plant && memberSeesPlant(db, memberId, plant),
    );
    if (Object.keys(fields).length) throw new ApiError(400, "invalid_input", { fields });
  }

  const mailer =
    (by: string) =>
    (
      trx: Parameters<Parameters<typeof createWorkOrder>[4]>[0],
      a: { workOrderId: number; historySeq: number; assignee: string },
    ) =>
      enqueueAssignmentMail(trx, { ...a, by }, opts.portalUrl).then(() => undefined);

  r.get(
    "/workorder",
    handle(async (req): Promise<WorkOrderListResponse> => {
      const me = requireSettled(req);
      const q = parse(WorkOrderListQuerySchema, req.query);
      const plants = await plantsFor(me, q.plant);
      const { rows, total } = await listWorkOrders(db, plants, q, { offset: (q.page - 1) * q.size, limit: q.size });
      return { workOrders: rows, total, page: q.page, size: q.size };
    }),
  );

  r.get(
    "/workorder/export",
    handle(async (req, res) => {
      const me = requireSettled(req);
      const q = parse(ExportQuery, req.query);
      const plants = await plantsFor(me, q.plant);
      const { rows } = await listWorkOrders(db, plants, q, { offset: 0, limit: WORK_ORDER_EXPORT_MAX });
      const t = WORK_ORDER_WORDS[q.lang];
      const c = t.csv;
      const time = (ts: number) => formatSeoul(ts, "YYYY-MM-DD HH:mm:ss");
      const body = stringify(
        [
          [
            c.id,
            c.plantUid,
            c.plant,
            c.title,
            c.priority,
            c.state,
            c.assignee,
            c.dueDate,
            c.createdBy,
            c.createdAt,
            c.updatedAt,
            c.description,
          ],
          ...rows.map((w) => [
            w.id,
            w.plant_uid,
            w.plantName,
            w.title,
            t.priorities[w.priority],
            t.states[w.state],
            w.assignee ? `${w.assigneeName ?? ""} (${w.assignee})` : "",
            w.dueDate ?? "",
            w.created_by,
            time(w.created_at),
            time(w.updated_at),
            w.description,
          ]),
        ],
        { bom: true, escape_formulas: true, record_delimiter: "windows" },
      );
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", `attachment; filename="workorders-${formatSeoul(Date.now(), "YYYY-MM-DD")}.csv"`);
      res.send(body);
    }),
  );

  r.post(
    "/workorder",
    handle(async (req, res): Promise<WorkOrderDetail> => {
      const me = requireWriter(req);
      const body = parse(WorkOrderCreateSchema, req.body ?? {});
      const reach = await reachOf(db, me);
      try {
        await requirePlant(db, reach, body.plant);
      } catch {
        throw new ApiError(400, "invalid_input", { fields: { plant: "not_found" } });
      }
      await checkReferences(body.plant, body);
      const id = await createWorkOrder(db, body, me.id, Date.now(), mailer(me.id));
      res.status(201);
      return detail(id);
    }),
  );

  r.get(
    "/workorder/:id",
    handle(async (req): Promise<WorkOrderDetail> => {
      const me = requireSettled(req);
      const { id } = parse(IdParam, req.params);
      await visible(me, id);
      return detail(id);
    }),
  );

  r.patch(
    "/workorder/:id",
    handle(async (req): Promise<WorkOrderDetail> => {
      const me = requireWriter(req);
      const { id } = parse(IdParam, req.params);
      const body = parse(WorkOrderUpdateSchema, req.body ?? {});
      const row = await visible(me, id);
      await checkReferences(row.plant_uid, body);
      await updateWorkOrder(db, id, body, me.id, Date.now(), mailer(me.id));
      return detail(id);
    }),
  );

  r.post(
    "/workorder/:id/state",
    handle(async (req): Promise<WorkOrderDetail> => {
      const me = requireWriter(req);
      const { id } = parse(IdParam, req.params);
      const body = parse(WorkOrderStateSchema, req.body ?? {});
      await visible(me, id);
      await moveWorkOrder(db, id, body.state, body.note, me.id, Date.now());
      return detail(id);
    }),
  );

  r.post(
    "/workorder/:id/note",
    handle(async (req): Promise<WorkOrderDetail> => {
      const me = requireWriter(req);
      const { id } = parse(IdParam, req.params);
      const body = parse(WorkOrderNoteSchema, req.body ?? {});
      await visible(me, id);
      await addWorkOrderNote(db, id, body.note, me.id, Date.now());
      return detail(id);
    }),
  );

  // Photos: multipart/form-data with one file field `photo`; the body is read only up to the limit.
  const rawMultipart = express.raw({ type: "multipart/form-data", limit: PHOTO_MAX_BYTES + 64 * 1024 });
  const photoBody = (req: Request, res: Response, next: NextFunction) =>
    rawMultipart(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large") {
        return next(badRequest("invalid_input", { [PHOTO_FIELD]: "too_large" }));
      }
      next(err);
    });

  r.post(
    "/workorder/:id/photo",
    photoBody,
    handle(async (req, res): Promise<WorkOrderDetail> => {
      const me = requireWriter(req);
      const { id } = parse(IdParam, req.params);
      await visible(me, id);
      if (!Buffer.isBuffer(req.body)) throw badRequest("invalid_input", { [PHOTO_FIELD]: "required" });
      let file: FormDataEntryValue | null = null;
      try {
        const form = await new Response(new Uint8Array(req.body), {
          headers: { "content-type": req.get("content-type") ?? "" },
        }).formData();
        file = form.get(PHOTO_FIELD);
      } catch {
        throw badRequest("invalid_input", { [PHOTO_FIELD]: "required" });
      }
      if (!file || typeof file === "string" || file.size === 0) throw badRequest("invalid_input", { [PHOTO_FIELD]: "required" });
      if (file.size > PHOTO_MAX_BYTES) throw badRequest("invalid_input", { [PHOTO_FIELD]: "too_large" });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = photoKind(bytes);
      if (!kind) throw badRequest("invalid_input", { [PHOTO_FIELD]: "bad_type" });
      await addWorkOrderPhoto(db, id, { contentType: PHOTO_MIME[kind], bytes }, PHOTO_MAX_PER_ORDER, me.id, Date.now());
      res.status(201);
      return detail(id);
    }),
  );

  r.get(
    "/workorder/:id/photo/:seq",
    handle(async (req, res) => {
      const me = requireSettled(req);
      const { id, seq } = parse(PhotoParam, req.params);
      await visible(me, id);
      const photo = await workOrderPhoto(db, id, seq);
      if (!photo) throw notFound("photo_not_found");
      res.setHeader("Content-Type", photo.content_type);
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Disposition", "inline");
      res.setHeader("Cache-Control", "private, max-age=3600");
      res.send(Buffer.from(photo.data));
    }),
  );

  return r;
}
