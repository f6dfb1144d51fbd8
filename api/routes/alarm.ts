/**
 * Alarms, codes and alerts (SPEC §7 Devices, alarms, codes; §3 Alarm). Every answer holds only plants the
 * member may see (api/store/visibility.ts): a foreign plant, group, device or alarm answers 404.
 *
 * GET  /alarm                      the filtered list (start, end, level, device, code, status; isGroup, group, plant; page, size)
 * GET  /alarm/unrelease            open alarms (active and acknowledged)
 * GET  /alarm/v2/unrelease         open alarms per plant: the SPEC §3 counters and iw
 * GET  /alarm/recent               open alarms and those of the last `hours` (the shell and main page, every 660 000 ms)
 * GET  /alarm/count                open alarms by code and level
 * GET  /alarm/scope                the scope picker: names of the chosen plant and group, the plant's devices, search by name
 * GET  /alarm/{seq}                one alarm with its lifecycle steps
 * POST /alarm/{seq}/ack {note}     acknowledge (writers; audit-logged)
 * POST /alarm/{seq}/release {note} an operator's release (edit access to the plant)
 * GET, PUT /alarm/notify/pref      the member's own alert preferences
 * GET /alarm/figures?start=&end=&plant=&isGroup=&group=   alarms per 100 plants per day, nuisance share, mean
 *                                  times to acknowledge and clear — in all and per code, plant and group
 * GET, PUT /alarm/notify/routes    the member's own alert routes (plant or group, minimum level, codes, channels)
 * GET  /alarm/notify/log           the outbox delivery log (admins: setting area)
 * GET, PUT /alarm/contacts/{plant} the plant's owner, electrical safety manager and operator (plant admins with edit access)
 * GET, PUT, DELETE /alarm/ladder?plant=|group=  the escalation ladder of a plant or group (plant admins with edit access;
 *                                  DELETE: back to what it inherits)
 */
import { Router } from "express";
import { wholeNumber } from "../../domain/contract/params";
import type { Kysely } from "kysely";
import { z } from "zod";
import { hhmmToMinutes, minutesToHhmm } from "../../domain/alert-policy";
import {
  AlarmAckSchema,
  AlarmListQuerySchema,
  AlarmScopeQuerySchema,
  AlertPrefSchema,
  DeliveryLogQuerySchema,
  LadderQuerySchema,
  PlantContactsSchema,
  PLANT_CONTACT_ROLES,
  type LadderResponse,
  type AlarmCountResponse,
  type AlarmScopeResponse,
  type AlertPref,
  type PlantContacts,
  AlertRoutesSchema,
  AlarmFiguresQuerySchema,
  FIGURE_ROWS,
  type AlarmFiguresResponse,
  type AlertRouteView,
} from "../../domain/contract/alarm";
import { alarmFigures, type FigureRow } from "../../domain/alarm-figures";
import { DAY_MS, parseSeoul } from "../../domain/seoul-time";
import { alarmsRaisedIn, plantsWithGroups } from "../store/alarm-figures";
import type { AccessClaims } from "../../domain/contract/auth";
import type { Clock } from "../clock";
import type { ClusterNotices } from "../cache/answer-cache";
import { TableAnswers } from "../cache/table-answers";
import { seoulDayStart } from "../../domain/seoul-time";
import { requireAdmin, requireSettled, requireWriter } from "../auth/guards";
import type { ApiContext } from "../context";
import { ApiError, badRequest, handle, notFound, parse } from "../http";
import type { OutboxWorker } from "../notify/outbox";
import { memberSeesPlant, prefView } from "../notify/alerts";
import { WEBHOOK_SCHEMES } from "../../domain/outbound-address";
import {
  acknowledgeAlarm,
  alarmBySeq,
  alarmEvents,
  alertPrefRow,
  deliveryLog,
  groupsNamed,
  listAlarms,
  memberEmail,
  membersInUse,
  nodeNamed,
  openAlarmCounts,
  openAlarms,
  plantContactRows,
  plantDevices,
  plantsNamed,
  plantsUnderNode,
  recentAlarms,
  releaseAlarm,
  saveAlertPref,
  setPlantContacts,
  unreleasedByPlant,
} from "../store/alarms";
import type { Database } from "../store/schema";
import { nodeInReach, reachOf, requireDevice, requirePlant, subtreeSeqs, visiblePlantUids } from "../store/visibility";
import { namedRoutesOf, saveRoutes } from "../store/alert-routes";
import { reachesEverything } from "../../domain/visibility";
import { LadderSchema, ladderScopeKey, type LadderScope } from "../../domain/alarm-ladder";
import { deleteLadder, effectiveLadder, saveLadder } from "../store/alarm-ladders";
import type { Reach } from "../../domain/visibility";

const RecentQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 31)
    .default(24),
});
const UnreleaseQuery = z.object({
  plant: z.string().trim().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
const SeqParam = z.object({
  seq: wholeNumber(1, 2 ** 31 - 1),
});
/**
 * Memory of the list's answer cache, and the longest an answer is kept: writes through a server drop answers at
 * once; a minute bounds what a write by anything else on PostgreSQL (psql, a script) leaves unseen.
 */
const LIST_CACHE = { maxBytes: 16 * 1024 * 1024, ttlMs: 60_000 };

/** Plants the member may see: null when that is every plant (a member at the root node). */
async function scope(db: Kysely<Database>, member: AccessClaims): Promise<string[] | null> {
  const reach = await reachOf(db, member);
  if (reachesEverything(reach)) return null;
  return visiblePlantUids(db, reach);
}

async function narrowed(
  db: Kysely<Database>,
  member: AccessClaims,
  q: { plant?: string; isGroup?: boolean; group?: number; device?: string },
) {
  const reach = await reachOf(db, member);
  let plants = reachesEverything(reach) ? null : await visiblePlantUids(db, reach);
  if (q.plant) {
    await requirePlant(db, reach, q.plant);
    plants = [q.plant];
  }
  if (q.isGroup && q.group !== undefined) {
    const node = await nodeNamed(db, q.group);
    if (!node) throw notFound("group_not_found");
    const everything = reachesEverything(reach);
    const under = await plantsUnderNode(
      db,
      await subtreeSeqs(db, q.group),
      everything ? null : await visiblePlantUids(db, reach),
    );
    // A group is the member's when it lies in their subtree or holds a plant they see; any other does not exist for
    // them. A group of theirs without plants, or without the plant also asked for, is an empty list, not a 404.
    if (!everything && !reach.nodes.includes(q.group) && !under.length) throw notFound("group_not_found");
    plants = q.plant ? under.filter((uid) => uid === q.plant) : under;
  }
  if (q.device) await requireDevice(db, reach, q.device);
  return { reach, plants };
}

export function alarmRoutes(ctx: ApiContext, clock: Clock, outbox?: OutboxWorker, notices?: ClusterNotices): Router {
  const r = Router();
  const db = ctx.store.db;
  // The list's answers, kept until an alarm, plant or device row is written (api/cache/table-answers.ts).
  const lists = new TableAnswers({
    channel: "solar_alarm_list",
    reads: "alarmList",
    ...LIST_CACHE,
    notices,
    store: ctx.store,
  });

  r.get(
    "/alarm",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(AlarmListQuerySchema, req.query);
      const { plants } = await narrowed(db, me, q);
      const now = clock.now();
      // Besides the tables, the answer depends on the plants seen, the query and the day (a default period is today).
      return lists.of({ plants, q, day: seoulDayStart(now) }, () => listAlarms(db, plants, q, now));
    }),
  );

  r.get(
    "/alarm/unrelease",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(UnreleaseQuery, req.query);
      const { plants } = await narrowed(db, me, q);
      return { alarmList: await openAlarms(db, plants, q.limit) };
    }),
  );

  r.get(
    "/alarm/v2/unrelease",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(UnreleaseQuery, req.query);
      const { plants } = await narrowed(db, me, q);
      return { alarmList: await unreleasedByPlant(db, plants) };
    }),
  );

  r.get(
    "/alarm/recent",
    handle(async (req) => {
      const me = requireSettled(req);
      const q = parse(RecentQuery, req.query);
      return { alarmList: await recentAlarms(db, await scope(db, me), clock.now() - q.hours * 3_600_000, q.limit) };
    }),
  );

  r.get(
    "/alarm/count",
    handle(async (req): Promise<AlarmCountResponse> => {
      const me = requireSettled(req);
      const plants = await scope(db, me);
      const out: AlarmCountResponse = {
        alarm_count: 0,
        active: 0,
        acknowledged: 0,
        alarm_1000001_count: 0,
        alarm_1000003_count: 0,
        alarm_1000004_count: 0,
        alarm_1000006_count: 0,
        levels: { 1: 0, 2: 0, 3: 0, 4: 0 },
      };
      if (plants && !plants.length) return out;
      const rows = await openAlarmCounts(db, plants);
      for (const row of rows) {
        const n = Number(row.n);
        out.alarm_count += n;
        out.active += row.unacked;
        out.acknowledged += n - row.unacked;
        const key = `alarm_${Number(row.code)}_count` as keyof AlarmCountResponse;
        if (key in out && key !== "levels" && key !== "alarm_count") (out[key] as number) += n;
        const level = String(Number(row.level)) as "1" | "2" | "3" | "4";
        if (level in out.levels) out.levels[level] += n;
      }
      return out;
    }),
  );

  r.get(
    "/alarm/scope",
    handle(async (req): Promise<AlarmScopeResponse> => {
      const me = requireSettled(req);
      const q = parse(AlarmScopeQuerySchema, req.query);
      const reach = await reachOf(db, me);
      const everything = reachesEverything(reach);
      let visible: string[] | null | undefined;
      const visiblePlants = async () =>
        visible === undefined ? (visible = everything ? null : await visiblePlantUids(db, reach)) : visible;
      const out: AlarmScopeResponse = { plant: null, group: null, devices: [], matches: null };
      if (q.plant) {
        const plant = await requirePlant(db, reach, q.plant);
        out.plant = { uid: plant.uid, name: plant.name };
        out.devices = await plantDevices(db, plant.uid);
      }
      if (q.group !== undefined) {
        const node = await nodeNamed(db, q.group);
        if (!node) throw notFound("group_not_found");
        // The same rule as the list: a group of the member's subtree, or one that holds a plant they see.
        const visiblePlantsList = await visiblePlants();
        if (
          !everything &&
          !reach.nodes.includes(q.group) &&
          !(await plantsUnderNode(db, await subtreeSeqs(db, q.group), visiblePlantsList)).length
        ) {
          throw notFound("group_not_found");
        }
        out.group = { seq: Number(node.seq), name: node.name };
      }
      if (q.q) {
        const [plants, groups] = await Promise.all([
          plantsNamed(db, q.q, await visiblePlants(), q.limit),
          groupsNamed(db, q.q, reach.only || reach.plants ? [] : everything ? null : [...reach.nodes], q.limit),
        ]);
        out.matches = {
          plants: plants.slice(0, q.limit),
          groups: groups.slice(0, q.limit),
          more: plants.length > q.limit || groups.length > q.limit,
        };
      }
      return out;
    }),
  );

  r.get(
    "/alarm/notify/pref",
    handle(async (req): Promise<AlertPref> => {
      const me = requireSettled(req);
      return readPref(db, me.id);
    }),
  );

  r.get(
    "/alarm/figures",
    handle(async (req): Promise<AlarmFiguresResponse> => {
      const me = requireSettled(req);
      const q = parse(AlarmFiguresQuerySchema, req.query);
      const { plants } = await narrowed(db, me, q);
      const from = parseSeoul(q.start)!;
      const to = parseSeoul(q.end)! + DAY_MS;
      const days = Math.round((to - from) / DAY_MS);
      const [alarms, inScope] = await Promise.all([alarmsRaisedIn(db, plants, from, to), plantsWithGroups(db, plants)]);
      const f = alarmFigures(alarms, inScope, days);
      const plantName = new Map(inScope.map((p) => [p.uid, p.name]));
      const groupName = new Map(inScope.map((p) => [p.group, p.groupName]));
      const figure = ({ key: _key, ...rest }: FigureRow<unknown>) => rest;
      return {
        start: q.start,
        end: q.end,
        days,
        plants: inScope.length,
        total: f.total,
        byCode: f.byCode.slice(0, FIGURE_ROWS).map((r) => ({ code: r.key, ...figure(r) })),
        byPlant: f.byPlant
          .slice(0, FIGURE_ROWS)
          .map((r) => ({ plant_uid: r.key, plantName: plantName.get(r.key) ?? r.key, ...figure(r) })),
        byGroup: f.byGroup
          .slice(0, FIGURE_ROWS)
          .map((r) => ({ group: r.key, groupName: groupName.get(r.key) ?? null, ...figure(r) })),
      };
    }),
  );

  r.get(
    "/alarm/notify/routes",
    handle(async (req) => {
      const me = requireSettled(req);
      return { routes: await readRoutes(db, me.id) };
    }),
  );

  r.put(
    "/alarm/notify/routes",
    handle(async (req) => {
      const me = requireWriter(req);
      const body = parse(AlertRoutesSchema, req.body);
      const reach = await reachOf(db, me);
      const fields: Record<string, string> = {};
      const pref = await alertPrefRow(db, me.id);
      for (const [i, r] of body.routes.entries()) {
        if (
          r.plant &&
          !(await requirePlant(db, reach, r.plant).then(
            () => true,
            () => false,
          ))
        )
          fields[`routes.${i}.plant`] = "unknown_plant";
        if (r.group && !((await nodeNamed(db, r.group)) && (await nodeInReach(db, reach, r.group))))
          fields[`routes.${i}.group`] = "unknown_group";
        if (r.mail && !pref?.email) fields[`routes.${i}.mail`] = "no_email";
        if (r.webhook && !pref?.webhook_url) fields[`routes.${i}.webhook`] = "no_webhook_url";
      }
      if (Object.keys(fields).length) throw badRequest("invalid_input", fields);
      await saveRoutes(
        db,
        me.id,
        body.routes.map((r) => ({
          plant: r.plant ?? null,
          group: r.group ?? null,
          minLevel: r.minLevel,
          codes: r.codes?.length ? [...new Set(r.codes)] : null,
          mail: r.mail,
          webhook: r.webhook,
        })),
      );
      return { routes: await readRoutes(db, me.id) };
    }),
  );

  r.put(
    "/alarm/notify/pref",
    handle(async (req): Promise<AlertPref> => {
      const me = requireWriter(req);
      const p = parse(AlertPrefSchema, req.body);
      if (p.mail) {
        if (!(await memberEmail(db, me.id))) throw badRequest("invalid_input", { mail: "no_email" });
      }
      // The outbound-address rule (api/net/outbound-address.ts); checked again at every delivery.
      if (p.webhookUrl) {
        const check = await ctx.outbound.check(p.webhookUrl, WEBHOOK_SCHEMES);
        if (!check.ok) throw badRequest("invalid_input", { webhookUrl: check.problem });
      }
      const row = {
        min_level: p.minLevel,
        mail: p.mail ? 1 : 0,
        webhook: p.webhook ? 1 : 0,
        webhook_url: p.webhookUrl ?? null,
        quiet_from: p.quietFrom ? hhmmToMinutes(p.quietFrom) : null,
        quiet_to: p.quietTo ? hhmmToMinutes(p.quietTo) : null,
        digest: p.digest ? 1 : 0,
        updated_at: Date.now(),
        ...(p.lang ? { lang: p.lang } : {}),
      };
      await saveAlertPref(db, me.id, row);
      return readPref(db, me.id);
    }),
  );

  r.get(
    "/alarm/notify/log",
    handle(async (req) => {
      const me = requireAdmin(req, "setting");
      const q = parse(DeliveryLogQuerySchema, req.query);
      // Scoped like every list: the deliveries of plants the admin sees, and of members of their group tree.
      const reach = await reachOf(db, me);
      return { ...(await deliveryLog(db, reach, q.status, q.page)), channels: outbox?.channels() ?? [] };
    }),
  );

  r.get(
    "/alarm/contacts/:plant",
    handle(async (req) => {
      const me = requireSettled(req);
      const reach = await reachOf(db, me);
      await requirePlant(db, reach, String(req.params.plant));
      return readContacts(db, String(req.params.plant));
    }),
  );

  r.put(
    "/alarm/contacts/:plant",
    handle(async (req) => {
      const me = requireAdmin(req, "plant");
      const reach = await reachOf(db, me);
      const plantUid = String(req.params.plant);
      const plant = await requirePlant(db, reach, plantUid, "edit");
      const body = parse(PlantContactsSchema, req.body);
      const ids = [body.owner, body.safety, body.operator].filter((v): v is string => !!v);
      const known = await membersInUse(db, ids);
      const fields: Record<string, string> = {};
      const blind: string[] = [];
      for (const role of PLANT_CONTACT_ROLES) {
        const id = body[role];
        if (!id) continue;
        if (!known.includes(id)) fields[role] = "no_such_member";
        // The plant's alerts name it, its devices and faults: only to someone who may see it (the visibility rule).
        else if (!(await memberSeesPlant(db, id, plant))) {
          fields[role] = "member_cannot_see_plant";
          blind.push(id);
        }
      }
      if (Object.keys(fields).length)
        throw new ApiError(400, "invalid_input", { fields, ...(blind.length ? { details: { member: blind } } : {}) });
      await setPlantContacts(db, plantUid, body, me.id, Date.now());
      return readContacts(db, plantUid);
    }),
  );

  /** The plant or group a ladder call is about, checked against the member's reach (a foreign one answers 404). */
  async function ladderScope(reach: Reach, query: unknown, access: "see" | "edit"): Promise<LadderScope> {
    const q = parse(LadderQuerySchema, query);
    if (q.plant) {
      await requirePlant(db, reach, q.plant, access);
      return { plant: q.plant };
    }
    const group = q.group!;
    if (!(await nodeNamed(db, group)) || (!reach.all && !reach.nodes.includes(group)) || (access === "edit" && reach.only))
      throw notFound("group_not_found");
    return { group };
  }
  const ladderAnswer = async (scope: LadderScope): Promise<LadderResponse> => {
    const l = await effectiveLadder(db, scope);
    return {
      scope,
      own: !!l.from && ladderScopeKey(l.from) === ladderScopeKey(scope),
      from: l.from,
      steps: l.steps.map((s) => ({ afterMinutes: s.afterMinutes, roles: [...s.roles] })),
    };
  };

  r.get(
    "/alarm/ladder",
    handle(async (req): Promise<LadderResponse> => {
      const me = requireSettled(req);
      return ladderAnswer(await ladderScope(await reachOf(db, me), req.query, "see"));
    }),
  );

  r.put(
    "/alarm/ladder",
    handle(async (req): Promise<LadderResponse> => {
      const me = requireAdmin(req, "plant");
      const scope = await ladderScope(await reachOf(db, me), req.query, "edit");
      const body = parse(LadderSchema, req.body ?? {});
      await saveLadder(db, scope, body.steps, me.id, Date.now());
      return ladderAnswer(scope);
    }),
  );

  r.delete(
    "/alarm/ladder",
    handle(async (req): Promise<LadderResponse> => {
      const me = requireAdmin(req, "plant");
      const scope = await ladderScope(await reachOf(db, me), req.query, "edit");
      await deleteLadder(db, scope);
      return ladderAnswer(scope);
    }),
  );

  // After the fixed paths above: /alarm/{seq}.
  r.get(
    "/alarm/:seq",
    handle(async (req) => {
      const me = requireSettled(req);
      const { seq } = parse(SeqParam, req.params);
      const alarm = await visibleAlarm(db, me, seq);
      return { alarm, events: await alarmEvents(db, seq) };
    }),
  );

  r.post(
    "/alarm/:seq/ack",
    handle(async (req) => {
      const me = requireWriter(req);
      const { seq } = parse(SeqParam, req.params);
      const body = parse(AlarmAckSchema, req.body ?? {});
      await visibleAlarm(db, me, seq);
      await acknowledgeAlarm(db, seq, me.id, body.note, clock.now(), ctx.store.dialect);
      return { alarm: await alarmBySeq(db, seq), events: await alarmEvents(db, seq) };
    }),
  );

  r.post(
    "/alarm/:seq/release",
    handle(async (req) => {
      const me = requireWriter(req);
      const { seq } = parse(SeqParam, req.params);
      const body = parse(AlarmAckSchema, req.body ?? {});
      const alarm = await visibleAlarm(db, me, seq);
      await requirePlant(db, await reachOf(db, me), alarm.plant_uid, "edit");
      await releaseAlarm(db, seq, me.id, body.note, clock.now());
      return { alarm: await alarmBySeq(db, seq), events: await alarmEvents(db, seq) };
    }),
  );

  return r;
}

