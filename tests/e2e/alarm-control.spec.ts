/**
 * /alarm and /control with JavaScript on and off (projects js and nojs): level and period filters from a bookmarked
 * URL, the plant picked by its name and removed by its chip, acknowledging an alarm with a note, the CSV export, an inverter switched off (its output falls to zero on
 * the status screens), a breaker tripped (typed confirmation) and closed again, and screenshots of both screens.
 * One plant per worker fed through the real ingest; its inverter fault is raised by the real alarm engine; past
 * (cleared) alarms are written to the store. A gateway on the machine's MQTT broker carries the commands out and
 * reports the new readings through the ingest, as a real gateway does.
 */
import { randomBytes } from "node:crypto";
import mqtt from "mqtt";
import { GUEST_ID, GUEST_PASSWORD } from "../../domain/guest";
import { formatSeoul } from "../../domain/seoul-time";
import { serviceMask } from "../../domain/service-bits";
import { createMember } from "../helpers/fixtures";
import { ADMIN_PASSWORD } from "../helpers/server";
import { createGatewayFixture, inverterValues, postReadings, slot, type GatewayFixture } from "../helpers/telemetry";
import { waitFor } from "../helpers/wait";
import { expect, test as base } from "./fixtures";
import { shootAll } from "./status-fixture";
import { answerRendered } from "../helpers/page";

const DAY = 86_400_000;

interface Plant {
  g: GatewayFixture;
  name: string;
  nodeSeq: number;
  yesterday: string;
  gateway: mqtt.MqttClient;
  /** What the gateway does on a command: by default reports the new readings first; `answerOnly` answers alone. */
  mode: { answerOnly: boolean };
  /** Reports the devices' readings now (the state the gateway last carried out). */
  report: () => Promise<void>;
}

const inverter = (iw: number, extra: Record<string, unknown> = {}) => inverterValues(iw, { today_wh: 20_000, ...extra });

