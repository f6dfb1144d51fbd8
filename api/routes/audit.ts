/**
 * The tamper-evident command and acknowledgement log (issue 29 §1; api/store/audit-chain.ts). Members with the
 * control service bit (SPEC §6 control 6, the level of /control) only:
 * GET /audit?plant=&start=&end=&kind=&page=&size=   entries of the plants the member sees in a period (Seoul days,
 *                                                   end inclusive), newest first
 * GET /audit/verify                                 walks the whole chain: intact, or the first broken entry
 */
import { Router } from "express";
import { AuditQuerySchema, type AuditListResponse, type AuditRow, type AuditVerifyResponse } from "../../domain/contract/audit";
import { DAY_MS, parseSeoul } from "../../domain/seoul-time";
import { hasService } from "../../domain/service-bits";
import { reachesEverything } from "../../domain/visibility";
import type { AccessClaims } from "../../domain/contract/auth";
import { requireSettled } from "../auth/guards";
import type { Clock } from "../clock";
import type { ApiContext } from "../context";
import { forbidden, handle, parse } from "../http";
import { listAudit, verifyAuditChain } from "../store/audit-chain";
import { reachOf, requirePlant, visiblePlantUids } from "../store/visibility";

function requireControl(me: AccessClaims) {
  if (!hasService(me.service, "control")) throw forbidden("service_not_granted");
}

function parsedDetail(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function auditRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get(
    "/audit",
    handle(async (req): Promise<AuditListResponse> => {
      const me = requireSettled(req);
      requireControl(me);
      const q = parse(AuditQuerySchema, req.query);
      const reach = await reachOf(db, me);
      let plantUids: string[] | null = reachesEverything(reach) ? null : await visiblePlantUids(db, reach);
      if (q.plant) {
        await requirePlant(db, reach, q.plant);
        plantUids = [q.plant];
      }
      const { rows, total } = await listAudit(db, {
        plantUids,
        from: parseSeoul(q.start)!,
        to: parseSeoul(q.end)! + DAY_MS,
        kind: q.kind,
        page: q.page,
        size: q.size,
      });
      return {
        rows: rows.map((e): AuditRow => ({
          seq: e.seq,
          at: e.at,
          kind: e.kind as AuditRow["kind"],
          plant_uid: e.plant_uid,
          plantName: e.plantName,
          ref_seq: e.ref_seq,
          member_id: e.member_id,
          detail: parsedDetail(e.detail),
          hash: e.hash,
        })),
        total,
        page: q.page,
        size: q.size,
      };
    }),
  );

  r.get(
    "/audit/verify",
    handle(async (req): Promise<AuditVerifyResponse> => {
      const me = requireSettled(req);
      requireControl(me);
      const v = await verifyAuditChain(db);
      return { intact: v.intact, checked: v.checked, broken: v.broken, verifiedAt: clock.now() };
    }),
  );

  return r;
}
