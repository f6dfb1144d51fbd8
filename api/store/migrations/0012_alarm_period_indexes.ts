import type { Kysely } from "kysely";
import type { Dialect } from "../db";

/**
 * The alarm list over a period (GET /alarm, issue 14 benchmark): an alarm overlaps the period [start, end) when it
 * was raised in it, or raised before it and cleared in it or later, or raised before it and still open. The list
 * reads those three parts separately (api/store/alarms.ts), each a range of one composite index that also holds
 * the level, so the counts per level are index-only and never walk the year before the period:
 * - raised in the period: (raised_at, level, released_at), or (plant_uid, raised_at, level, released_at) for one
 *   plant or a group's plants — this one replaces (plant_uid, raised_at) of 0005, its prefix;
 * - raised before it and cleared in it or later, or still open: (released_at, raised_at, level).
 * (raised_at) of 0002 stays: the page itself is read newest first along it (with the seq as its tie-break).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex("alarm_period_level_idx").on("alarm").columns(["raised_at", "level", "released_at"]).execute();
  await db.schema
    .createIndex("alarm_plant_period_level_idx")
    .on("alarm")
    .columns(["plant_uid", "raised_at", "level", "released_at"])
    .execute();
  await db.schema.dropIndex("alarm_plant_raised_idx").execute();
  await db.schema.createIndex("alarm_released_level_idx").on("alarm").columns(["released_at", "raised_at", "level"]).execute();
}
