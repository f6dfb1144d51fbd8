/**
 * The demo fleet's camera (issue 17): when ffmpeg is there, a test pattern on loopback (api/cctv/test-pattern.ts,
 * 1920 × 1080, encoded only while someone watches) is registered as a camera of the first simulated plant, so a
 * new user sees a live picture on /cctv. The pattern's port changes with every start, so the camera's address is
 * written again each time. Only for the embedded store: with several servers a loopback address of one would be
 * wrong on the others.
 */
import { accessSync, constants } from "node:fs";
import { startTestPattern, type TestPattern } from "../cctv/test-pattern";
import type { Store } from "../store/db";
import { SIMULATED_RTU_KIND } from "./fleet";

export const DEMO_CAMERA_UID = "CAMDEMO00001";

export async function startDemoCamera(store: Store, ffmpegPath: string): Promise<TestPattern | null> {
  try {
    accessSync(ffmpegPath, constants.X_OK);
  } catch {
    return null;
  }
  const plant = await store.db
    .selectFrom("plant")
    .innerJoin("rtu", "rtu.plant_uid", "plant.uid")
    .select(["plant.uid"])
    .where("rtu.kind", "=", SIMULATED_RTU_KIND)
    .orderBy("plant.name")
    .executeTakeFirst();
  if (!plant) return null;
  const source = await startTestPattern({ ffmpegPath, width: 1920, height: 1080, fps: 10 });
  const now = Date.now();
  const existing = await store.db.selectFrom("camera").select("uid").where("uid", "=", DEMO_CAMERA_UID).executeTakeFirst();
  if (existing) {
    await store.db.updateTable("camera").set({ url: source.url, updated_at: now }).where("uid", "=", DEMO_CAMERA_UID).execute();
  } else {
    await store.db
      .insertInto("camera")
      .values({
        uid: DEMO_CAMERA_UID,
        plant_uid: plant.uid,
        name: "데모 카메라 (시험 패턴)",
        url: source.url,
        username: null,
        password_sealed: null,
        width: null,
        height: null,
        probed_at: null,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return source;
}
