/**
 * A small fleet for the diagram, custom page and help tests (API and e2e): plant A on node A with a VCB, an
 * ACB (open), two inverters (one faulted: DC ground fault), a connection board with a weak string and a
 * sensor; plant B on node B; members at several levels. Readings go through the real ingest.
 */
import { randomBytes } from "node:crypto";
import { hashGatewaySecret, newGatewaySecret } from "../../api/auth/gateway-credential";
import { createMember, type MemberFixture, type Store } from "../helpers/fixtures";
import { postReadings, slotAt, type FixturePlant } from "./pvstatus-fixture";

function midnightLongitude(): number {
  const d = new Date();
  let lng = (24 - (d.getUTCHours() + d.getUTCMinutes() / 60)) * 15;
  while (lng > 180) lng -= 360;
  while (lng < -180) lng += 360;
  return lng;
}

export interface DiagramFleet {
  tag: string;
  pa: FixturePlant;
  pb: FixturePlant;
  dev: (key: string) => string;
  admin: MemberFixture;
  viewer: MemberFixture;
  guest: MemberFixture;
  other: MemberFixture;
  noFlags: MemberFixture;
}

export async function createDiagramFleet(store: Store, baseUrl: string): Promise<DiagramFleet> {
  const tag = randomBytes(3).toString("hex").toUpperCase();
  const now = Date.now();
  const root = await store.db
    .selectFrom("node")
    .select("seq")
    .where("parent_seq", "is", null)
    .orderBy("seq")
    .executeTakeFirstOrThrow();
  const node = async (name: string) =>
    Number(
      (
        await store.db
          .insertInto("node")
          .values({ parent_seq: root.seq, name, sort_order: 0, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq,
    );
  const nodeA = await node(`단선도A ${tag}`);
  const nodeB = await node(`단선도B ${tag}`);
  const lng = midnightLongitude();
  const dev = (key: string) => `DG${tag}${key}`;
  const plant = async (
    key: string,
    name: string,
    nodeSeq: number,
    devices: Array<{ kind: number; k: string; name: string }>,
  ): Promise<FixturePlant> => {
    const uid = `PG${tag}${key}`;
    const rtu = `RG${tag}${key}`;
    const secret = newGatewaySecret();
    await store.db
      .insertInto("plant")
      .values({
        uid,
        name,
        alias: null,
        capa: 10_000,
        locality: "전라남도 해남군",
        address: null,
        lat: 36,
        lng,
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
        alias: null,
        name: `RTU ${name}`,
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
    await store.db
      .insertInto("device")
      .values(
        devices.map((d, i) => ({
          uid: dev(d.k),
          rtu_uid: rtu,
          plant_uid: uid,
          kind: d.kind,
          name: d.name,
          address: i + 1,
          capa: d.kind === 1 ? 5_000 : null,
          use_yn: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    return {
      key,
      uid,
      name,
      rtu,
      secret,
      capaKw: 100,
      inverters: devices.filter((d) => d.kind === 1).map((d) => dev(d.k)),
      sensor: null,
    } as FixturePlant;
  };
  const pa = await plant("A", "단선 가", nodeA, [
    { kind: 1, k: "AI1", name: "인버터 1" },
    { kind: 1, k: "AI2", name: "인버터 2" },
    { kind: 2, k: "AB1", name: "접속반 1" },
    { kind: 4, k: "AE", name: "기상 센서" },
    { kind: 7, k: "AV", name: "VCB 수전반" },
    { kind: 8, k: "AC", name: "ACB 배전반" },
  ]);
  const pb = await plant("B", "단선 나", nodeB, [
    { kind: 1, k: "BI1", name: "인버터 1" },
    { kind: 4, k: "BE", name: "센서" },
  ]);
  const t0 = slotAt(0);
  await postReadings(baseUrl, pa, [
    { device: dev("AI1"), ts: t0, values: { iw: 20_000, today_wh: 50_000, total_wh: 900_000 } },
    { device: dev("AI2"), ts: t0, values: { iw: 0, today_wh: 10_000, total_wh: 800_000, fault_code: 512 } },
    { device: dev("AB1"), ts: t0, values: { v: 700, total_a: 25, channels: [8, 8, 1, 8] } },
    { device: dev("AE"), ts: t0, values: { his: 0, iis: 0, sts: 12, ats: 8 } },
    { device: dev("AV"), ts: t0, values: { v: 22_900, a: 1, w: 20_000, pf: 0.99, state: 1, gf_ma: 2.5 } },
    { device: dev("AC"), ts: t0, values: { v: 380, a: 0, w: 0, pf: 0, state: 0, gf_ma: 0.4 } },
  ]);
  await postReadings(baseUrl, pb, [{ device: dev("BI1"), ts: t0, values: { iw: 5_000, today_wh: 1_000, total_wh: 10_000 } }]);
  return {
    tag,
    pa,
    pb,
    dev,
    admin: await createMember(store, { node_seq: nodeA, auth: 2 }),
    viewer: await createMember(store, { node_seq: nodeA, auth: 1 }),
    guest: await createMember(store, { node_seq: nodeA, auth: 1, read_only: 1 }),
    other: await createMember(store, { node_seq: nodeB, auth: 2 }),
    noFlags: await createMember(store, { node_seq: nodeA, auth: 2, diagram: 0, page: 0, service: 0 }),
  };
}
