/**
 * A small plant-status fleet with exact, known numbers, shared by the pvstatus API tests and e2e specs.
 * Plants, RTUs (with a known gateway secret) and devices are inserted directly; every reading goes
 * through the real POST /api/ingest, and the alarms come from the real alarm engine.
 *
 *   under the member's own node:
 *     가람 정상 1     100 kW, 2 inverters + sensor  28 + 26 kW now        → normal (2)
 *     나래 정상 2     200 kW, 1 inverter            150 kW now (250 kW a step earlier: capped at 200 in the series)
 *     다온 무발전     50 kW                         0 kW now             → notWork (1)
 *     라온 무자료     30 kW                         no reading ever      → no data (0, counted as notWork)
 *     마루 인버터고장 100 kW + sensor               fault code 1         → warning_1000006 (6)
 *     바다 통신장애   100 kW, 2 inverters + sensor  one inverter silent  → warning_1000001 (4)
 *     사랑 끊김       100 kW                        RTU silent for 2 h   → warning / 1000003 (3)
 *     아라 저발전     100 kW + sensor, solar noon   2 kW under 800 W/m²  → warning_1000004 (5)
 *   under another node: 자바 남의것 (never visible) and 차차 연결 (visible through a member–plant link, no data)
 */
import { seoulDayIndex } from "../../domain/seoul-clock";
import { randomBytes } from "node:crypto";
import { hashGatewaySecret, newGatewaySecret } from "../../api/auth/gateway-credential";
import type { Store } from "../../api/store/db";
import { createMember, type MemberFixture } from "../helpers/fixtures";
import { waitFor } from "../helpers/wait";

export const STEP = 600_000;
export const slotAt = (stepsAgo = 0, now = Date.now()) => now - (now % STEP) - stepsAgo * STEP;

/** A longitude where it is solar noon now (the sun is high at latitude 36). */
export function noonLongitude(): number {
  const d = new Date();
  let lng = (12 - (d.getUTCHours() + d.getUTCMinutes() / 60)) * 15;
  while (lng > 180) lng -= 360;
  while (lng < -180) lng += 360;
  return lng;
}

export interface FixturePlant {
  key: string;
  uid: string;
  name: string;
  rtu: string;
  secret: string;
  inverters: string[];
  sensor: string | null;
  capaKw: number;
}

export interface PvFleet {
  tag: string;
  member: MemberFixture;
  nodeSeq: number;
  plants: Record<string, FixturePlant>;
  /** Plants the member may see. */
  visible: string[];
  /** The slots the readings were posted at: now's, 10 and 20 minutes before (slotAt(0), slotAt(1), slotAt(2)). */
  slots: [number, number, number];
  /**
   * Whether the three slots fall on one Seoul day. In the first 20 minutes after Seoul midnight the earlier readings
   * belong to yesterday: today's series, the month's and the year's sums are then rightly different, and the checks
   * written for one day's readings say so and stand aside.
   */
  oneSeoulDay: boolean;
}

/** Skips a check of one Seoul day's readings when the fixture's slots cross Seoul midnight (PvFleet.oneSeoulDay). */
export function needsOneSeoulDay(fleet: PvFleet, skip: (note: string) => void): void {
  if (!fleet.oneSeoulDay) {
    skip(`the fixture's readings (${fleet.slots.map((t) => new Date(t).toISOString()).join(", ")}) cross Seoul midnight`);
  }
}

interface PlantSpec {
  key: string;
  name: string;
  capaKw: number;
  inverters: number;
  sensor: boolean;
  lat?: number;
  lng?: number;
  locality?: string | null;
  node: "own" | "other";
}

