/**
 * What the watch screen, the monitoring screen and the detail window read about plants beyond
 * plantStatusRows: the member's node tree, each plant's device operation and warning totals
 * (domain/operation-totals.ts says what each count means) and the grid side's newest readings.
 * Reads only device_latest and open alarms, never history.
 */
import type { Kysely } from "kysely";
import { buildTree, type TreeNode, type TreeNodeRow } from "../../domain/group-tree";
import {
  addOperationTotals,
  addWarningTotals,
  emptyOperationTotals,
  emptyWarningTotals,
  operationTotals,
  warningTotals,
  type DeviceState,
  type OperationTotals,
  type WarningTotals,
} from "../../domain/operation-totals";
import { ALARM_CODE } from "../../domain/status";
import { gridPoint, type GridReading } from "../../domain/monitoring";
import { treeSeqs, type Reach } from "./visibility";
import type { Database } from "./schema";

const CHUNK = 500;
function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export interface NodeRow extends TreeNodeRow {}

/** The member's node and everything under it, as a forest with one root (or none without a node). */
export async function viewerTree(db: Kysely<Database>, reach: Reach): Promise<{ rows: NodeRow[]; forest: TreeNode<NodeRow>[] }> {
  const seqs = await treeSeqs(db, reach);
  if (!seqs.length) return { rows: [], forest: [] };
  const rows: NodeRow[] = [];
  for (const part of chunks(seqs)) {
    const found = await db
      .selectFrom("node")
      .select(["seq", "parent_seq", "name", "sort_order"])
      .where("seq", "in", part)
      .execute();
    rows.push(
      ...found.map((r) => ({
        seq: Number(r.seq),
        parent_seq: r.parent_seq === null ? null : Number(r.parent_seq),
        name: r.name,
        sort_order: Number(r.sort_order),
      })),
    );
  }
  // The member's own node is the root even when it has a parent above the member's reach.
  const forest = buildTree(rows.map((r) => (r.seq === reach.nodeSeq ? { ...r, parent_seq: null } : r)));
  return { rows, forest };
}

export interface PlantOperation {
  op: OperationTotals;
  warn: WarningTotals;
}

/** Operation and warning totals of each plant (every plant of the input has an entry). */
export async function plantOperations(
  db: Kysely<Database>,
  plantUids: readonly string[],
  now: number,
): Promise<Map<string, PlantOperation>> {
  const out = new Map<string, PlantOperation>();
  for (const uid of plantUids) out.set(uid, { op: emptyOperationTotals(), warn: emptyWarningTotals() });
  for (const part of chunks(plantUids)) {
    const devices = await db
      .selectFrom("device")
      .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select([
        "device.uid",
        "device.kind",
        "device.plant_uid",
        "device.rtu_uid",
        "device_latest.ts",
        "device_latest.iw",
        "device_latest.iis",
        "device_latest.his",
        "device_latest.state",
        "device_latest.values_json",
      ])
      .where("device.plant_uid", "in", part)
      .where("device.use_yn", "=", 1)
      .execute();
    const alarms = await db
      .selectFrom("alarm")
      .select(["plant_uid", "device_uid", "rtu_uid", "code", "level"])
      .where("plant_uid", "in", part)
      .where("released_at", "is", null)
      .execute();
    const faultedDevices = new Set(alarms.map((a) => a.device_uid).filter((u): u is string => !!u));
    const silentRtus = new Set(
      alarms.filter((a) => a.code === ALARM_CODE.internetDisconnected && a.rtu_uid).map((a) => a.rtu_uid as string),
    );
    const kindOf = new Map(devices.map((d) => [d.uid, Number(d.kind)]));
    const states = new Map<string, DeviceState[]>();
    for (const d of devices) {
      const kind = Number(d.kind);
      let a: number | null = null;
      if (kind === 2 && d.values_json) {
        try {
          const v = JSON.parse(d.values_json) as { total_a?: unknown };
          a = typeof v.total_a === "number" ? v.total_a : null;
        } catch {
          a = null;
        }
      }
      const list = states.get(d.plant_uid!) ?? [];
      list.push({
        kind,
        ts: d.ts === null ? null : Number(d.ts),
        w: d.iw,
        iis: d.iis,
        his: d.his,
        a,
        state: d.state,
        faulted: faultedDevices.has(d.uid) || (!!d.rtu_uid && silentRtus.has(d.rtu_uid)),
      });
      states.set(d.plant_uid!, list);
    }
    const alarmsByPlant = new Map<string, Array<{ deviceKind: number | null; level: number }>>();
    for (const a of alarms) {
      const list = alarmsByPlant.get(a.plant_uid) ?? [];
      list.push({ deviceKind: a.device_uid ? (kindOf.get(a.device_uid) ?? null) : null, level: Number(a.level) });
      alarmsByPlant.set(a.plant_uid, list);
    }
    for (const uid of part) {
      out.set(uid, { op: operationTotals(states.get(uid) ?? [], now), warn: warningTotals(alarmsByPlant.get(uid) ?? []) });
    }
  }
  return out;
}