const test = base.extend<{ signInAs: (service: number) => Promise<void> }, { plant: Plant }>({
  plant: [
    async ({ store }, use) => {
      const base = process.env.E2E_BASE_URL!;
      const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
      const nodeSeq = Number(
        (
          await store.db
            .insertInto("node")
            .values({
              parent_seq: root.seq,
              name: `알람 ${randomBytes(2).toString("hex")}`,
              sort_order: 0,
              created_at: Date.now(),
            })
            .returning("seq")
            .executeTakeFirstOrThrow()
        ).seq,
      );
      const g = await createGatewayFixture(store, { inverters: 2, capaKw: 100, nodeSeq });
      // What the devices report now; inverter 2 reports a fault (the engine raises 1000006 for it).
      const state = { inv: [30_000, 12_000], vcb: 1, acb: 1 };
      const report = async () => {
        const ts = Date.now();
        const res = await postReadings(base, g, [
          { device: g.inverters[0], ts, values: inverter(state.inv[0]!) },
          { device: g.inverters[1], ts, values: inverter(state.inv[1]!, { fault_code: 2 }) },
          { device: g.env, ts, values: { iis: 800, his: 600, sts: 45, ats: 20 } },
          { device: g.vcb, ts, values: { v: 22_900, a: 1, w: state.vcb ? 42_000 : 0, pf: 0.99, state: state.vcb, gf_ma: 3.2 } },
          { device: g.acb, ts, values: { v: 380, a: 60, w: state.acb ? 42_000 : 0, pf: 0.99, state: state.acb } },
        ]);
        if (res.status !== 200) throw new Error(`ingest ${res.status} ${JSON.stringify(res.body)}`);
      };
      const history = [];
      for (let k = 6; k >= 1; k--) {
        const ts = slot(k);
        history.push(
          { device: g.inverters[0], ts, values: inverter(30_000) },
          { device: g.inverters[1], ts, values: inverter(12_000, { fault_code: 2 }) },
          { device: g.env, ts, values: { iis: 800, his: 600, sts: 45, ats: 20 } },
        );
      }
      const res = await postReadings(base, g, history);
      if (res.status !== 200) throw new Error(`ingest ${res.status} ${JSON.stringify(res.body)}`);
      await report();

      // The gateway: carries a command out, reports the devices' new readings, then answers the portal.
      const mode = { answerOnly: false };
      const prefix = process.env.E2E_MQTT_PREFIX!;
      const gateway = await mqtt.connectAsync(process.env.E2E_MQTT_URL!, {
        clientId: `e2e-gw-${randomBytes(4).toString("hex")}`,
      });
      await gateway.subscribeAsync(`${prefix}/${g.rtuUid}/command`, { qos: 1 });
      gateway.on("message", (_topic, payload) => {
        const cmd = JSON.parse(payload.toString()) as { seq: number; deviceUid: string; action: "on" | "off" };
        const on = cmd.action === "on" ? 1 : 0;
        const i = g.inverters.indexOf(cmd.deviceUid);
        if (i >= 0) state.inv[i] = on ? (i === 0 ? 30_000 : 12_000) : 0;
        if (cmd.deviceUid === g.vcb) state.vcb = on;
        if (cmd.deviceUid === g.acb) state.acb = on;
        void (mode.answerOnly ? Promise.resolve() : report()).then(() =>
          gateway.publishAsync(
            `${prefix}/${g.rtuUid}/command/result`,
            JSON.stringify({ seq: cmd.seq, ok: true, state: on, message: on ? "switched on / closed" : "switched off / opened" }),
            { qos: 1 },
          ),
        );
      });

      // Past alarms, cleared yesterday: one of interest (1), one warning (3) whose message looks like a formula.
      const y0 = new Date(`${formatSeoul(Date.now() - DAY, "YYYY-MM-DD")}T00:00:00+09:00`).getTime();
      const past = (level: number, code: number, at: number, message: string, device: string | null) => ({
        plant_uid: g.plantUid,
        rtu_uid: g.rtuUid,
        device_uid: device,
        code,
        level,
        fault_code: null,
        message,
        raised_at: at,
        released_at: at + 3_600_000,
      });
      await store.db
        .insertInto("alarm")
        .values([
          past(1, 1000001, y0 + 10 * 3_600_000, "past interest", g.env),
          past(3, 1000001, y0 + 12 * 3_600_000, '=HYPERLINK("http://example.invalid","x")', g.inverters[0]!),
        ] as never)
        .execute();
      await waitFor(
        async () =>
          !!(await store.db
            .selectFrom("alarm")
            .select("seq")
            .where("plant_uid", "=", g.plantUid)
            .where("code", "=", 1000006)
            .where("released_at", "is", null)
            .executeTakeFirst()),
        { ms: 60_000, every: 500, failure: () => "the engine did not raise the inverter fault" },
      );
      const plant = await store.db.selectFrom("plant").select("name").where("uid", "=", g.plantUid).executeTakeFirstOrThrow();
      await use({ g, name: plant.name, nodeSeq, yesterday: formatSeoul(y0, "YYYY-MM-DD"), gateway, mode, report });
      await gateway.endAsync();
    },
    { scope: "worker", timeout: 120_000 },
  ],
  signInAs: async ({ store, plant, loginByCookie }, use) =>
    use(async (service) => {
      const m = await createMember(store, { node_seq: plant.nodeSeq, service });
      await loginByCookie(m.id, m.password);
    }),
});

const CONTROL = serviceMask(["control", "deviceOperation", "breakStatus"]);

