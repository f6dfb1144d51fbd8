/**
 * Telemetry fixtures: a plant with an RTU that has a known gateway credential and devices of
 * each kind, created directly in the store; readings then go through the real POST /api/ingest.
 */
import { randomBytes } from "node:crypto";
import { hashGatewaySecret, newGatewaySecret } from "../../api/auth/gateway-credential";
import type { Store } from "../../api/store/db";

export interface GatewayFixture {
  plantUid: string;
  rtuUid: string;
  secret: string;
  /** Device uids by role. */
  inverters: string[];
  env: string;
  board: string;
  vcb: string;
  acb: string;
}

export async function createGatewayFixture(
  store: Store,
  opts: { inverters?: number; capaKw?: number; lat?: number; lng?: number; nodeSeq?: number; locality?: string | null } = {},
): Promise<GatewayFixture> {
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const now = Date.now();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const plantUid = `PT${tag}`;
  const rtuUid = `RT${tag}`;
  const secret = newGatewaySecret();
  const n = opts.inverters ?? 2;
  const capaKw = opts.capaKw ?? 100;
  await store.db
    .insertInto("plant")
    .values({
      uid: plantUid,
      name: `테스트 발전소 ${tag}`,
      alias: null,
      capa: Math.round(capaKw * 100),
      locality: opts.locality ?? "전라남도 해남군",
      address: null,
      lat: opts.lat ?? 34.57,
      lng: opts.lng ?? 126.6,
      node_seq: opts.nodeSeq ?? root.seq,
      package_seq: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await store.db
    .insertInto("rtu")
    .values({
      uid: rtuUid,
      alias: `RTU ${tag}`,
      name: `RTU-${tag}`,
      mac: `02:00:00:${tag.slice(0, 2)}:${tag.slice(2, 4)}:${tag.slice(4, 6)}`.toLowerCase(),
      kind: 1,
      plant_uid: plantUid,
      node_seq: opts.nodeSeq ?? root.seq,
      package_seq: null,
      config: 0,
      credential_hash: hashGatewaySecret(secret),
      use_yn: 1,
      created_at: now,
      updated_at: now,
      last_seen_at: null,
    })
    .execute();
  const dev = (suffix: string, kind: number, name: string, capa: number | null) => ({
    uid: `D${tag}${suffix}`,
    rtu_uid: rtuUid,
    plant_uid: plantUid,
    kind,
    name,
    address: null,
    capa,
    use_yn: 1,
    created_at: now,
    updated_at: now,
  });
  const inverters = Array.from({ length: n }, (_, i) => dev(`I${i}`, 1, `인버터 ${i + 1}`, Math.round((capaKw / n) * 100)));
  const rows = [
    ...inverters,
    dev("E", 4, "기상", null),
    dev("B", 2, "접속반", null),
    dev("V", 7, "VCB", null),
    dev("A", 8, "ACB", null),
  ];
  await store.db.insertInto("device").values(rows).execute();
  return {
    plantUid,
    rtuUid,
    secret,
    inverters: inverters.map((d) => d.uid),
    env: `D${tag}E`,
    board: `D${tag}B`,
    vcb: `D${tag}V`,
    acb: `D${tag}A`,
  };
}

export function gatewayAuth(g: Pick<GatewayFixture, "rtuUid" | "secret">): string {
  return `Basic ${Buffer.from(`${g.rtuUid}:${g.secret}`).toString("base64")}`;
}

export async function postReadings(baseUrl: string, g: GatewayFixture, readings: unknown[], batchId?: string) {
  const res = await fetch(`${baseUrl}/api/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
    body: JSON.stringify({ batchId, readings }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The 10-minute slot `stepsAgo` steps before now. */
export function slot(stepsAgo = 0, now = Date.now()): number {
  return now - (now % 600_000) - stepsAgo * 600_000;
}

/** An inverter's reading values at `iw` watts (a healthy 620 V string, 380 V grid side); `extra` overrides any. */
export const inverterValues = (iw: number, extra: Record<string, unknown> = {}) => ({
  dc_v: 620,
  dc_a: iw / 600,
  dc_w: iw * 1.03,
  ac_v: 380,
  ac_a: iw / 650,
  iw,
  pf: 0.99,
  hz: 60,
  today_wh: 1000,
  total_wh: 5_000_000,
  fault_code: 0,
  ...extra,
});

/** Every device of the gateway reports in the current slot; the first inverter has a DC ground fault (level 4). */
export const groundFaultReadings = (g: GatewayFixture) => [
  { device: g.inverters[0], ts: slot(0), values: inverterValues(0, { fault_code: 512 }) },
  { device: g.inverters[1], ts: slot(0), values: inverterValues(30_000) },
  { device: g.env, ts: slot(0), values: { his: 10, iis: 10, sts: 20, ats: 15 } },
  { device: g.board, ts: slot(0), values: { v: 600, total_a: 50, channels: [6, 6, 6, 6, 6, 6, 7, 7] } },
  { device: g.vcb, ts: slot(0), values: { v: 22_900, a: 1, w: 30_000, state: 1, gf_ma: 2 } },
  { device: g.acb, ts: slot(0), values: { v: 380, a: 45, w: 30_000, state: 1, gf_ma: 1 } },
];
