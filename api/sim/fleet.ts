/**
 * The demo fleet: a group tree several levels deep, plants spread over Korean localities
 * (a few without locality), 1–10 inverters each, environment sensors, connection boards,
 * VCB/ACB breakers, RTUs, and members at each admin level linked to parts of the tree.
 * Deterministic: the same fleet every time, so screenshots and tests can name things.
 */
import { SERVICE_MASK_MAX, serviceMask } from "../../domain/service-bits";
import { hashPassword } from "../auth/password";
import { hashGatewaySecret, newGatewaySecret } from "../auth/gateway-credential";
import type { Store } from "../store/db";
import { Rng } from "./random";

export const DEMO_MEMBER_PASSWORD = "demo1234!";
/** RTU kind of the simulator's in-process gateways; every other kind is a real gateway and is never simulated. */
export const SIMULATED_RTU_KIND = 9;

interface Locality {
  name: string;
  region: string;
  lat: number;
  lng: number;
}

const LOCALITIES: Locality[] = [
  { name: "경기도 화성시", region: "수도권", lat: 37.2, lng: 126.83 },
  { name: "경기도 이천시", region: "수도권", lat: 37.27, lng: 127.44 },
  { name: "충청남도 당진시", region: "충청권", lat: 36.89, lng: 126.63 },
  { name: "충청남도 서산시", region: "충청권", lat: 36.78, lng: 126.45 },
  { name: "충청북도 음성군", region: "충청권", lat: 36.94, lng: 127.69 },
  { name: "전라북도 김제시", region: "호남권", lat: 35.8, lng: 126.88 },
  { name: "전라북도 부안군", region: "호남권", lat: 35.73, lng: 126.73 },
  { name: "전라남도 해남군", region: "호남권", lat: 34.57, lng: 126.6 },
  { name: "전라남도 영암군", region: "호남권", lat: 34.8, lng: 126.7 },
  { name: "전라남도 신안군", region: "호남권", lat: 34.83, lng: 126.1 },
  { name: "경상북도 상주시", region: "영남권", lat: 36.41, lng: 128.16 },
  { name: "경상북도 영천시", region: "영남권", lat: 35.97, lng: 128.94 },
  { name: "경상남도 밀양시", region: "영남권", lat: 35.5, lng: 128.75 },
  { name: "경상남도 합천군", region: "영남권", lat: 35.57, lng: 128.17 },
  { name: "강원도 횡성군", region: "강원·제주", lat: 37.49, lng: 127.98 },
  { name: "제주특별자치도 서귀포시", region: "강원·제주", lat: 33.25, lng: 126.56 },
];

const REGIONS = ["수도권", "충청권", "호남권", "영남권", "강원·제주"];
const COMPANIES: Record<string, string[]> = {
  수도권: ["한빛에너지", "경기솔라"],
  충청권: ["서해태양광", "중부그린파워"],
  호남권: ["남도솔라팜", "새만금에너지", "영산강발전"],
  영남권: ["낙동강솔라", "동부파워"],
  "강원·제주": ["청정에너지"],
};
const SITE_WORDS = ["솔라팜", "태양광발전소", "햇빛발전소", "에너지파크", "솔라파크"];

/** Plant sizes (AC kW) and how many inverters share them, as small Korean plants are built. */
const SIZES: Array<{ kw: number; inverters: [number, number] }> = [
  { kw: 99.8, inverters: [1, 2] },
  { kw: 99.6, inverters: [1, 2] },
  { kw: 199.6, inverters: [2, 4] },
  { kw: 300, inverters: [3, 3] },
  { kw: 499.5, inverters: [5, 5] },
  { kw: 998, inverters: [4, 10] },
  { kw: 1497, inverters: [6, 10] },
  { kw: 2994, inverters: [6, 10] },
];

export interface FleetDevice {
  uid: string;
  kind: 1 | 2 | 4 | 7 | 8;
  name: string;
  rtuUid: string;
  /** Index among the plant's inverters (kind 1) or the inverter a board feeds (kind 2). */
  index: number;
  capaRaw: number | null;
}

export interface FleetPlant {
  uid: string;
  name: string;
  locality: string | null;
  lat: number;
  lng: number;
  capaKw: number;
  inverterKw: number[];
  rtus: string[];
  devices: FleetDevice[];
  nodeSeq?: number;
  companyKey: string;
}

export const hex = (prefix: string, n: number, width = 6) => `${prefix}${n.toString(16).toUpperCase().padStart(width, "0")}`;