test.describe("alarm screen", () => {
  test("level and period from a bookmarked URL; the tabs keep the period; today is the default", async ({
    page,
    plant,
    signInAs,
  }) => {
    await signInAs(0);
    const y = plant.yesterday;
    await page.goto(`/alarm?start=${y}&end=${y}&level=1&plant=${plant.g.plantUid}`);
    await expect(page.getByRole("heading", { level: 1, name: "알람" })).toBeVisible();
    const tabs = page.getByRole("navigation", { name: "알람 등급" });
    await expect(tabs.getByRole("link", { name: /관심/ })).toHaveAttribute("aria-current", "page");
    await expect(tabs.getByRole("link", { name: /관심/ })).toContainText("1");
    await expect(tabs.getByRole("link", { name: /전체/ })).toContainText("2");
    await expect(page.locator("#alarm-list-title")).toHaveText(`${y} ~ ${y} · 1건`);
    const rows = page.locator("table.alarm-table tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`${y} 10:00`);
    await expect(rows.first()).toContainText("해제됨");
    await expect(rows.first()).toContainText("관심");
    await expect(page.getByLabel("시작일")).toHaveValue(y);

    await tabs.getByRole("link", { name: /전체/ }).click();
    await expect(page).toHaveURL(new RegExp(`start=${y}.*end=${y}`));
    await expect(page).not.toHaveURL(/level=/);
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText("경고");

    await page.goto(`/alarm?plant=${plant.g.plantUid}`);
    const today = formatSeoul(Date.now(), "YYYY-MM-DD");
    await expect(page.getByLabel("시작일")).toHaveValue(today);
    await expect(page.getByRole("row", { name: /인버터 고장/ }).first()).toContainText("발생 중");

    // The filter form: state "cleared" over yesterday, submitted as a GET form.
    await page.getByLabel("시작일").fill(y);
    await page.getByLabel("종료일").fill(y);
    await page.getByLabel("상태").selectOption("cleared");
    await page.getByRole("button", { name: "검색", exact: true }).click();
    await expect(page).toHaveURL(/status=cleared/);
    await expect(rows).toHaveCount(2);

    // The scope by name (no list of every plant): the plant's name picks it, the URL says which, and its chip
    // takes it away again with the rest of the search kept.
    await page.goto(`/alarm?start=${y}&end=${y}`);
    await page.getByLabel("발전소 · 그룹 찾기").fill(plant.name);
    if (test.info().project.name === "js") {
      // With script the names are suggested while typing, and the page stays where it is (the suggestion call once
      // answered with a redirect that took the page back to /alarm).
      await expect(page.locator(`#af-find-options option[value="${plant.name}"]`)).toHaveCount(1);
      await answerRendered(page);
      await expect(page).toHaveURL(new RegExp(`start=${y}&end=${y}$`));
    }
    await page.getByRole("button", { name: "검색", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`plant=${plant.g.plantUid}`));
    await expect(page).not.toHaveURL(/find=/);
    const chips = page.getByRole("list", { name: "선택한 범위" });
    await expect(chips).toContainText(plant.name);
    await expect(rows).toHaveCount(2);
    await chips.getByRole("link", { name: `발전소 선택 해제: ${plant.name}` }).click();
    await expect(page).not.toHaveURL(/plant=/);
    await expect(page).toHaveURL(new RegExp(`start=${y}.*end=${y}`));

    // Bad input is a message next to the field, not an error page.
    await page.goto(`/alarm?start=${today}&end=${y}`);
    await expect(page.getByText("종료일이 시작일보다 앞입니다.")).toBeVisible();
  });

  test("acknowledge an active alarm with a note; the CSV export has a BOM and escapes formulas", async ({
    page,
    plant,
    signInAs,
    store,
  }) => {
    await signInAs(0);
    await page.goto(`/alarm?plant=${plant.g.plantUid}&code=1000006`);
    const row = page.getByRole("row", { name: /인버터 고장/ }).first();
    await expect(row).toContainText("발생 중");
    const note = `점검 예약 ${randomBytes(2).toString("hex")}`;
    // The table has one form: tick the rows, write the note once, press the action. Nothing ticked says so.
    const acknowledge = page.getByRole("button", { name: "선택한 알람 확인" });
    await acknowledge.click();
    await expect(page.getByRole("alert").filter({ hasText: "처리할 알람을 고르세요." })).toBeVisible();
    await row.getByRole("checkbox").check();
    await page.getByLabel("메모", { exact: true }).fill(note);
    await acknowledge.click();
    await expect(page.getByRole("status").filter({ hasText: "알람을 확인 처리했습니다." })).toBeVisible();
    await expect(page).toHaveURL(/code=1000006/);
    const after = page.getByRole("row", { name: /인버터 고장/ }).first();
    await expect(after).toContainText("확인됨");
    await expect(after).toContainText(note);
    // Acknowledged once is enough: a second time is refused for that alarm, which stays ticked.
    await after.getByRole("checkbox").check();
    await page.getByRole("button", { name: "선택한 알람 확인" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "이미 확인된 알람입니다." })).toBeVisible();
    await expect(
      page
        .getByRole("row", { name: /인버터 고장/ })
        .first()
        .getByRole("checkbox"),
    ).toBeChecked();
    const saved = await store.db
      .selectFrom("alarm")
      .select(["ack_by", "ack_note"])
      .where("plant_uid", "=", plant.g.plantUid)
      .where("code", "=", 1000006)
      .where("released_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(saved.ack_note).toBe(note);

    const res = await page.request.get(`/alarm/export?start=${plant.yesterday}&end=${plant.yesterday}&plant=${plant.g.plantUid}`);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("text/csv");
    const body = await res.body();
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = body.toString("utf8");
    expect(text).toContain("발생 시각,해제 시각,발전소");
    expect(text).toContain(`"'=HYPERLINK(""http://example.invalid"",""x"")"`);
    expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});

test.describe("control screen", () => {
  test("switch an inverter off: confirmed, acknowledged, its output falls to zero; then on again", async ({
    page,
    plant,
    signInAs,
  }) => {
    await signInAs(CONTROL);
    await page.goto(`/control?plant=${plant.g.plantUid}`);
    await expect(page.getByRole("heading", { level: 1, name: "제어" })).toBeVisible();
    const inv = page.getByRole("row", { name: /^인버터 1/ });
    await expect(inv.locator(".control-state")).toHaveText(/운전/);
    // Issue 26 point 7: the one number format (domain/units.ts), not the screen's own.
    await expect(inv.locator("td.num")).toHaveText("30.00 kW");
    await inv.getByRole("link", { name: "인버터 1 정지" }).click();
    const confirm = page.getByRole("region", { name: "명령 확인" });
    await expect(confirm).toContainText("인버터 1");
    await confirm.getByRole("button", { name: /정지 · 명령 보내기/ }).click();
    // The gateway's answer in the member's language, never its own English words.
    const flash = page.getByRole("status").filter({ hasText: "게이트웨이 확인" });
    await expect(flash).toContainText("게이트웨이가 명령을 수행했습니다.");
    await expect(flash).not.toContainText("switched");
    // The gateway reported a reading after the command: that reading is the state.
    await expect(inv.locator(".control-state")).toHaveText(/정지/);
    await expect(inv.locator("td.num")).toHaveText("0.00 kW");
    const log = page.getByRole("region", { name: "명령 기록" });
    await expect(log.locator("tbody tr").first()).toContainText("인버터 1");
    await expect(log.locator("tbody tr").first()).toContainText("게이트웨이 확인");

    // The status screen shows it through the normal data path.
    await page.goto(`/measurement?plant=${plant.g.plantUid}&kind=1`);
    await expect(page.locator(".m-card").first().locator(".m-value").first()).toHaveText(/AC 출력\s*0\.00\s*kW/);

    await page.goto(`/control?plant=${plant.g.plantUid}`);
    await inv.getByRole("link", { name: "인버터 1 운전" }).click();
    await page
      .getByRole("region", { name: "명령 확인" })
      .getByRole("button", { name: /운전 · 명령 보내기/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "게이트웨이 확인" })).toBeVisible();
    await expect(inv.locator("td.num")).toHaveText("30.00 kW");
  });

  test("after a command, 'awaiting the next reading' until a reading made after it; then its state (issue 26 point 5)", async ({
    page,
    plant,
    signInAs,
  }) => {
    await signInAs(CONTROL);
    plant.mode.answerOnly = true;
    try {
      await page.goto(`/control?plant=${plant.g.plantUid}`);
      const inv = page.getByRole("row", { name: /^인버터 2/ });
      await expect(inv.locator(".control-state")).toHaveText(/운전/);
      await inv.getByRole("link", { name: "인버터 2 정지" }).click();
      await page
        .getByRole("region", { name: "명령 확인" })
        .getByRole("button", { name: /정지 · 명령 보내기/ })
        .click();
      await expect(page.getByRole("status").filter({ hasText: "게이트웨이가 명령을 수행했습니다." })).toBeVisible();
      // Acknowledged, but the newest reading (12 kW) was made before the command: not "○ 정지 12.00 kW".
      await expect(inv.getByText("다음 측정 대기 중")).toBeVisible();
      await expect(inv.locator(".control-state")).toHaveCount(0);
      await expect(inv.locator("td.num")).toHaveText("12.00 kW (명령 전 측정)");
      // The plant's detail window (the /pvstatus card's link, on the detail host) says the same of the device.
      const main = new URL(page.url()).origin;
      await page.goto(`${main}/resources/detail-window?kind=plant&uid=${plant.g.plantUid}&name=x`);
      await expect(page).toHaveURL(/detail\.localhost/);
      const row = page.getByRole("table", { name: "장비 목록" }).getByRole("row", { name: /^인버터 2/ });
      await expect(row).toContainText("다음 측정 대기 중");
      await expect(row).toContainText("12.00 kW (명령 전 측정)");
      await page.goto(`${main}/control?plant=${plant.g.plantUid}`);

      // The next reading (the inverter stopped) is the state again.
      await plant.report();
      await page.goto(`${main}/control?plant=${plant.g.plantUid}`);
      await expect(inv.locator(".control-state")).toHaveText(/정지/);
      await expect(inv.locator("td.num")).toHaveText("0.00 kW");
      await expect(inv.getByText("다음 측정 대기 중")).toHaveCount(0);
    } finally {
      plant.mode.answerOnly = false;
    }
    // Back on, through the reporting gateway.
    await page
      .getByRole("row", { name: /^인버터 2/ })
      .getByRole("link", { name: "인버터 2 운전" })
      .click();
    await page
      .getByRole("region", { name: "명령 확인" })
      .getByRole("button", { name: /운전 · 명령 보내기/ })
      .click();
    await expect(page.getByRole("row", { name: /^인버터 2/ }).locator("td.num")).toHaveText("12.00 kW");
  });

  test("trip a breaker only with its name typed, then close it", async ({ page, plant, signInAs }) => {
    await signInAs(CONTROL);
    await page.goto(`/control?plant=${plant.g.plantUid}`);
    const vcb = page.getByRole("row", { name: /^VCB/ });
    await expect(vcb.locator(".control-state")).toHaveText(/투입/);
    await vcb.getByRole("link", { name: "VCB 트립" }).click();
    const confirm = page.getByRole("region", { name: "명령 확인" });
    await confirm.getByLabel("장비 이름").fill("VCX");
    await confirm.getByRole("button", { name: /트립 · 명령 보내기/ }).click();
    await expect(page.getByText("장비 이름이 맞지 않습니다.")).toBeVisible();
    await expect(vcb.locator(".control-state")).toHaveText(/투입/);
    await page.getByRole("region", { name: "명령 확인" }).getByLabel("장비 이름").fill("VCB");
    await page
      .getByRole("region", { name: "명령 확인" })
      .getByRole("button", { name: /트립 · 명령 보내기/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "게이트웨이 확인" })).toBeVisible();
    await expect(vcb.locator(".control-state")).toHaveText(/개방 \(트립\)/);

    await vcb.getByRole("link", { name: "VCB 투입" }).click();
    await page
      .getByRole("region", { name: "명령 확인" })
      .getByRole("button", { name: /투입 · 명령 보내기/ })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "게이트웨이 확인" })).toBeVisible();
    await expect(vcb.locator(".control-state")).toHaveText(/투입/);
  });

  test("a read-only guest reads the alarm screen too (its filters come from the member's own scope)", async ({
    page,
    loginByCookie,
  }) => {
    await loginByCookie(GUEST_ID, GUEST_PASSWORD);
    const res = await page.goto("/alarm");
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: "알람" })).toBeVisible();
    await expect(page.getByLabel("발전소")).toBeVisible();
  });

  test("without the control service the screen is refused", async ({ page, signInAs }) => {
    await signInAs(0);
    const res = await page.goto("/control");
    expect(res?.status()).toBe(403);
  });
});

