/**
 * The escalation ladder's deliveries (issue 29 §2): for every active alarm (neither acknowledged nor cleared), the
 * steps of its plant's ladder that are due (domain/alarm-ladder.ts dueSteps, counted from the alarm's active_since)
 * and not yet delivered are delivered through the outbox. Each step is one transaction that
 * 1. re-reads the alarm under a row write (it waits for an acknowledgement being written, and skips an alarm that was
 *    acknowledged or cleared since the step was judged due),
 * 2. records the step in alarm_escalation, whose primary key (alarm, episode, step) refuses a second row, and
 * 3. enqueues the step's messages only when that row was new.
 * So a step is enqueued exactly once — across a restart, and with a second engine on the same store (one server runs
 * the engine at a time; one that has not yet noticed it lost the lease finds the row).
 */
import { dueSteps, ladderOf } from "../../domain/alarm-ladder";
import { storedAlarmMessage } from "../../domain/alarm-message";
import { enqueueLadderStep } from "../notify/alerts";
import { groupPaths, storedLadders } from "../store/alarm-ladders";
import type { Store } from "../store/db";

/** Open, unacknowledged alarms read per statement. */
const CHUNK = 500;

export async function escalateAlarms(
  store: Store,
  now: number,
  plants: ReadonlyArray<readonly string[] | null>,
  portalUrl?: string,
): Promise<{ steps: number; deliveries: number }> {
  const db = store.db;
  const active = (
    await Promise.all(
      plants.map((part) =>
        db
          .selectFrom("alarm")
          .innerJoin("plant", "plant.uid", "alarm.plant_uid")
          .select([
            "alarm.seq",
            "alarm.plant_uid",
            "alarm.rtu_uid",
            "alarm.device_uid",
            "alarm.code",
            "alarm.level",
            "alarm.message",
            "alarm.message_code",
            "alarm.message_params",
            "alarm.raised_at",
            "alarm.active_since",
            "plant.node_seq",
          ])
          .where("alarm.released_at", "is", null)
          .where("alarm.ack_at", "is", null)
          .$if(!!part, (q) => q.where("alarm.plant_uid", "in", part!))
          .execute(),
      ),
    )
  ).flat();
  if (!active.length) return { steps: 0, deliveries: 0 };
  const [stored, paths] = await Promise.all([storedLadders(db), groupPaths(db)]);
  const sent = new Set<string>();
  const seqs = active.map((a) => Number(a.seq));
  for (let i = 0; i < seqs.length; i += CHUNK) {
    const rows = await db
      .selectFrom("alarm_escalation")
      .select(["alarm_seq", "active_since", "step"])
      .where("alarm_seq", "in", seqs.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) sent.add(`${Number(r.alarm_seq)}:${Number(r.active_since)}:${Number(r.step)}`);
  }
  let steps = 0;
  let deliveries = 0;
  for (const a of active) {
    const seq = Number(a.seq);
    const since = Number(a.active_since ?? a.raised_at);
    const path = a.node_seq === null ? [] : (paths.get(Number(a.node_seq)) ?? []);
    const ladder = ladderOf(a.plant_uid, path, stored).steps;
    const due = dueSteps(ladder, since, now).filter((i) => !sent.has(`${seq}:${since}:${i}`));
    for (const index of due) {
      await db.transaction().execute(async (trx) => {
        // A write to the alarm's row: an acknowledgement in flight is waited for, and one already made is seen.
        const still = await trx
          .updateTable("alarm")
          .set((eb) => ({ toggles: eb.ref("toggles") }))
          .where("seq", "=", seq)
          .where("released_at", "is", null)
          .where("ack_at", "is", null)
          .where((eb) => eb(eb.fn.coalesce("active_since", "raised_at"), "=", since))
          .executeTakeFirst();
        if (Number(still.numUpdatedRows) !== 1) return;
        const step = ladder[index]!;
        const row = await trx
          .insertInto("alarm_escalation")
          .values({ alarm_seq: seq, active_since: since, step: index, at: now, recipients: 0 })
          .onConflict((oc) => oc.columns(["alarm_seq", "active_since", "step"]).doNothing())
          .executeTakeFirst();
        if (Number(row.numInsertedOrUpdatedRows ?? 0) !== 1) return;
        const n = await enqueueLadderStep(
          trx,
          { index, roles: step.roles, activeSince: since, reactivated: since !== Number(a.raised_at) },
          {
            seq,
            plant_uid: a.plant_uid,
            device_uid: a.device_uid,
            rtu_uid: a.rtu_uid,
            code: Number(a.code),
            level: Number(a.level),
            message: storedAlarmMessage(a.message_code, a.message_params, a.message),
            raised_at: Number(a.raised_at),
          },
          // Quiet hours are the recipient's wall clock (the engine's may run faster in a demo).
          Date.now(),
          portalUrl,
        );
        await trx
          .updateTable("alarm_escalation")
          .set({ recipients: n })
          .where("alarm_seq", "=", seq)
          .where("active_since", "=", since)
          .where("step", "=", index)
          .execute();
        steps++;
        deliveries += n;
      });
    }
  }
  return { steps, deliveries };
}
