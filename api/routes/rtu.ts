/**
 * RTU gateways (SPEC §7 RTUs): list with communication state and filters, detail, create, edit, config
 * bits, gateway credential (shown once on creation or rotation), delete, and assignment to plants
 * (POST/DELETE /por). Reads are scoped to what the member may see; writes need the 'rtu' admin area
 * (SPEC §6: levels 6 and 10).
 */
import { Router, type Request } from "express";
import { z } from "zod";
import type { RtuRow } from "../../domain/contract/fleet";
import { COMM_STATES, RtuBodySchema, UID_PATTERN, type RtuBody } from "../../domain/fleet";
import { rtuConfigValue } from "../../domain/rtu-config";
import { hashGatewaySecret, newGatewaySecret } from "../auth/gateway-credential";
import { requireAdmin, requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { badRequest, forbidden, handle, notFound, parse } from "../http";
import { canEditPlant, canSeePlant } from "../../domain/visibility";
import { assignRtus, deleteRtu, newUid, packageExists, unassignRtus } from "../store/fleet";
import { changeRtu, createRtu, rtuDevices, rtuRows, rtuUidTaken, rtuWithMac } from "../store/rtus";
import { nodeInReach, plantRef, reachOf, type Reach } from "../store/visibility";
import { queryList, queryString, requireDeleteConfirmation } from "./fleet-common";

const ListQuery = z.object({
  comm: z.enum(COMM_STATES).optional(),
  package: z.coerce.number().int().positive().optional(),
  status: z.enum(["use", "unused"]).optional(),
  type: z.coerce.number().int().min(1).max(99).optional(),
  keyword: z.string().max(100).optional(),
  plant: z.string().regex(UID_PATTERN).optional(),
});

const PorBody = z.object({
  plantUid: z.string().regex(UID_PATTERN, "bad_uid"),
  rtus: z.preprocess(
    (v) => (typeof v === "string" ? v.split(",").filter(Boolean) : v),
    z.array(z.string().regex(UID_PATTERN, "bad_uid")).min(1, "required").max(500),
  ),
});

export function rtuRoutes(ctx: ApiContext): Router {
  const r = Router();
  const db = ctx.store.db;

  async function findRtu(scope: Reach, uid: string): Promise<RtuRow> {
    const row = (await rtuRows(db, scope)).find((x) => x.uid === uid);
    if (!row) throw notFound("no_such_rtu");
    return row;
  }

  async function rtuValues(scope: Reach, body: RtuBody, existing?: RtuRow) {
    const fields: Record<string, string> = {};
    let nodeSeq = body.nodeSeq ?? existing?.node_seq ?? scope.nodeSeq;
    if (existing?.plant_uid)
      nodeSeq = existing.node_seq; // an assigned RTU follows its plant's node
    else if (nodeSeq == null) fields.nodeSeq = "required";
    else if (!(await nodeInReach(db, scope, nodeSeq))) fields.nodeSeq = "not_in_your_group";
    if (body.packageSeq != null && !(await packageExists(db, body.packageSeq))) fields.packageSeq = "no_such_package";
    if (!existing && body.uid && (await rtuUidTaken(db, body.uid))) fields.uid = "taken";
    if (body.mac) {
      const owner = await rtuWithMac(db, body.mac);
      if (owner && owner !== existing?.uid) fields.mac = "taken";
    }
    if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
    const config = rtuConfigValue({ lteRouter: body.lteRouter, zigbee: body.zigbee, invDetail: body.invDetail, lora: body.lora });
    return {
      name: body.name,
      alias: body.alias ?? null,
      mac: body.mac ?? null,
      kind: body.kind,
      node_seq: nodeSeq ?? null,
      package_seq: body.packageSeq ?? null,
      config,
      use_yn: body.use === false ? 0 : 1,
    };
  }

  r.get(
    "/rtu/user",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      const q = parse(ListQuery, req.query);
      const kw = q.keyword?.trim().toLowerCase();
      const rtuList = (await rtuRows(db, scope)).filter(
        (x) =>
          (!q.comm || x.comm === q.comm) &&
          (!q.package || x.package_seq === q.package) &&
          (!q.status || (q.status === "use") === (x.use_yn === 1)) &&
          (!q.type || x.kind === q.type) &&
          (!q.plant || x.plant_uid === q.plant) &&
          (!kw || [x.uid, x.alias, x.name, x.mac, x.plantName].some((v) => v?.toLowerCase().includes(kw))),
      );
      return { rtuList };
    }),
  );

  r.get(
    "/rtu/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireSettled(req));
      const rtu = await findRtu(scope, String(req.params.uid));
      const deviceList = await rtuDevices(db, rtu.uid);
      return { rtu, deviceList };
    }),
  );

  r.post(
    "/rtu",
    handle(async (req, res) => {
      const scope = await reachOf(db, requireAdmin(req, "rtu"));
      const body = parse(RtuBodySchema, req.body);
      const values = await rtuValues(scope, body);
      const uid = body.uid ?? (await newUid(db, "rtu", "R"));
      const secret = newGatewaySecret();
      const now = Date.now();
      await createRtu(db, {
        uid,
        ...values,
        plant_uid: null,
        credential_hash: hashGatewaySecret(secret),
        created_at: now,
        updated_at: now,
        last_seen_at: null,
      });
      res.status(201);
      // The secret is shown once; only its sha256 is kept.
      return { rtu: await findRtu(scope, uid), secret };
    }),
  );

  r.put(
    "/rtu/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "rtu"));
      const existing = await findRtu(scope, String(req.params.uid));
      if (!existing.editable) throw forbidden("not_in_your_group");
      const body = parse(RtuBodySchema, req.body);
      const values = await rtuValues(scope, { ...body, uid: undefined }, existing);
      await changeRtu(db, existing.uid, { ...values, updated_at: Date.now() });
      return { rtu: await findRtu(scope, existing.uid) };
    }),
  );

  r.post(
    "/rtu/:uid/credential",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "rtu"));
      const existing = await findRtu(scope, String(req.params.uid));
      if (!existing.editable) throw forbidden("not_in_your_group");
      const secret = newGatewaySecret();
      await changeRtu(db, existing.uid, { credential_hash: hashGatewaySecret(secret), updated_at: Date.now() });
      return { rtuUid: existing.uid, secret };
    }),
  );

  r.delete(
    "/rtu/:uid",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "rtu"));
      const existing = await findRtu(scope, String(req.params.uid));
      if (!existing.editable) throw forbidden("not_in_your_group");
      requireDeleteConfirmation(req);
      return { deleted: existing.uid, ...(await deleteRtu(db, existing.uid)) };
    }),
  );

  async function editableRtus(scope: Reach, uids: string[], field: string) {
    const all = await rtuRows(db, scope);
    const byUid = new Map(all.map((x) => [x.uid, x]));
    const missing = uids.filter((u) => !byUid.has(u));
    if (missing.length) throw notFound("no_such_rtu");
    if (uids.some((u) => !byUid.get(u)!.editable)) throw forbidden("not_in_your_group");
    void field;
    return uids.map((u) => byUid.get(u)!);
  }

  r.post(
    "/por",
    handle(async (req) => {
      const scope = await reachOf(db, requireAdmin(req, "rtu"));
      const body = parse(PorBody, req.body);
      const plant = await plantRef(db, body.plantUid);
      if (!plant || !canSeePlant(scope, plant)) throw notFound("no_such_plant");
      if (!canEditPlant(scope, plant)) throw forbidden("not_in_your_group");
      await editableRtus(scope, body.rtus, "rtus");
      await assignRtus(db, plant, body.rtus);
      return { plantUid: plant.uid, rtus: body.rtus };
    }),
  );

  const unassign = handle(async (req: Request) => {
    const scope = await reachOf(db, requireAdmin(req, "rtu"));
    const fromBody = req.body && typeof req.body === "object" ? (req.body as { exclude?: unknown }).exclude : undefined;
    const exclude = Array.isArray(fromBody)
      ? fromBody.map(String)
      : typeof fromBody === "string"
        ? fromBody.split(",")
        : queryList(req, "exclude");
    const uids = exclude.map((s) => s.trim()).filter(Boolean);
    if (!uids.length || uids.some((u) => !UID_PATTERN.test(u))) throw badRequest("invalid_input", { exclude: "required" });
    await editableRtus(scope, uids, "exclude");
    await unassignRtus(db, uids);
    return { rtus: uids };
  });
  r.delete("/por", unassign);
  void queryString;
  return r;
}
