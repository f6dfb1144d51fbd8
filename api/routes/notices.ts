/**
 * Notices (SPEC §3 Notice, §7 Notices). Everybody signed in reads the active ones; only members
 * with the 'setting' admin area (level 10 and above, SPEC §6) see inactive ones and write.
 */
import { Router, type Request } from "express";
import { canAdminister } from "../../domain/admin-levels";
import { isDeleteConfirmed } from "../../domain/admin-delete";
import { toInt } from "../../domain/member-form";
import { NoticeDeleteFields, NoticeFields } from "../../domain/notice-form";
import { currentMember, requireAdmin } from "../auth/guards";
import type { ClusterNotices } from "../cache/answer-cache";
import { TableAnswers } from "../cache/table-answers";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import { changeNotice, createNotice, deleteNotices, notice, notices } from "../store/notices";

/** The newest active notices shown to a member after login. */
export const CUSTOM_NOTICE_LIMIT = 10;

const useFilter = (v: unknown): 0 | 1 | undefined => {
  const n = toInt(typeof v === "string" ? v : undefined);
  return n === 0 || n === 1 ? n : undefined;
};

function seqParam(req: Request): number {
  const n = toInt(String(req.params.seq ?? ""));
  if (typeof n !== "number" || !Number.isInteger(n) || n <= 0) throw notFound("no_such_notice");
  return n;
}

export function noticeRoutes(ctx: ApiContext, clusterNotices?: ClusterNotices): Router {
  const r = Router();
  const db = ctx.store.db;
  // The after-login pop-up's list is asked by the shell of every page: kept until the notice table is written
  // (api/cache/table-answers.ts; on PostgreSQL the database tells of a write by anything else, migration 0018).
  const customs = new TableAnswers({
    channel: "solar_notice_custom",
    reads: "notices",
    maxBytes: 1024 * 1024,
    ttlMs: 60_000,
    notices: clusterNotices,
    store: ctx.store,
  });
  const isEditor = (req: Request) => {
    const m = currentMember(req);
    return m.readOnly !== 1 && canAdminister("setting", m.auth);
  };

  r.get(
    "/notice",
    handle(async (req) => {
      const editor = isEditor(req);
      const use = editor ? useFilter(req.query.use) : 1;
      if (!editor && useFilter(req.query.use) === 0) return { noticeList: [] };
      return { noticeList: await notices(db, use) };
    }),
  );

  r.get(
    "/notice/custom",
    handle(async (req) => {
      currentMember(req);
      return customs.of({}, async () => ({ noticeList: await notices(db, 1, CUSTOM_NOTICE_LIMIT) }));
    }),
  );

  r.get(
    "/notice/:seq",
    handle(async (req) => {
      const seq = seqParam(req);
      const row = await notice(db, seq, !isEditor(req));
      if (!row) throw notFound("no_such_notice");
      return { notice: row };
    }),
  );

  r.post(
    "/notice",
    handle(async (req, res) => {
      const me = requireAdmin(req, "setting");
      const body = parse(NoticeFields, req.body ?? {});
      const now = Date.now();
      const row = await createNotice(db, { content: body.content, use: body.use, authorId: me.id }, now);
      res.status(201);
      return { notice: row };
    }),
  );

  r.put(
    "/notice/:seq",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const seq = seqParam(req);
      const body = parse(NoticeFields, req.body ?? {});
      const row = await changeNotice(db, seq, { content: body.content, use: body.use });
      if (!row) throw notFound("no_such_notice");
      return { notice: row };
    }),
  );

  r.delete(
    "/notice",
    handle(async (req) => {
      requireAdmin(req, "setting");
      const source = { ...(req.query as Record<string, unknown>), ...(req.body && typeof req.body === "object" ? req.body : {}) };
      const { noticesSeq, confirm } = parse(NoticeDeleteFields, source);
      if (!isDeleteConfirmed(confirm)) throw badRequest("confirmation_required", { confirm: "confirmation_required" });
      const deleted = await deleteNotices(db, noticesSeq);
      if (deleted === 0) throw notFound("no_such_notice");
      return { deleted, noticesSeq };
    }),
  );

  return r;
}