/** The fleet's shape, computed without touching the store. */
export function demoFleet(plantCount = 36): FleetPlant[] {
  const rng = new Rng("demo-fleet-v1");
  const plants: FleetPlant[] = [];
  let deviceNo = 1;
  let rtuNo = 1;
  for (let i = 0; i < plantCount; i++) {
    const loc = LOCALITIES[i % LOCALITIES.length]!;
    const size = SIZES[rng.int(0, SIZES.length - 1)]!;
    const n = rng.int(size.inverters[0], size.inverters[1]);
    const inverterKw = Array.from({ length: n }, () => Math.round((size.kw / n) * 10) / 10);
    const town = loc.name.split(" ")[1]!.replace(/[시군]$/, "");
    const uid = hex("P", 0x100 + i);
    // Every 12th plant has no locality recorded: it lands in the "site unspecified" bucket.
    const noLocality = i % 12 === 11;
    const companies = COMPANIES[loc.region]!;
    const company = companies[i % companies.length]!;
    const rtuCount = n > 6 ? 2 : 1;
    const rtus = Array.from({ length: rtuCount }, () => hex("R", 0x1000 + rtuNo++));
    const devices: FleetDevice[] = [];
    const rtuOf = (k: number) => rtus[Math.min(rtuCount - 1, Math.floor((k * rtuCount) / n))]!;
    for (let k = 0; k < n; k++) {
      devices.push({
        uid: hex("D", deviceNo++),
        kind: 1,
        name: `인버터 ${k + 1}호기`,
        rtuUid: rtuOf(k),
        index: k,
        capaRaw: Math.round(inverterKw[k]! * 100),
      });
    }
    for (let k = 0; k < Math.min(n, 4); k++) {
      devices.push({ uid: hex("D", deviceNo++), kind: 2, name: `접속반 ${k + 1}`, rtuUid: rtuOf(k), index: k, capaRaw: null });
    }
    devices.push({ uid: hex("D", deviceNo++), kind: 4, name: "기상 센서", rtuUid: rtus[0]!, index: 0, capaRaw: null });
    if (size.kw >= 998)
      devices.push({ uid: hex("D", deviceNo++), kind: 7, name: "VCB 수전반", rtuUid: rtus[0]!, index: 0, capaRaw: null });
    if (size.kw < 998 && n >= 3)
      devices.push({ uid: hex("D", deviceNo++), kind: 8, name: "ACB 배전반", rtuUid: rtus[0]!, index: 0, capaRaw: null });
    plants.push({
      uid,
      name: `${town} ${SITE_WORDS[i % SITE_WORDS.length]} ${Math.floor(i / LOCALITIES.length) + 1}호`,
      locality: noLocality ? null : loc.name,
      lat: Math.round((loc.lat + rng.uniform(-0.08, 0.08)) * 10_000) / 10_000,
      lng: Math.round((loc.lng + rng.uniform(-0.08, 0.08)) * 10_000) / 10_000,
      capaKw: inverterKw.reduce((a, b) => a + b, 0),
      inverterKw,
      rtus,
      devices,
      companyKey: `${loc.region}/${company}`,
    });
  }
  return plants;
}