export const FLEET_SPECS: PlantSpec[] = [
  {
    key: "n1",
    name: "가람 정상 1",
    capaKw: 100,
    inverters: 2,
    sensor: true,
    locality: "전라남도 해남군",
    lat: 34.57,
    lng: 126.6,
    node: "own",
  },
  {
    key: "n2",
    name: "나래 정상 2",
    capaKw: 200,
    inverters: 1,
    sensor: false,
    locality: "경상북도 상주시",
    lat: 36.41,
    lng: 128.16,
    node: "own",
  },
  {
    key: "x1",
    name: "다온 무발전",
    capaKw: 50,
    inverters: 1,
    sensor: false,
    locality: "충청남도 당진시",
    lat: 36.89,
    lng: 126.63,
    node: "own",
  },
  {
    key: "x0",
    name: "라온 무자료",
    capaKw: 30,
    inverters: 1,
    sensor: false,
    locality: null,
    lat: 35.8,
    lng: 126.88,
    node: "own",
  },
  {
    key: "f6",
    name: "마루 인버터고장",
    capaKw: 100,
    inverters: 1,
    sensor: true,
    locality: "경기도 화성시",
    lat: 37.2,
    lng: 126.83,
    node: "own",
  },
  {
    key: "f1",
    name: "바다 통신장애",
    capaKw: 100,
    inverters: 2,
    sensor: true,
    locality: "강원도 횡성군",
    lat: 37.49,
    lng: 127.98,
    node: "own",
  },
  {
    key: "f3",
    name: "사랑 끊김",
    capaKw: 100,
    inverters: 1,
    sensor: false,
    locality: "경상남도 밀양시",
    lat: 35.5,
    lng: 128.75,
    node: "own",
  },
  { key: "f4", name: "아라 저발전", capaKw: 100, inverters: 1, sensor: true, locality: "해외 시험장", lat: 36, node: "own" },
  {
    key: "out",
    name: "자바 남의것",
    capaKw: 100,
    inverters: 1,
    sensor: false,
    locality: "제주특별자치도 서귀포시",
    lat: 33.25,
    lng: 126.56,
    node: "other",
  },
  {
    key: "link",
    name: "차차 연결",
    capaKw: 40,
    inverters: 1,
    sensor: false,
    locality: "전라북도 김제시",
    lat: 35.8,
    lng: 126.9,
    node: "other",
  },
];