export function sumOperations(list: Iterable<PlantOperation | undefined>): PlantOperation {
  let op = emptyOperationTotals();
  let warn = emptyWarningTotals();
  for (const x of list) {
    if (!x) continue;
    op = addOperationTotals(op, x.op);
    warn = addWarningTotals(warn, x.warn);
  }
  return { op, warn };
}

export interface GridSummary {
  /** Grid-side devices in use: connection boards, VCB, ACB. */
  devices: number;
  /** …of which reported within FRESH_MS. */
  reporting: number;
  /** Newest grid reading, epoch ms. */
  time: number | null;
  /** Power at the grid connection, W (VCB, else ACB; domain/monitoring.ts gridPoint); null without a reporting breaker. */
  w: number | null;
  /** Voltage at the grid connection (VCB, else ACB, else the boards), V; null without any fresh reading. */
  v: number | null;
  vKind?: number | null;
  /** Board current, A (sum over fresh boards). */
  a: number;
  closed: number;
  open: number;
}

/** The grid side's newest readings per plant (monitoring 'grid' tab). Plants without grid devices are absent. */
export async function gridSummaries(
  db: Kysely<Database>,
  plantUids: readonly string[],
  now: number,
  freshMs: number,
): Promise<Map<string, GridSummary>> {
  const out = new Map<string, GridSummary>();
  for (const part of chunks(plantUids)) {
    const rows = await db
      .selectFrom("device")
      .leftJoin("device_latest", "device_latest.device_uid", "device.uid")
      .select([
        "device.plant_uid",
        "device.kind",
        "device_latest.ts",
        "device_latest.iw",
        "device_latest.state",
        "device_latest.values_json",
      ])
      .where("device.plant_uid", "in", part)
      .where("device.kind", "in", [2, 7, 8])
      .where("device.use_yn", "=", 1)
      .execute();
    const fresh = new Map<string, GridReading[]>();
    for (const r of rows) {
      const uid = r.plant_uid!;
      const s = out.get(uid) ?? { devices: 0, reporting: 0, time: null, w: null, v: null, a: 0, closed: 0, open: 0 };
      s.devices += 1;
      const ts = r.ts === null ? null : Number(r.ts);
      if (ts !== null) s.time = Math.max(s.time ?? 0, ts);
      if (ts !== null && now - ts <= freshMs) {
        s.reporting += 1;
        let values: Record<string, unknown> = {};
        try {
          values = r.values_json ? (JSON.parse(r.values_json) as Record<string, unknown>) : {};
        } catch {
          values = {};
        }
        const num = (k: string) => (typeof values[k] === "number" && Number.isFinite(values[k]) ? (values[k] as number) : null);
        const kind = Number(r.kind);
        fresh.set(uid, [
          ...(fresh.get(uid) ?? []),
          { kind, v: num("v"), w: kind === 2 ? null : r.iw === null ? null : Number(r.iw) },
        ]);
        if (kind === 2) s.a += num("total_a") ?? 0;
        else if (r.state === 1) s.closed += 1;
        else if (r.state === 0) s.open += 1;
      }
      out.set(uid, s);
    }
    for (const [uid, readings] of fresh) Object.assign(out.get(uid)!, gridPoint(readings));
  }
  // Two decimals are what a meter shows; the sums would otherwise carry float noise (42.349999…).
  const r2 = (x: number) => Math.round(x * 100) / 100;
  for (const s of out.values()) {
    if (s.w !== null) s.w = r2(s.w);
    s.a = r2(s.a);
    if (s.v !== null) s.v = r2(s.v);
  }
  return out;
}

/** Hex form of a plant uid (SPEC §3 hex_plant_uid), as the RTU list does for RTU uids. */
export function plantHex(uid: string): string {
  return Buffer.from(uid, "utf8").toString("hex");
}

/** RTUs of these nodes that belong to no plant, by name (the watch screen lists them under the plants). */
export async function rtusWithoutPlant(
  db: Kysely<Database>,
  nodeSeqs: readonly number[],
): Promise<Array<{ uid: string; name: string; alias: string | null; mac: string | null; node_seq: number | null }>> {
  if (!nodeSeqs.length) return [];
  const rows = await db
    .selectFrom("rtu")
    .select(["uid", "name", "alias", "mac", "node_seq"])
    .where("node_seq", "in", [...nodeSeqs])
    .where("plant_uid", "is", null)
    .orderBy("name")
    .execute();
  return rows.map((x) => ({ ...x, node_seq: x.node_seq === null ? null : Number(x.node_seq) }));
}