/** Writes the demo fleet into an empty store (no plants yet); returns false when there already is one. */
export async function seedDemoFleet(store: Store, fleet = demoFleet()): Promise<boolean> {
  const db = store.db;
  if (await db.selectFrom("plant").select("uid").limit(1).executeTakeFirst()) return false;
  const now = Date.now();
  const root = await db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirstOrThrow();
  const memberHash = await hashPassword(DEMO_MEMBER_PASSWORD);
  await db.transaction().execute(async (trx) => {
    const addNode = async (parent: number, name: string, order: number) =>
      (
        await trx
          .insertInto("node")
          .values({ parent_seq: parent, name, sort_order: order, created_at: now })
          .returning("seq")
          .executeTakeFirstOrThrow()
      ).seq;
    const regionSeq = new Map<string, number>();
    const companySeq = new Map<string, number>();
    for (const [i, region] of REGIONS.entries()) regionSeq.set(region, await addNode(root.seq, region, i));
    for (const [region, companies] of Object.entries(COMPANIES)) {
      for (const [i, company] of companies.entries()) {
        companySeq.set(`${region}/${company}`, await addNode(regionSeq.get(region)!, company, i));
      }
    }
    // One company splits its sites into estates: the tree is four levels deep there.
    const estates = [
      await addNode(companySeq.get("호남권/남도솔라팜")!, "1단지", 0),
      await addNode(companySeq.get("호남권/남도솔라팜")!, "2단지", 1),
    ];
    const packageSeq = (
      await trx.insertInto("package").values({ name: "표준 모니터링" }).returning("seq").executeTakeFirstOrThrow()
    ).seq;
    const premium = (await trx.insertInto("package").values({ name: "프리미엄 O&M" }).returning("seq").executeTakeFirstOrThrow())
      .seq;

    let estateTurn = 0;
    for (const [i, p] of fleet.entries()) {
      let node = companySeq.get(p.companyKey)!;
      if (p.companyKey === "호남권/남도솔라팜") node = estates[estateTurn++ % 2]!;
      p.nodeSeq = node;
      await trx
        .insertInto("plant")
        .values({
          uid: p.uid,
          name: p.name,
          alias: null,
          capa: Math.round(p.capaKw * 100),
          locality: p.locality,
          address: p.locality ? `${p.locality} 일원` : null,
          lat: p.lat,
          lng: p.lng,
          node_seq: node,
          package_seq: i % 3 === 0 ? premium : packageSeq,
          created_at: now,
          updated_at: now,
        })
        .execute();
      for (const [k, rtu] of p.rtus.entries()) {
        await trx
          .insertInto("rtu")
          .values({
            uid: rtu,
            alias: `${p.name} RTU${p.rtus.length > 1 ? ` ${k + 1}` : ""}`,
            name: `RTU-${rtu}`,
            mac: `02:50:56:${rtu.slice(-6, -4)}:${rtu.slice(-4, -2)}:${rtu.slice(-2)}`.toLowerCase(),
            kind: SIMULATED_RTU_KIND,
            plant_uid: p.uid,
            node_seq: node,
            package_seq: packageSeq,
            config: i % 4 === 0 ? 0b0101 : 0b0001,
            // The simulator is an in-process gateway; a real secret is issued when an admin rotates it.
            credential_hash: hashGatewaySecret(newGatewaySecret()),
            use_yn: 1,
            created_at: now,
            updated_at: now,
            last_seen_at: null,
          })
          .execute();
      }
      await trx
        .insertInto("device")
        .values(
          p.devices.map((d, k) => ({
            uid: d.uid,
            rtu_uid: d.rtuUid,
            plant_uid: p.uid,
            kind: d.kind,
            name: d.name,
            address: k + 1,
            capa: d.capaRaw,
            use_yn: 1,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }

    // Members at each admin level, attached to different parts of the tree.
    const members: Array<{ id: string; name: string; auth: number; node: number | null; service: number; plants?: string[] }> = [
      { id: "demo_l0", name: "회원관리 담당", auth: 0, node: root.seq, service: serviceMask(["help"]) },
      {
        id: "demo_l1",
        name: "해남 발전소주",
        auth: 1,
        node: null,
        service: serviceMask(["help", "diagnoseCompare"]),
        plants: fleet.filter((p) => p.locality === "전라남도 해남군").map((p) => p.uid),
      },
      {
        id: "demo_l2",
        name: "수도권 운영",
        auth: 2,
        node: regionSeq.get("수도권")!,
        service: serviceMask(["help", "diagnoseAll", "control"]),
      },
      {
        id: "demo_l3",
        name: "충청권 관제",
        auth: 3,
        node: regionSeq.get("충청권")!,
        service: serviceMask(["help", "diagnoseAll"]),
      },
      {
        id: "demo_l4",
        name: "호남권 운영",
        auth: 4,
        node: regionSeq.get("호남권")!,
        service: serviceMask(["help", "diagnoseAll", "breakStatus"]),
      },
      {
        id: "demo_l5",
        name: "남도솔라팜 관리",
        auth: 5,
        node: companySeq.get("호남권/남도솔라팜")!,
        service: serviceMask(["help", "deviceOperation"]),
      },
      { id: "demo_l6", name: "RTU 담당", auth: 6, node: root.seq, service: serviceMask(["help", "control", "deviceOperation"]) },
      { id: "demo_l7", name: "영남권 관제", auth: 7, node: regionSeq.get("영남권")!, service: serviceMask(["help"]) },
      {
        id: "demo_l8",
        name: "강원·제주 운영",
        auth: 8,
        node: regionSeq.get("강원·제주")!,
        service: serviceMask(["help", "diagnoseAll"]),
      },
      { id: "demo_l9", name: "통합 관제", auth: 9, node: root.seq, service: SERVICE_MASK_MAX },
    ];
    for (const m of members) {
      await trx
        .insertInto("member")
        .values({
          id: m.id,
          password_hash: memberHash,
          name: m.name,
          auth: m.auth,
          service: m.service,
          node_seq: m.node,
          use_yn: 1,
          pwd_yn: 0,
          read_only: 0,
          logo: null,
          phone: null,
          email: null,
          helmet_name: null,
          diagram: 0,
          cctv: 0,
          page: 0,
          created_at: now,
          updated_at: now,
          password_changed_at: null,
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
      for (const plant of m.plants ?? []) {
        await trx.insertInto("member_plant").values({ member_id: m.id, plant_uid: plant, created_at: now }).execute();
      }
    }
  });
  return true;
}
