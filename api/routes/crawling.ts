/**
 * Import from external sources ("crawling", SPEC §7 GET /crawling/list, /crawling/list/{id},
 * PUT /crawling/plant|rtu|device). A source is registered with its site type, base URL and a login
 * there; its password is stored encrypted and never returned. Everything here needs the 'setting'
 * admin area (SPEC §6: level ≥ 10); a source belongs to the node it was registered under.
 */
import { Router } from "express";
import { z } from "zod";
import { RemoteUrlSchema, UID_PATTERN } from "../../domain/fleet";
import { deviceKindName, isDeviceKind } from "../../domain/device";
import { requireAdmin } from "../auth/guards";
import { SITES, SourceError, type SourceOffer } from "../crawling/adapter";
import { adapterFor } from "../crawling/adapters";
import { importOffer, sourceFailure } from "../crawling/import";
import { openSecret, sealSecret } from "../crawling/secret-box";
import type { ApiContext } from "../context";
import { badRequest, handle, notFound, parse } from "../http";
import { reachesNode } from "../../domain/visibility";
import {
  changeCrawlSource,
  crawlSource,
  crawlSources,
  createCrawlSource,
  deleteCrawlSource,
  localUids,
  recordPoll,
} from "../store/crawl-sources";
import { groupExists } from "../store/groups";
import { nodeInReach, reachOf, type Reach } from "../store/visibility";
import type { FleetOptions } from "./fleet-common";
import { requireDeleteConfirmation } from "./fleet-common";

const SourceBody = z.object({
  site: z.enum(SITES, { errorMap: () => ({ message: "bad_site" }) }),
  name: z.string().trim().min(1, "required").max(100, "too_long"),
  url: RemoteUrlSchema,
  id: z.string().trim().min(1, "required").max(64, "too_long"),
  pw: z.string().max(256, "too_long").optional(),
  address: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? null : v),
    z.string().trim().max(200, "too_long").nullable().optional(),
  ),
});

const uidList = z.preprocess(
  (v) =>
    typeof v === "string"
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z.array(z.string().regex(UID_PATTERN, "bad_uid")).max(1000, "too_many"),
);
const ImportBody = z.object({
  crawlerId: z.coerce.number({ invalid_type_error: "required" }).int().positive("required"),
  node: z.coerce.number({ invalid_type_error: "required" }).int().positive("required"),
  plants: uidList.optional(),
  rtus: uidList.optional(),
  devices: uidList.optional(),
});

