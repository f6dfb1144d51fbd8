/**
 * Curtailment and output-limit orders of a plant (issue 28 §3; domain/contract/curtailment.ts):
 *
 * GET    /curtailment/{plantUid}?start&end     the orders overlapping the window (every order without one)
 * POST   /curtailment/{plantUid}               one order
 * PUT    /curtailment/{plantUid}/{id}          change one
 * DELETE /curtailment/{plantUid}/{id}          remove one
 * POST   /curtailment/{plantUid}/import        many orders from CSV (start,end,limit,unit,source,note): every row is
 *                                              checked first; one bad row refuses the whole file (400, its line's
 *                                              fields as `line<n>.<field>`), nothing written
 *
 * Scoped like every plant resource (api/store/visibility.ts requirePlant): a plant the member may not see is 404
 * plant_not_found, like a missing one. Reading needs a settled member; writing the plant administration level
 * (SPEC §6, as the plant's settings) on a plant the member may edit.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { Router, type Request } from "express";
import {
  CURTAILMENT_IMPORT_MAX_ROWS,
  CurtailmentImportBody,
  CurtailmentListQuery,
  CurtailmentOrderBody,
  orderProblems,
  type CurtailmentImportResponse,
  type CurtailmentListResponse,
  type CurtailmentOrder,
} from "../../domain/contract/curtailment";
import { parseSeoul } from "../../domain/seoul-time";
import { capacityKw } from "../../domain/units";
import type { Clock } from "../clock";
import { requireAdmin, requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import { deleteOrder, insertOrders, orderById, orderOf, ordersOf, updateOrder, type OrderRow } from "../store/curtailment";
import { reachOf, requirePlant } from "../store/visibility";

const ORDER_ID = /^[1-9][0-9]{0,9}$/;

/** A checked order body as a row, or its field problems. */
function rowOf(input: unknown, capKw: number): { ok: true; row: OrderRow } | { ok: false; fields: Record<string, string> } {
  const r = CurtailmentOrderBody.safeParse(input);
  if (!r.success) {
    const fields: Record<string, string> = {};
    for (const issue of r.error.issues) fields[issue.path.join(".") || "_"] ??= issue.message;
    return { ok: false, fields };
  }
  const problems = orderProblems(r.data, capKw);
  if (Object.keys(problems).length) return { ok: false, fields: problems };
  return {
    ok: true,
    row: {
      from: parseSeoul(r.data.start)!,
      to: parseSeoul(r.data.end)!,
      limitValue: r.data.limitValue,
      limitUnit: r.data.limitUnit,
      source: r.data.source,
      note: r.data.note,
    },
  };
}

export function curtailmentRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  async function plantFor(req: Request, access: "see" | "edit") {
    const me = access === "edit" ? requireAdmin(req, "plant") : requireSettled(req);
    const plant = await requirePlant(db, await reachOf(db, me), String(req.params.plantUid), access);
    return { me, plant, capKw: capacityKw(Number(plant.capa ?? 0)) };
  }

  async function orderFor(req: Request, plantUid: string, capKw: number): Promise<CurtailmentOrder> {
    const id = String(req.params.id);
    const row = ORDER_ID.test(id) ? await orderById(db, Number(id)) : undefined;
    if (!row || row.plant_uid !== plantUid) throw notFound("order_not_found");
    return orderOf(row, capKw);
  }

  r.get(
    "/curtailment/:plantUid",
    handle(async (req): Promise<CurtailmentListResponse> => {
      const { plant, capKw } = await plantFor(req, "see");
      const q = parse(CurtailmentListQuery, req.query);
      const from = q.start ? parseSeoul(q.start)! : undefined;
      const to = q.end ? parseSeoul(q.end)! : undefined;
      if (from !== undefined && to !== undefined && !(to > from)) throw badRequest("invalid_input", { end: "end_before_start" });
      return { plantUid: plant.uid, capacityKw: capKw, orders: await ordersOf(db, [plant.uid], () => capKw, from, to) };
    }),
  );

  r.post(
    "/curtailment/:plantUid",
    handle(async (req): Promise<CurtailmentOrder> => {
      const { me, plant, capKw } = await plantFor(req, "edit");
      parse(CurtailmentOrderBody, req.body ?? {});
      const checked = rowOf(req.body, capKw);
      if (!checked.ok) throw badRequest("invalid_input", checked.fields);
      const [id] = await insertOrders(db, plant.uid, [checked.row], me.id, clock.now());
      return orderOf((await orderById(db, id!))!, capKw);
    }),
  );

  r.put(
    "/curtailment/:plantUid/:id",
    handle(async (req): Promise<CurtailmentOrder> => {
      const { plant, capKw } = await plantFor(req, "edit");
      const order = await orderFor(req, plant.uid, capKw);
      parse(CurtailmentOrderBody, req.body ?? {});
      const checked = rowOf(req.body, capKw);
      if (!checked.ok) throw badRequest("invalid_input", checked.fields);
      await updateOrder(db, order.id, checked.row, clock.now());
      return orderOf((await orderById(db, order.id))!, capKw);
    }),
  );

  r.delete(
    "/curtailment/:plantUid/:id",
    handle(async (req) => {
      const { plant, capKw } = await plantFor(req, "edit");
      const order = await orderFor(req, plant.uid, capKw);
      await deleteOrder(db, order.id);
      return undefined;
    }),
  );

  r.post(
    "/curtailment/:plantUid/import",
    handle(async (req): Promise<CurtailmentImportResponse> => {
      const { me, plant, capKw } = await plantFor(req, "edit");
      const body = parse(CurtailmentImportBody, req.body ?? {});
      let records: string[][];
      try {
        records = parseCsv(body.csv, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true });
      } catch {
        throw badRequest("invalid_input", { csv: "bad_csv" });
      }
      const header = (records[0] ?? []).map((h) => h.toLowerCase());
      const at = (name: string) => header.indexOf(name);
      const missing = ["start", "end", "limit", "unit", "source"].filter((h) => at(h) < 0);
      if (missing.length) throw badRequest("invalid_input", { csv: `missing_columns:${missing.join(",")}` });
      const lines = records.slice(1);
      if (!lines.length) throw badRequest("invalid_input", { csv: "no_rows" });
      if (lines.length > CURTAILMENT_IMPORT_MAX_ROWS) throw badRequest("invalid_input", { csv: "too_many_rows" });
      const rows: OrderRow[] = [];
      const fields: Record<string, string> = {};
      lines.forEach((cells, i) => {
        const cell = (name: string) => (at(name) >= 0 ? (cells[at(name)] ?? "") : "");
        const limit = cell("limit");
        const checked = rowOf(
          {
            start: cell("start"),
            end: cell("end"),
            limitValue: limit === "" || !Number.isFinite(Number(limit)) ? limit : Number(limit),
            limitUnit: cell("unit").toLowerCase(),
            source: cell("source").toLowerCase(),
            note: cell("note"),
          },
          capKw,
        );
        // Line 1 is the header: the first order is on line 2.
        if (checked.ok) rows.push(checked.row);
        else for (const [k, v] of Object.entries(checked.fields)) fields[`line${i + 2}.${k}`] = v;
      });
      if (Object.keys(fields).length) throw badRequest("invalid_rows", fields);
      const ids = await insertOrders(db, plant.uid, rows, me.id, clock.now());
      return { imported: ids.length };
    }),
  );

  return r;
}
