/**
 * Issue 29: /control/log (the tamper-evident command and acknowledgement log) and /alarm/figures, with JavaScript on
 * and off (projects js and nojs): a command sent through the API shows in the log of its plant found by name, the
 * chain's verification is said in words, the CSV export carries the entry; the figures page shows the hand-made
 * alarms' figures of its plant.
 */
import { randomBytes } from "node:crypto";
import { COMMAND_HEX } from "../../domain/contract/alarm";
import { formatSeoul } from "../../domain/seoul-time";
import { serviceMask } from "../../domain/service-bits";
import { createMember } from "../helpers/fixtures";
import { createGatewayFixture } from "../helpers/telemetry";
import { apiLogin, expect, test } from "./fixtures";

test("the command log of a plant found by name, its verification in words, its CSV; the plant's alarm figures", async ({
  page,
  store,
  server,
  loginByCookie,
}) => {
  const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
  const { seq: nodeSeq } = await store.db
    .insertInto("node")
    .values({ parent_seq: root.seq, name: `기록 ${randomBytes(2).toString("hex")}`, sort_order: 0, created_at: Date.now() })
    .returning("seq")
    .executeTakeFirstOrThrow();
  const g = await createGatewayFixture(store, { nodeSeq: Number(nodeSeq) });
  const plant = await store.db.selectFrom("plant").select("name").where("uid", "=", g.plantUid).executeTakeFirstOrThrow();
  const m = await createMember(store, {
    node_seq: Number(nodeSeq),
    service: serviceMask(["control", "deviceOperation", "breakStatus"]),
  });
  const { accessToken } = await apiLogin(server.baseUrl, m.id, m.password);
  const sent = await fetch(`${server.baseUrl}/api/command/hex`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ deviceType: 1, rtuUid: g.rtuUid, deviceUid: g.inverters[0], ch: 0, hexOff: COMMAND_HEX.off }),
  });
  expect(sent.status).toBe(200);
  const now = Date.now();
  await store.db
    .insertInto("alarm")
    .values({
      plant_uid: g.plantUid,
      rtu_uid: null,
      device_uid: null,
      code: 1000006,
      level: 3,
      fault_code: null,
      message: "test",
      raised_at: now - 20 * 60_000,
      released_at: now - 15 * 60_000,
    })
    .execute();

  await loginByCookie(m.id, m.password);
  await page.goto("/control");
  await page.getByRole("link", { name: "명령·확인 기록과 위변조 검증" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "명령·확인 기록" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /온전함|손상됨/ })).toBeVisible();
  await page.getByLabel("발전소", { exact: true }).fill(plant.name);
  await page.getByRole("button", { name: "보기" }).click();
  await expect(page).toHaveURL(new RegExp(`plant=${g.plantUid}`));
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(3); // header, the command, the gateway's answer
  await expect(table.getByRole("cell", { name: "게이트웨이 응답" })).toBeVisible();
  await expect(table.getByRole("cell", { name: "명령", exact: true })).toBeVisible();

  const href = await page.getByRole("link", { name: "CSV 내보내기" }).getAttribute("href");
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text.charCodeAt(0)).toBe(0xfeff);
  expect(text).toContain(plant.name);
  expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);

  await page.goto(`/alarm?plant=${g.plantUid}&start=${formatSeoul(now, "YYYY-MM-DD")}&end=${formatSeoul(now, "YYYY-MM-DD")}`);
  await page.getByRole("link", { name: "알람 지표" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "알람 지표" })).toBeVisible();
  await expect(page.getByText(`범위: ${plant.name}`)).toBeVisible();
  const total = page.getByRole("region", { name: "전체" });
  // One alarm, cleared after 5 minutes without an acknowledgement: a nuisance alarm; one plant, one day: 100.
  await expect(total.getByRole("cell", { name: /^100(\.0)?% \(1\)$/ })).toBeVisible();
  await expect(total.getByRole("cell", { name: /^5(\.0)?분$/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "코드별" }).getByRole("rowheader", { name: /1000006/ })).toBeVisible();
});

test("a member routes their alerts to one plant by name on /modify, with codes; a name that matches nothing is said", async ({
  page,
  store,
  loginByCookie,
}) => {
  const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
  const { seq: nodeSeq } = await store.db
    .insertInto("node")
    .values({ parent_seq: root.seq, name: `경로 ${randomBytes(2).toString("hex")}`, sort_order: 0, created_at: Date.now() })
    .returning("seq")
    .executeTakeFirstOrThrow();
  const g = await createGatewayFixture(store, { nodeSeq: Number(nodeSeq) });
  const plant = await store.db.selectFrom("plant").select("name").where("uid", "=", g.plantUid).executeTakeFirstOrThrow();
  const m = await createMember(store, { node_seq: Number(nodeSeq), email: `r-${randomBytes(3).toString("hex")}@example.kr` });
  await loginByCookie(m.id, m.password);
  await page.goto("/modify");
  const section = page.getByRole("region", { name: "알림 경로" });
  const first = section.getByRole("group", { name: "경로 1" });
  await first.getByLabel("발전소 또는 그룹 이름").fill("없는 발전소 이름");
  await section.getByRole("button", { name: "알림 경로 저장" }).click();
  await expect(page.getByText("이 이름의 발전소나 그룹을 찾을 수 없습니다.")).toBeVisible();

  await page
    .getByRole("region", { name: "알림 경로" })
    .getByRole("group", { name: "경로 1" })
    .getByLabel("발전소 또는 그룹 이름")
    .fill(plant.name);
  const row = page.getByRole("region", { name: "알림 경로" }).getByRole("group", { name: "경로 1" });
  await row.getByLabel("최소 등급").selectOption("4");
  await row.getByLabel(/알람 코드/).fill("1000006, 1000001");
  await page.getByRole("region", { name: "알림 경로" }).getByRole("button", { name: "알림 경로 저장" }).click();
  await expect(page.getByText("알림 경로를 저장했습니다.")).toBeVisible();
  const saved = page.getByRole("region", { name: "알림 경로" }).getByRole("group", { name: "경로 1" });
  await expect(saved.getByLabel("발전소 또는 그룹 이름")).toHaveValue(plant.name);
  await expect(saved.getByLabel(/알람 코드/)).toHaveValue("1000006, 1000001");
  const stored = await store.db.selectFrom("alert_route").selectAll().where("member_id", "=", m.id).execute();
  expect(stored).toEqual([
    expect.objectContaining({ plant_uid: g.plantUid, min_level: 4, codes: "[1000006,1000001]", mail: 1, webhook: 0 }),
  ]);
});