export function crawlingRoutes(ctx: ApiContext, opts: FleetOptions): Router {
  const r = Router();
  const db = ctx.store.db;

  const publicSource = (s: {
    seq: number;
    site: string;
    name: string;
    base_url: string;
    login_id: string;
    node_seq: number | null;
    address: string | null;
    created_by: string | null;
    created_at: number;
    updated_at: number;
    last_polled_at: number | null;
    last_error: string | null;
  }) => ({
    crawlerId: s.seq,
    site: s.site,
    name: s.name,
    url: s.base_url,
    id: s.login_id,
    node_seq: s.node_seq,
    address: s.address,
    created_by: s.created_by,
    created_at: Number(s.created_at),
    updated_at: Number(s.updated_at),
    last_polled_at: s.last_polled_at === null ? null : Number(s.last_polled_at),
    last_error: s.last_error,
  });

  async function findSource(scope: Reach, id: unknown) {
    const seq = Number(id);
    if (!Number.isInteger(seq) || seq <= 0) throw notFound("no_such_source");
    const s = await crawlSource(db, seq);
    if (!s || !reachesNode(scope, s.node_seq)) throw notFound("no_such_source");
    return s;
  }

  async function offerOf(source: Awaited<ReturnType<typeof findSource>>): Promise<SourceOffer> {
    const adapter = adapterFor({
      site: source.site,
      baseUrl: source.base_url,
      id: source.login_id,
      password: openSecret(opts.sourceKey, source.password_enc),
    });
    try {
      const offer = await adapter.list();
      await recordPoll(db, source.seq, null);
      return offer;
    } catch (error) {
      if (error instanceof SourceError) {
        await recordPoll(db, source.seq, error.code);
      }
      sourceFailure(error);
    }
  }

  r.get(
    "/crawling/list",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const rows = await crawlSources(db);
      return { crawlerList: rows.filter((s) => reachesNode(scope, s.node_seq)).map(publicSource) };
    }),
  );

  r.post(
    "/crawling/source",
    handle(async (req, res) => {
      const me = requireAdmin(req, "setting");
      const scope = await reachOf(db, me);
      const body = parse(SourceBody, req.body);
      if (!body.pw) throw badRequest("invalid_input", { pw: "required" });
      const now = Date.now();
      const seq = await createCrawlSource(db, {
        site: body.site,
        name: body.name,
        base_url: new URL(body.url).origin,
        login_id: body.id,
        password_enc: sealSecret(opts.sourceKey, body.pw),
        node_seq: scope.nodeSeq ?? null,
        address: body.address ?? null,
        created_by: me.id,
        created_at: now,
        updated_at: now,
        last_polled_at: null,
        last_error: null,
      });
      res.status(201);
      return { crawler: publicSource(await findSource(scope, seq)) };
    }),
  );

  r.put(
    "/crawling/source/:id",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const source = await findSource(scope, req.params.id);
      const body = parse(SourceBody, req.body);
      await changeCrawlSource(db, source.seq, {
        site: body.site,
        name: body.name,
        base_url: new URL(body.url).origin,
        login_id: body.id,
        address: body.address ?? null,
        // A blank password keeps the stored one.
        ...(body.pw ? { password_enc: sealSecret(opts.sourceKey, body.pw) } : {}),
        updated_at: Date.now(),
      });
      return { crawler: publicSource(await findSource(scope, source.seq)) };
    }),
  );

  r.delete(
    "/crawling/source/:id",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const source = await findSource(scope, req.params.id);
      requireDeleteConfirmation(req);
      await deleteCrawlSource(db, source.seq);
      return { deleted: source.seq };
    }),
  );

  /** What a source offers, in the field names of SPEC §3 (Crawling device: site, crawlerId, stationId, id, model, name, deviceId, time). */
  r.get(
    "/crawling/list/:id",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const source = await findSource(scope, req.params.id);
      const offer = await offerOf(source);
      const [lp, lr, ld] = await localUids(db);
      return {
        crawler: publicSource(source),
        plantList: offer.plants.map((p) => ({ site: source.site, crawlerId: source.seq, ...p, exists: lp.has(p.uid) })),
        rtuList: offer.rtus.map((x) => ({ site: source.site, crawlerId: source.seq, ...x, exists: lr.has(x.uid) })),
        deviceList: offer.devices.map((d) => ({
          site: source.site,
          crawlerId: source.seq,
          stationId: d.plant_uid,
          id: d.uid,
          deviceId: d.uid,
          rtuUid: d.rtu_uid,
          model: isDeviceKind(d.kind) ? deviceKindName(d.kind) : String(d.kind),
          kind: d.kind,
          name: d.name,
          time: d.lastSeenAt,
          exists: ld.has(d.uid),
        })),
        rejected: offer.rejected,
      };
    }),
  );

  const importHandler = (what: "plants" | "rtus" | "devices") =>
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "setting"));
      const body = parse(ImportBody, req.body);
      if (!(await nodeInReach(db, scope, body.node))) throw badRequest("invalid_input", { node: "not_in_your_group" });
      if (!(await groupExists(db, body.node))) {
        throw badRequest("invalid_input", { node: "no_such_node" });
      }
      const chosen = body[what] ?? [];
      if (!chosen.length) throw badRequest("invalid_input", { [what]: "required" });
      const source = await findSource(scope, body.crawlerId);
      const offer = await offerOf(source);
      return importOffer(db, scope, body.node, offer, { [what]: chosen });
    });
  r.put("/crawling/plant", importHandler("plants"));
  r.put("/crawling/rtu", importHandler("rtus"));
  r.put("/crawling/device", importHandler("devices"));

  return r;
}