async function visibleAlarm(db: Kysely<Database>, me: AccessClaims, seq: number) {
  const alarm = await alarmBySeq(db, seq);
  if (!alarm) throw notFound("alarm_not_found");
  const reach = await reachOf(db, me);
  try {
    await requirePlant(db, reach, alarm.plant_uid);
  } catch {
    throw notFound("alarm_not_found");
  }
  return alarm;
}

async function readPref(db: Kysely<Database>, memberId: string): Promise<AlertPref> {
  const member = await alertPrefRow(db, memberId);
  if (!member) throw notFound("member_not_found");
  const p = prefView(member);
  return {
    minLevel: p.minLevel,
    mail: p.mail,
    webhook: p.webhook,
    webhookUrl: p.webhookUrl,
    quietFrom: p.quietFrom === null ? null : minutesToHhmm(p.quietFrom),
    quietTo: p.quietTo === null ? null : minutesToHhmm(p.quietTo),
    digest: p.digest,
    lang: member.lang === "en" ? "en" : "ko",
    email: member.email,
  };
}

async function readRoutes(db: Kysely<Database>, memberId: string): Promise<AlertRouteView[]> {
  return namedRoutesOf(db, memberId);
}

async function readContacts(db: Kysely<Database>, plantUid: string): Promise<PlantContacts> {
  const rows = await plantContactRows(db, plantUid);
  const of = (role: string) => {
    const m = rows.find((r) => r.role === role);
    return m ? { id: m.id, name: m.name, email: m.email } : null;
  };
  return { plant_uid: plantUid, owner: of("owner"), safety: of("safety"), operator: of("operator") };
}
