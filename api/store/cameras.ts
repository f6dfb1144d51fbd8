/** Queries of the camera calls (camera, migration 0011). Credentials are read here only for the converter. */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema";

type Db = Kysely<Database> | Transaction<Database>;

export interface CameraRow {
  uid: string;
  plant_uid: string;
  plant_name: string;
  name: string;
  url: string;
  username: string | null;
  password_sealed: string | null;
  width: number | null;
  height: number | null;
}

const columns = [
  "camera.uid",
  "camera.plant_uid",
  "plant.name as plant_name",
  "camera.name",
  "camera.url",
  "camera.username",
  "camera.password_sealed",
  "camera.width",
  "camera.height",
] as const;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const row = (r: CameraRow): CameraRow => ({ ...r, width: num(r.width), height: num(r.height) });

/** Cameras of the given plants, by plant name then camera name. */
export async function camerasOf(db: Db, plantUids: string[]): Promise<CameraRow[]> {
  const out: CameraRow[] = [];
  for (let i = 0; i < plantUids.length; i += 500) {
    const part = plantUids.slice(i, i + 500);
    if (!part.length) continue;
    const rows = await db
      .selectFrom("camera")
      .innerJoin("plant", "plant.uid", "camera.plant_uid")
      .select(columns)
      .where("camera.plant_uid", "in", part)
      .execute();
    out.push(...rows.map(row));
  }
  return out.sort(
    (a, b) => a.plant_name.localeCompare(b.plant_name, "ko") || a.name.localeCompare(b.name, "ko") || (a.uid < b.uid ? -1 : 1),
  );
}

export async function cameraByUid(db: Db, uid: string): Promise<CameraRow | null> {
  const r = await db
    .selectFrom("camera")
    .innerJoin("plant", "plant.uid", "camera.plant_uid")
    .select(columns)
    .where("camera.uid", "=", uid)
    .executeTakeFirst();
  return r ? row(r) : null;
}

export async function insertCamera(
  db: Db,
  c: {
    uid: string;
    plant_uid: string;
    name: string;
    url: string;
    username: string | null;
    password_sealed: string | null;
    created_by: string;
  },
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto("camera")
    .values({ ...c, width: null, height: null, probed_at: null, created_at: now, updated_at: now })
    .execute();
}

export async function updateCamera(
  db: Db,
  uid: string,
  c: Partial<{
    name: string;
    url: string;
    username: string | null;
    password_sealed: string | null;
    width: number | null;
    height: number | null;
  }>,
): Promise<void> {
  await db
    .updateTable("camera")
    .set({ ...c, updated_at: Date.now() })
    .where("uid", "=", uid)
    .execute();
}

export async function deleteCamera(db: Db, uid: string): Promise<void> {
  await db.deleteFrom("camera").where("uid", "=", uid).execute();
}

/** Keeps the resolution last seen in the camera's stream. */
export async function recordResolution(db: Db, uid: string, width: number, height: number): Promise<void> {
  await db.updateTable("camera").set({ width, height, probed_at: Date.now() }).where("uid", "=", uid).execute();
}