test("/control pages a large scope: picked by group name, kind and name search, pages, all in the URL (issue 26 point 10)", async ({
  page,
  store,
  loginByCookie,
}) => {
  // A member of a group of their own with one plant of 21 inverters and two breakers: 23 devices, two pages.
  const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
  const group = `제어 ${randomBytes(2).toString("hex")}`;
  const nodeSeq = Number(
    (
      await store.db
        .insertInto("node")
        .values({ parent_seq: root.seq, name: group, sort_order: 0, created_at: Date.now() })
        .returning("seq")
        .executeTakeFirstOrThrow()
    ).seq,
  );
  const g = await createGatewayFixture(store, { inverters: 21, capaKw: 500, nodeSeq });
  const m = await createMember(store, { node_seq: nodeSeq, service: CONTROL });
  await loginByCookie(m.id, m.password);

  await page.goto("/control");
  const filters = page.getByRole("form", { name: "제어 장비 검색" });
  await expect(page.getByText("제어할 수 있는 장비 23대")).toBeVisible();
  const rows = page.locator(".control-plant tbody tr");
  await expect(rows).toHaveCount(20);
  const pager = page.getByRole("navigation", { name: "페이지 이동" });
  await expect(pager).toContainText("1 / 2 페이지 · 총 23건");
  await pager.getByRole("link", { name: /다음/ }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows).toHaveCount(3);

  // The group picked by its name becomes the scope (a chip that removes it); the page starts again.
  await filters.getByLabel("발전소 · 그룹 · 장비 찾기").fill(group);
  await filters.getByRole("button", { name: "보기" }).click();
  await expect(page).toHaveURL(new RegExp(`isGroup=1&group=${nodeSeq}`));
  await expect(page).not.toHaveURL(/page=/);
  const chips = page.getByRole("list", { name: "선택한 범위" });
  await expect(chips).toContainText(`그룹: ${group}`);

  // Breakers only, within the group.
  await page.getByRole("form", { name: "제어 장비 검색" }).getByLabel("종류").selectOption("breaker");
  await page.getByRole("form", { name: "제어 장비 검색" }).getByRole("button", { name: "보기" }).click();
  await expect(page).toHaveURL(/kind=breaker/);
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole("navigation", { name: "페이지 이동" })).toHaveCount(0);

  // A name that picks no plant or group searches device names: 인버터 1, 인버터 10 … 19.
  await page.goto(`/control?find=${encodeURIComponent("인버터 1")}`);
  await expect(page.getByText("제어할 수 있는 장비 11대")).toBeVisible();
  for (const name of await rows.locator("th").allTextContents()) expect(name).toMatch(/^인버터 1/);

  // A confirmation from page 2 keeps the list's URL, and cancelling comes back to it.
  await page.goto(`/control?plant=${g.plantUid}&page=2`);
  await rows.first().getByRole("link", { name: /운전$/ }).click();
  await expect(page).toHaveURL(/page=2.*device=.*do=on/);
  await page.getByRole("region", { name: "명령 확인" }).getByRole("link", { name: "취소" }).click();
  await expect(page).toHaveURL(new RegExp(`/control\\?plant=${g.plantUid}&page=2$`));
  await expect(page.getByRole("list", { name: "선택한 범위" })).toContainText("발전소: 테스트 발전소");
});