async function insertPlant(store: Store, spec: PlantSpec, nodeSeq: number, tag: string, i: number): Promise<FixturePlant> {
  const now = Date.now();
  const uid = `PV${tag}${i}`;
  const rtu = `RV${tag}${i}`;
  const secret = newGatewaySecret();
  await store.db
    .insertInto("plant")
    .values({
      uid,
      name: spec.name,
      alias: null,
      capa: Math.round(spec.capaKw * 100),
      locality: spec.locality ?? null,
      address: null,
      lat: spec.lat ?? 36,
      lng: spec.lng ?? noonLongitude(),
      node_seq: nodeSeq,
      package_seq: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await store.db
    .insertInto("rtu")
    .values({
      uid: rtu,
      alias: `RTU ${spec.name}`,
      name: `RTU-${rtu}`,
      mac: null,
      kind: 1,
      plant_uid: uid,
      node_seq: nodeSeq,
      package_seq: null,
      config: 0,
      credential_hash: hashGatewaySecret(secret),
      use_yn: 1,
      created_at: now,
      updated_at: now,
      last_seen_at: null,
    })
    .execute();
  const inverters = Array.from({ length: spec.inverters }, (_, k) => `DV${tag}${i}I${k}`);
  const sensor = spec.sensor ? `DV${tag}${i}E` : null;
  const rows = inverters.map((d, k) => ({
    uid: d,
    rtu_uid: rtu,
    plant_uid: uid,
    kind: 1,
    name: `인버터 ${k + 1}`,
    address: k + 1,
    capa: Math.round((spec.capaKw / spec.inverters) * 100),
    use_yn: 1,
    created_at: now,
    updated_at: now,
  }));
  if (sensor)
    rows.push({
      uid: sensor,
      rtu_uid: rtu,
      plant_uid: uid,
      kind: 4,
      name: "기상",
      address: 9,
      capa: null as never,
      use_yn: 1,
      created_at: now,
      updated_at: now,
    });
  await store.db.insertInto("device").values(rows).execute();
  return { key: spec.key, uid, name: spec.name, rtu, secret, inverters, sensor, capaKw: spec.capaKw };
}

export async function postReadings(baseUrl: string, p: FixturePlant, readings: unknown[]) {
  const res = await fetch(`${baseUrl}/api/ingest`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Basic ${Buffer.from(`${p.rtu}:${p.secret}`).toString("base64")}`,
    },
    body: JSON.stringify({ readings }),
  });
  const body = (await res.json()) as { accepted: number; rejected: unknown[] };
  if (res.status !== 200 || body.rejected.length) throw new Error(`ingest ${p.uid}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const inv = (device: string, ts: number, iw: number, extra: Record<string, number> = {}) => ({
  device,
  ts,
  values: { iw, ...extra },
});
const env = (device: string, ts: number, values: Record<string, number>) => ({ device, ts, values });

/** Creates the fleet, a member on its node, and sends the readings. Alarms follow from the engine. */
export async function createPvFleet(store: Store, baseUrl: string): Promise<PvFleet> {
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const mk = async (name: string) =>
    (
      await store.db
        .insertInto("node")
        .values({ parent_seq: root.seq, name, sort_order: 0, created_at: Date.now() })
        .returning("seq")
        .executeTakeFirstOrThrow()
    ).seq;
  const nodeSeq = await mk(`발전현황 ${tag}`);
  const otherSeq = await mk(`남의 그룹 ${tag}`);
  const plants: Record<string, FixturePlant> = {};
  for (const [i, spec] of FLEET_SPECS.entries()) {
    plants[spec.key] = await insertPlant(store, spec, spec.node === "own" ? nodeSeq : otherSeq, tag, i);
  }
  const member = await createMember(store, { node_seq: nodeSeq, auth: 1, name: `현황 ${tag}` });
  await store.db
    .insertInto("member_plant")
    .values({ member_id: member.id, plant_uid: plants.link!.uid, created_at: Date.now() })
    .execute();

  const t0 = slotAt(0);
  const t1 = slotAt(1);
  const t2 = slotAt(2);
  const { n1, n2, x1, f6, f1, f3, f4, out } = plants as Record<string, FixturePlant>;
  await postReadings(baseUrl, n1!, [
    inv(n1!.inverters[0]!, t2, 10_000, { today_wh: 20_000, total_wh: 1_000_000 }),
    inv(n1!.inverters[1]!, t2, 9_000, { today_wh: 15_000, total_wh: 2_000_000 }),
    inv(n1!.inverters[0]!, t0, 28_000, { today_wh: 40_000, total_wh: 1_020_000 }),
    inv(n1!.inverters[1]!, t0, 26_000, { today_wh: 30_000, total_wh: 2_015_000 }),
    env(n1!.sensor!, t2, { his: 2_000, iis: 300, sts: 20, ats: 15 }),
    env(n1!.sensor!, t0, { his: 500, iis: 600, sts: 30, ats: 20 }),
  ]);
  await postReadings(baseUrl, n2!, [
    inv(n2!.inverters[0]!, t1, 250_000, { today_wh: 100_000, total_wh: 5_000_000 }),
    inv(n2!.inverters[0]!, t0, 150_000, { today_wh: 125_000, total_wh: 5_025_000 }),
  ]);
  await postReadings(baseUrl, x1!, [inv(x1!.inverters[0]!, t0, 0, { today_wh: 0, total_wh: 10_000 })]);
  await postReadings(baseUrl, f6!, [
    inv(f6!.inverters[0]!, t0, 0, { today_wh: 5_000, total_wh: 50_000, fault_code: 1 }),
    env(f6!.sensor!, t0, { his: 550, iis: 600, sts: 25, ats: 20 }),
  ]);
  await postReadings(baseUrl, f1!, [
    inv(f1!.inverters[0]!, t0, 26_000, { today_wh: 20_000, total_wh: 300_000 }),
    env(f1!.sensor!, t0, { his: 550, iis: 600, sts: 25, ats: 20 }),
  ]);
  await postReadings(baseUrl, f3!, [inv(f3!.inverters[0]!, t0, 40_000, { today_wh: 60_000, total_wh: 400_000 })]);
  // The gateway went quiet two hours ago (set directly: the data plane only ever moves last_seen_at forward).
  await store.db
    .updateTable("rtu")
    .set({ last_seen_at: Date.now() - 2 * 3_600_000 })
    .where("uid", "=", f3!.rtu)
    .execute();
  await postReadings(baseUrl, f4!, [
    inv(f4!.inverters[0]!, t0, 2_000, { today_wh: 3_000, total_wh: 30_000 }),
    env(f4!.sensor!, t0, { his: 700, iis: 800, sts: 25, ats: 20 }),
  ]);
  await postReadings(baseUrl, out!, [inv(out!.inverters[0]!, t0, 80_000, { today_wh: 90_000, total_wh: 900_000 })]);
  const visible = FLEET_SPECS.filter((s) => s.key !== "out").map((s) => plants[s.key]!.uid);
  return { tag, member, nodeSeq, plants, visible, slots: [t0, t1, t2], oneSeoulDay: seoulDayIndex(t2) === seoulDayIndex(t0) };
}

/** The counts the fleet settles to once the alarm engine has run (SPEC §3 Status counts). */
export const SETTLED_COUNTS = {
  warningCount: 4,
  warning_1000003_Count: 1,
  warning_1000001_Count: 1,
  warning_1000006_Count: 1,
  warning_1000004_Count: 1,
  normalCount: 2,
  notWorkCount: 3,
};

/**
 * Waits until the alarm engine has settled the fleet: every alarm code the fleet is built to raise is open
 * (ingest triggers the engine; the 1000003 gateway needs one evaluation pass).
 */
export async function settleAlarms(store: Store, fleet: PvFleet, ms = 45_000): Promise<void> {
  let codes = new Set<number>();
  await waitFor(
    async () => {
      const open = await store.db
        .selectFrom("alarm")
        .select("code")
        .where("plant_uid", "in", fleet.visible)
        .where("released_at", "is", null)
        .execute();
      codes = new Set(open.map((a) => a.code));
      return [1000001, 1000003, 1000004, 1000006].every((c) => codes.has(c));
    },
    { ms, every: 300, failure: () => `alarms did not settle: ${[...codes].join(",")}` },
  );
}
