/** Reader and writer of the typed settings of domain/settings.ts in the `setting` table. */
import type { Kysely } from "kysely";
import {
  SETTING_FIELDS,
  SETTING_SCHEMAS,
  settingKey,
  settingsFromRows,
  type Settings,
  type ValueSettingType,
} from "../../domain/settings";
import type { Database } from "./schema";

/** Every setting type with stored values applied over the defaults. */
export async function getSettings(db: Kysely<Database>): Promise<Settings> {
  const rows = await db.selectFrom("setting").select(["key", "value"]).execute();
  return settingsFromRows(rows);
}

/** Last change of each setting type (for the config page). */
export async function settingsMeta(
  db: Kysely<Database>,
): Promise<Record<string, { updatedAt: number; updatedBy: string | null }>> {
  const rows = await db.selectFrom("setting").select(["key", "updated_at", "updated_by"]).execute();
  const meta: Record<string, { updatedAt: number; updatedBy: string | null }> = {};
  for (const r of rows) {
    const type = r.key.split(".")[0]!;
    const prev = meta[type];
    if (!prev || prev.updatedAt < Number(r.updated_at)) meta[type] = { updatedAt: Number(r.updated_at), updatedBy: r.updated_by };
  }
  return meta;
}

/** Validates and stores one setting type; the caller has checked permissions. Throws the zod error on bad input. */
export async function putSettings<T extends ValueSettingType>(
  db: Kysely<Database>,
  type: T,
  values: Settings[T],
  by: string,
): Promise<Settings[T]> {
  const parsed = SETTING_SCHEMAS[type].parse(values) as Settings[T];
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const field of SETTING_FIELDS[type] as string[]) {
      const key = settingKey(type, field);
      const value = JSON.stringify((parsed as Record<string, unknown>)[field]);
      await trx
        .insertInto("setting")
        .values({ key, value, updated_at: now, updated_by: by })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now, updated_by: by }))
        .execute();
    }
  });
  return parsed;
}