test.describe("alerts", () => {
  test("a member sets their alerts on /modify; an admin names the plant's owner and sees the delivery log", async ({
    page,
    plant,
    store,
    loginByCookie,
  }) => {
    test.setTimeout(120_000); // three screens, two members, seven form posts
    const m = await createMember(store, {
      node_seq: plant.nodeSeq,
      service: 0,
      email: `m${randomBytes(3).toString("hex")}@example.test`,
    });
    await loginByCookie(m.id, m.password);
    await page.goto("/modify");
    const section = page.getByRole("region", { name: "알림 설정" });
    await section.getByLabel("최소 등급").selectOption("3");
    await section.getByLabel("웹훅 (Slack·Teams 호환)").check();
    await section.getByRole("button", { name: "알림 설정 저장" }).click();
    await expect(page.getByRole("region", { name: "알림 설정" }).getByText("입력하세요.")).toBeVisible();
    // A literal address the e2e server allows (CCTV_ALLOWED_NETS): a name is resolved and checked when saved.
    await page.getByRole("region", { name: "알림 설정" }).getByLabel("웹훅 주소").fill("http://127.0.0.1:9/hooks/T1");
    await page.getByRole("region", { name: "알림 설정" }).getByLabel("이메일").check();
    await page.getByRole("region", { name: "알림 설정" }).getByLabel("시작").fill("22:00");
    await page.getByRole("region", { name: "알림 설정" }).getByLabel("끝").fill("07:00");
    await page.getByRole("region", { name: "알림 설정" }).getByRole("button", { name: "알림 설정 저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: "알림 설정을 저장했습니다." })).toBeVisible();
    const pref = await store.db.selectFrom("alert_pref").selectAll().where("member_id", "=", m.id).executeTakeFirstOrThrow();
    expect(pref).toMatchObject({
      min_level: 3,
      mail: 1,
      webhook: 1,
      webhook_url: "http://127.0.0.1:9/hooks/T1",
      quiet_from: 22 * 60,
      quiet_to: 7 * 60,
    });
    await expect(page.getByRole("region", { name: "알림 설정" }).getByLabel("최소 등급")).toHaveValue("3");

    // Sign out only (the app pop-up cookie of the fixtures stays, or its modal would cover the page).
    await page.context().clearCookies({ name: /^(accessToken|refreshToken|sessionId)$/ });
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto(`/setting/plant/${plant.g.plantUid}`);
    const contacts = page.getByRole("region", { name: "알림 담당자" });
    await contacts.getByLabel("소유자").fill("nobody-such");
    await contacts.getByRole("button", { name: "담당자 저장" }).click();
    await expect(page.getByRole("region", { name: "알림 담당자" }).getByText("그런 회원이 없습니다.")).toBeVisible();
    await page.getByRole("region", { name: "알림 담당자" }).getByLabel("소유자").fill(m.id);
    await page.getByRole("region", { name: "알림 담당자" }).getByRole("button", { name: "담당자 저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: "알림 담당자를 저장했습니다." })).toBeVisible();
    await expect(page.getByRole("region", { name: "알림 담당자" })).toContainText(`(${m.id})`);

    await page.goto("/setting/config/delivery");
    await expect(page.getByRole("heading", { level: 2, name: "알림 전송 기록" })).toBeVisible();
    await expect(page.getByText("지금 보낼 수 있는 방법")).toBeVisible();
    await page.getByRole("combobox", { name: "상태" }).selectOption("failed");
    await page.getByRole("button", { name: "보기", exact: true }).click();
    await expect(page).toHaveURL(/status=failed/);
  });
});

test("screenshots of /alarm and /control at desktop and phone, both themes", async ({ page, plant, signInAs, server }, info) => {
  test.skip(info.project.name !== "js", "once is enough");
  test.setTimeout(180_000);
  await signInAs(CONTROL);
  await shootAll(page, server.baseUrl, "alarm", `/alarm?start=${plant.yesterday}&plant=${plant.g.plantUid}`, async (p) => {
    await expect(p.locator("table.alarm-table")).toBeVisible();
  });
  await shootAll(page, server.baseUrl, "control", `/control?plant=${plant.g.plantUid}`, async (p) => {
    await expect(p.getByRole("region", { name: "명령 기록" })).toBeVisible();
  });
  await shootAll(page, server.baseUrl, "alert-pref", "/modify", async (p) => {
    await expect(p.getByRole("region", { name: "알림 설정" })).toBeVisible();
  });
  await shootAll(
    page,
    server.baseUrl,
    "control-confirm",
    `/control?plant=${plant.g.plantUid}&device=${plant.g.vcb}&do=off`,
    async (p) => {
      await expect(p.getByRole("region", { name: "명령 확인" })).toBeVisible();
    },
  );
});
