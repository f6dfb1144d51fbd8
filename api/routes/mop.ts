/**
 * SPEC §7 GET /mop/{id} and GET /mop/detail/{id} (issue 27 point 5), beside GET /total in the spec's list: the plants
 * a member or operator runs, and one plant's detail.
 *
 * GET /mop/{id}         the overview of member {id}'s plants: the caller's own (id = the caller), or a member the caller
 *                       administers (the 'id' area of SPEC §6, under their node, not above their level; 404 otherwise).
 *                       Only plants both the member and the caller see (an API token's plant limit included): a plant
 *                       the caller may not see is never shown through another member.
 * GET /mop/detail/{id}  plant {id}'s detail (status, devices, operation, open alarms), the detail window's view; 404
 *                       for a plant the caller may not see, like one that does not exist.
 */
import { Router } from "express";
import { z } from "zod";
import type { MopDetail, MopOverview } from "../../domain/contract/detail";
import type { Clock } from "../clock";
import { requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { handle, notFound, parse } from "../http";
import { administeredMember } from "../store/admin-scope";
import { plantDetailView } from "../store/detail";
import { findMember } from "../store/members";
import { plantStatusRows } from "../store/plant-status";
import { reachOf, requirePlant, visiblePlantUids } from "../store/visibility";
import { plantOperations, sumOperations } from "../store/watch";

const IdParam = z.object({ id: z.string().trim().min(1, "required").max(64, "too_long") });

export function mopRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/mop/detail/:id",
    handle(async (req): Promise<MopDetail> => {
      const me = requireSettled(req);
      const { id } = parse(IdParam, req.params);
      await requirePlant(db, await reachOf(db, me), id, "see", "no_such_plant");
      const view = await plantDetailView(db, id, clock.now());
      if (!view) throw notFound("no_such_plant");
      return view;
    }),
  );

  r.get(
    "/mop/:id",
    handle(async (req): Promise<MopOverview> => {
      const me = requireSettled(req);
      const { id } = parse(IdParam, req.params);
      const own = await reachOf(db, me);
      let member: { id: string; name: string };
      let uids = await visiblePlantUids(db, own);
      if (id === me.id) {
        const row = await findMember(db, me.id);
        if (!row) throw notFound("no_such_member");
        member = { id: row.id, name: row.name };
      } else {
        const target = await administeredMember(db, me, id);
        member = { id: target.id, name: target.name };
        const theirs = new Set(await visiblePlantUids(db, await reachOf(db, { id: target.id })));
        uids = uids.filter((uid) => theirs.has(uid));
      }
      const now = clock.now();
      const [rows, ops] = await Promise.all([plantStatusRows(db, uids, now), plantOperations(db, uids, now)]);
      const plants = rows.map((p) => ({ ...p, operation: ops.get(p.plant_uid)! }));
      return {
        member,
        plants,
        totals: {
          plants: plants.length,
          capa: plants.reduce((s, p) => s + p.capa, 0),
          iw: plants.reduce((s, p) => s + p.iw, 0),
          dailys: plants.reduce((s, p) => s + p.dailys, 0),
          alarm_count: plants.reduce((s, p) => s + p.alarm_count, 0),
          operation: sumOperations(ops.values()),
        },
        now,
      };
    }),
  );

  return r;
}
