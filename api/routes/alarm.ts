/**
 * Alarm summaries of the main dashboard (SPEC §7 /alarm/recent, /alarm/count; §9 recent alarms
 * refresh every 660 000 ms). Only alarms of plants the member may see.
 *
 * GET /alarm/recent?limit=10&hours=24 → {alarmList}: open alarms and those raised in the last `hours`,
 *   newest first, each with the plant's and the device's name.
 * GET /alarm/count → open alarms: alarm_count, alarm_{1000001,1000003,1000004,1000006}_count, levels {1..4}.
 */
import { Router } from "express";
import { z } from "zod";
import type { Clock } from "../clock";
import { requireSettled } from "../auth/guards";
import type { ApiContext } from "../context";
import { handle, parse } from "../http";
import { reachOf, visiblePlantUids } from "../store/visibility";
import type { AlarmCountResponse, RecentAlarm } from "../../domain/contract/alarm";

const RecentQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  hours: z.coerce.number().int().min(1).max(24 * 31).default(24),
});

const CHUNK = 500;

export function alarmRoutes(ctx: ApiContext, clock: Clock): Router {
  const r = Router();
  const db = ctx.store.db;

  r.get("/alarm/recent", handle(async (req): Promise<{ alarmList: RecentAlarm[] }> => {
    requireSettled(req);
    const q = parse(RecentQuery, req.query);
    const plantUids = await visiblePlantUids(db, await reachOf(db, req.member!));
    const since = clock.now() - q.hours * 3_600_000;
    const found: RecentAlarm[] = [];
    for (let i = 0; i < plantUids.length; i += CHUNK) {
      const part = plantUids.slice(i, i + CHUNK);
      const rows = await db
        .selectFrom("alarm")
        .innerJoin("plant", "plant.uid", "alarm.plant_uid")
        .leftJoin("device", "device.uid", "alarm.device_uid")
        .select([
          "alarm.seq", "alarm.plant_uid", "plant.name as plantName", "alarm.rtu_uid", "alarm.device_uid",
          "device.name as deviceName", "device.kind as deviceKind", "alarm.code", "alarm.level", "alarm.fault_code",
          "alarm.message", "alarm.raised_at", "alarm.released_at",
        ])
        .where("alarm.plant_uid", "in", part)
        .where((eb) => eb.or([eb("alarm.released_at", "is", null), eb("alarm.raised_at", ">=", since)]))
        .orderBy("alarm.raised_at", "desc")
        .orderBy("alarm.seq", "desc")
        .limit(q.limit)
        .execute();
      found.push(...rows.map((a) => ({
        ...a,
        seq: Number(a.seq), code: Number(a.code), level: Number(a.level), raised_at: Number(a.raised_at),
        released_at: a.released_at === null ? null : Number(a.released_at),
        deviceKind: a.deviceKind === null ? null : Number(a.deviceKind),
        fault_code: a.fault_code === null ? null : Number(a.fault_code),
      })));
    }
    found.sort((a, b) => b.raised_at - a.raised_at || b.seq - a.seq);
    return { alarmList: found.slice(0, q.limit) };
  }));

  r.get("/alarm/count", handle(async (req): Promise<AlarmCountResponse> => {
    requireSettled(req);
    const plantUids = await visiblePlantUids(db, await reachOf(db, req.member!));
    const out: AlarmCountResponse = {
      alarm_count: 0, alarm_1000001_count: 0, alarm_1000003_count: 0, alarm_1000004_count: 0, alarm_1000006_count: 0,
      levels: { 1: 0, 2: 0, 3: 0, 4: 0 },
    };
    for (let i = 0; i < plantUids.length; i += CHUNK) {
      const rows = await db
        .selectFrom("alarm")
        .select((eb) => ["code", "level", eb.fn.countAll<number>().as("n")])
        .where("plant_uid", "in", plantUids.slice(i, i + CHUNK))
        .where("released_at", "is", null)
        .groupBy(["code", "level"])
        .execute();
      for (const row of rows) {
        const n = Number(row.n);
        out.alarm_count += n;
        const key = `alarm_${Number(row.code)}_count` as keyof AlarmCountResponse;
        if (key in out && key !== "levels" && key !== "alarm_count") (out[key] as number) += n;
        const level = String(Number(row.level)) as "1" | "2" | "3" | "4";
        if (level in out.levels) out.levels[level] += n;
      }
    }
    return out;
  }));

  return r;
}
