/**
 * Fleet admin screens in Chromium, with JavaScript on and off (each spec runs in both projects):
 * plants (field errors, create, edit, delete with the typed confirmation), devices, RTUs (the gateway
 * secret shown once, config bits), configuration (alarm thresholds, fault codes), and the filters kept in the URL.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD } from "../helpers/server";
import { expect, test } from "./fixtures";

const tag = () => randomBytes(3).toString("hex").toUpperCase();

async function submit(page: Page, scope: ReturnType<Page["locator"]>, name: string | RegExp) {
  await scope.getByRole("button", { name, exact: typeof name === "string" }).click();
  await page.waitForLoadState("load");
}

test.describe("plants", () => {
  test("field errors keep what was typed; create, edit, delete with confirmation", async ({ page, loginByCookie }) => {
    test.slow();
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/setting/plant");
    await expect(page.getByRole("heading", { name: "발전소 관리", level: 1 })).toBeVisible();
    if (test.info().project.name === "js") await page.waitForFunction(() => "__remixRouter" in window);
    const add = page.locator("#add-plant");
    const uid = `PE${tag()}`;
    const posts: string[] = [];
    page.on("request", (r) => void (r.method() === "POST" && posts.push(r.url())));
    await add.getByLabel("발전소 ID").fill(uid);
    await add.getByLabel("발전소 이름").fill("");
    await add.getByLabel("설비 용량 (kW)").fill("12.345");
    await add.getByLabel("위도", { exact: true }).fill("50");
    await add.getByLabel("경도", { exact: true }).fill("127");
    await add.getByLabel("지역").fill("전남");
    await submit(page, add, "등록");
    await expect(add.locator("#create-name-error")).toHaveText("입력하세요.");
    await expect(add.getByText("소수점 둘째 자리까지 입력하세요.")).toBeVisible();
    await expect(add.getByText("국내 좌표가 아닙니다", { exact: false })).toBeVisible();
    await expect(add.getByLabel("지역")).toHaveValue("전남");
    await expect(add.getByLabel("발전소 ID")).toHaveValue(uid);
    await expect(add.getByLabel("발전소 이름")).toHaveAttribute("aria-invalid", "true");
    // With JavaScript the same errors come from the shared schema before any round trip.
    expect(posts, posts.join(" ")).toHaveLength(test.info().project.name === "js" ? 0 : 1);

    await add.getByLabel("발전소 이름").fill("E2E 태양광");
    await add.getByLabel("설비 용량 (kW)").fill("998.5");
    await add.getByLabel("위도", { exact: true }).fill("34.8");
    await add.getByLabel("경도", { exact: true }).fill("126.4");
    await submit(page, add, "등록");
    await expect(page).toHaveURL(new RegExp(`/setting/plant/${uid}$`));
    await expect(page.getByRole("status").filter({ hasText: "'E2E 태양광' 발전소를 등록했습니다." })).toBeVisible();
    await expect(page.getByLabel("설비 용량 (kW)")).toHaveValue("998.50");

    // Edit: a bad value first, then a good one.
    await page.getByLabel("설비 용량 (kW)").fill("-1");
    await submit(page, page.locator("form").filter({ has: page.getByLabel("설비 용량 (kW)") }), "저장");
    await expect(page.getByText("허용 범위보다 작습니다.")).toBeVisible();
    await page.getByLabel("설비 용량 (kW)").fill("1000");
    await page.getByLabel("발전소 이름").fill("E2E 태양광 (수정)");
    await submit(page, page.locator("form").filter({ has: page.getByLabel("설비 용량 (kW)") }), "저장");
    await expect(page.getByRole("status").filter({ hasText: "'E2E 태양광 (수정)' 발전소를 저장했습니다." })).toBeVisible();
    await expect(page.getByLabel("설비 용량 (kW)")).toHaveValue("1000.00");

    // The list finds it by its URL filters (a GET form).
    await page.goto("/setting/plant");
    await page.getByLabel("검색어").fill("수정");
    await page.getByRole("button", { name: "조회" }).click();
    await expect(page).toHaveURL(/searchText=/);
    await expect(page.getByRole("link", { name: "E2E 태양광 (수정)" })).toBeVisible();

    // Delete: the wrong key is refused, the right one deletes.
    await page.goto(`/setting/plant/${uid}`);
    const danger = page.locator(".danger-zone");
    await danger.getByLabel("확인 문구").fill("지워");
    await submit(page, danger, "삭제");
    await expect(danger.getByText("확인 문구를 정확히 입력하세요.")).toBeVisible();
    await danger.getByLabel("확인 문구").fill("delete");
    await submit(page, danger, "삭제");
    await expect(page).toHaveURL(/\/setting\/plant$/);
    await expect(page.getByRole("status").filter({ hasText: "발전소를 삭제했습니다" })).toBeVisible();
    await expect(page.getByRole("link", { name: "E2E 태양광 (수정)" })).toHaveCount(0);
  });

  test("RTUs to assign are found by search, where they are now and page, all in the URL (issue 26 point 10)", async ({
    page,
    server,
    loginByCookie,
  }) => {
    test.slow();
    const { accessToken } = await loginByCookie("admin", ADMIN_PASSWORD);
    const t = tag();
    const uid = `PA${t}`;
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await call("POST", "/plant", { uid, name: `배정 ${t}`, capa: 10000 })).status).toBe(201);
    expect((await call("POST", "/plant", { uid: `${uid}X`, name: `다른 ${t}`, capa: 10000 })).status).toBe(201);
    // 23 free RTUs and 2 in another plant, all holding the tag: more than one page of 20.
    const rtu = (n: number) => `R${t}${String(n).padStart(2, "0")}`;
    for (let n = 1; n <= 25; n++)
      expect((await call("POST", "/rtu", { uid: rtu(n), name: `게이트웨이 ${t} ${n}` })).status).toBe(201);
    await call("POST", "/por", { plantUid: `${uid}X`, rtus: [rtu(24), rtu(25)] });

    await page.goto(`/setting/plant/${uid}`);
    const filters = page.getByRole("form", { name: "배정할 RTU 찾기" });
    await filters.getByLabel(/^검색/).fill(t);
    await submit(page, filters, "찾기");
    await expect(page).toHaveURL(new RegExp(`q=${t}`));
    const form = page.locator(".assign-form");
    await expect(form.getByRole("checkbox")).toHaveCount(20);
    await expect(form).toContainText("배정할 수 있는 RTU 25대");
    const pager = page.getByRole("navigation", { name: "페이지 이동" });
    await expect(pager).toContainText("1 / 2 페이지 · 총 25건");
    await pager.getByRole("link", { name: /다음/ }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(form.getByRole("checkbox")).toHaveCount(5);
    await expect(page.getByRole("form", { name: "배정할 RTU 찾기" }).getByLabel(/^검색/)).toHaveValue(t);

    // Where they are now: only those of another plant.
    await page.getByRole("form", { name: "배정할 RTU 찾기" }).getByLabel("배정 상태").selectOption("other");
    await submit(page, page.getByRole("form", { name: "배정할 RTU 찾기" }), "찾기");
    await expect(page).not.toHaveURL(/page=/);
    await expect(form.getByRole("checkbox")).toHaveCount(2);
    await expect(form).toContainText(`현재 다른 ${t}`);

    // The exact RTU, and assigning the ticked one.
    await page.goto(`/setting/plant/${uid}?q=${rtu(7)}`);
    await form.getByRole("checkbox", { name: new RegExp(rtu(7)) }).check();
    await submit(page, form, "배정");
    await expect(page.getByRole("status").filter({ hasText: "배정" })).toBeVisible();
    await expect(page.locator(".plain-list").first()).toContainText(rtu(7));
    await page.goto(`/setting/plant/${uid}?q=zz-no-such-${t}`);
    await expect(page.getByText("조건에 맞는 RTU가 없습니다.")).toBeVisible();
  });

  test("a level-1 member cannot open the plant screen", async ({ page, member, loginByCookie }) => {
    const m = await member({ auth: 1 });
    await loginByCookie(m.id, m.password);
    const res = await page.goto("/setting/plant");
    expect(res?.status()).toBe(403);
  });
});

test.describe("RTUs and devices", () => {
  test("an RTU's secret is shown once; config bits; a device attached to it", async ({ page, loginByCookie }) => {
    test.slow();
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/setting/rtu");
    const add = page.locator("#add-rtu");
    const uid = `RE${tag()}`;
    await add.getByLabel("RTU ID").fill(uid);
    await add.getByLabel("MAC 주소").fill("zz");
    await submit(page, add, "등록");
    await expect(add.locator("#create-mac-error")).toContainText("MAC 주소 형식이 아닙니다");
    await expect(add.locator("#create-name-error")).toHaveText("입력하세요.");
    await add.getByLabel(/^이름/).fill("E2E RTU");
    await add.getByLabel("MAC 주소").fill(`02:E2:E2:00:${tag().slice(0, 2)}:01`);
    await add.getByLabel("LTE 라우터").check();
    await add.getByLabel("LoRa").check();
    await submit(page, add, "등록");
    await expect(page).toHaveURL(new RegExp(`/setting/rtu/${uid}$`));
    const secret = await page.getByTestId("rtu-secret").textContent();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(page.getByLabel("LTE 라우터")).toBeChecked();
    await expect(page.getByLabel("ZigBee")).not.toBeChecked();
    await expect(page.getByLabel("LoRa")).toBeChecked();
    // Shown once: a reload no longer has it.
    await page.reload();
    await expect(page.getByTestId("rtu-secret")).toHaveCount(0);

    await page.getByLabel("ZigBee").check();
    await page.getByLabel("LoRa").uncheck();
    await submit(page, page.locator("form").filter({ has: page.getByLabel("ZigBee") }), "저장");
    await expect(page.getByRole("status").filter({ hasText: "RTU를 저장했습니다." })).toBeVisible();
    await expect(page.getByLabel("ZigBee")).toBeChecked();
    await expect(page.getByLabel("LoRa")).not.toBeChecked();

    // A device on this RTU, from the RTU page's link.
    await page.getByRole("link", { name: "이 RTU에 장비 등록" }).click();
    const dev = page.locator("#add-device");
    await expect(dev.getByLabel("RTU")).toHaveValue(uid);
    await dev.getByLabel("장비 이름").fill("E2E 인버터");
    await dev.getByLabel("종류").selectOption("4");
    await dev.getByLabel("정격 용량 (kW)").fill("50");
    await submit(page, dev, "등록");
    await expect(dev.getByText("정격 용량은 인버터에만 입력합니다.")).toBeVisible();
    await dev.getByLabel("종류").selectOption("1");
    await submit(page, dev, "등록");
    await expect(page.getByRole("status").filter({ hasText: "'E2E 인버터' 장비를 등록했습니다." })).toBeVisible();
    await expect(page.getByLabel("정격 용량 (kW)")).toHaveValue("50.00");

    // Delete the device, then the RTU.
    const danger = page.locator(".danger-zone");
    await danger.getByLabel("확인 문구").fill("delete");
    await submit(page, danger, "삭제");
    await expect(page).toHaveURL(/\/setting\/device$/);
    await page.goto(`/setting/rtu/${uid}`);
    await page.locator(".danger-zone").getByLabel("확인 문구").fill("delete");
    await submit(page, page.locator(".danger-zone"), "삭제");
    await expect(page).toHaveURL(/\/setting\/rtu$/);
    await expect(page.getByRole("status").filter({ hasText: "RTU를 삭제했습니다" })).toBeVisible();
  });

  test("a level-2 member may manage devices but not RTUs", async ({ page, member, loginByCookie }) => {
    const m = await member({ auth: 2 });
    await loginByCookie(m.id, m.password);
    expect((await page.goto("/setting/device"))?.status()).toBe(200);
    expect((await page.goto("/setting/rtu"))?.status()).toBe(403);
  });
});

test.describe("configuration", () => {
  test("alarm thresholds are validated and saved; fault codes are added and deleted", async ({ page, loginByCookie }) => {
    test.slow();
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/setting/config/alarm");
    await page.getByLabel(/^발전 저하 비율/).fill("0.9");
    await page.getByLabel("발전 저하 해제 비율").fill("0.5");
    await submit(page, page.locator("form").filter({ has: page.getByLabel("발전 저하 해제 비율") }), "저장");
    await expect(page.getByText("발전 저하 비율 이상이어야 합니다.")).toBeVisible();
    await expect(page.getByLabel(/^발전 저하 비율/)).toHaveValue("0.9");
    await page.getByLabel("발전 저하 해제 비율").fill("0.95");
    await submit(page, page.locator("form").filter({ has: page.getByLabel("발전 저하 해제 비율") }), "저장");
    await expect(page.getByRole("status").filter({ hasText: "설정을 저장했습니다." })).toBeVisible();
    await expect(page.getByLabel("발전 저하 해제 비율")).toHaveValue("0.95");
    // Put the defaults back for other specs.
    await page.getByLabel(/^발전 저하 비율/).fill("0.5");
    await page.getByLabel("발전 저하 해제 비율").fill("0.7");
    await submit(page, page.locator("form").filter({ has: page.getByLabel("발전 저하 해제 비율") }), "저장");

    await page.getByRole("link", { name: "고장 코드" }).click();
    const code = String(700000 + Math.floor(Math.random() * 99999));
    const add = page.locator("section").filter({ has: page.getByRole("heading", { name: "고장 코드 추가" }) });
    await add.getByLabel("코드").fill(code);
    await add.getByLabel("16진수").fill("xyz");
    await submit(page, add, "등록");
    await expect(add.getByText("16진수를 입력하세요", { exact: false })).toBeVisible();
    await add.getByLabel("16진수").fill("0x00E2");
    await add.getByLabel("이름 (한국어)").fill("E2E 고장");
    await add.getByLabel("이름 (영어)").fill("E2E fault");
    await submit(page, add, "등록");
    await expect(page.getByRole("status").filter({ hasText: `고장 코드 ${code}을(를) 추가했습니다.` })).toBeVisible();
    await page.getByRole("link", { name: `수정 ${code}` }).click();
    await page.locator(".danger-zone").getByLabel("확인 문구").fill("delete");
    await submit(page, page.locator(".danger-zone"), "삭제");
    await expect(page.getByRole("status").filter({ hasText: `고장 코드 ${code}을(를) 삭제했습니다.` })).toBeVisible();
    await expect(page.getByRole("cell", { name: code, exact: true })).toHaveCount(0);
  });
});

test.describe("total and import", () => {
  test("the total list shows RTUs as 'alias (mac)' lines; a source is registered, browsed and removed", async ({
    page,
    server,
    loginByCookie,
  }) => {
    const { accessToken } = await loginByCookie("admin", ADMIN_PASSWORD);
    const uid = `PT${tag()}`;
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await call("POST", "/plant", { uid, name: `합계 ${uid}`, capa: 10000 });
    await call("POST", "/rtu", { uid: `R${uid}`, name: "r", alias: "별칭A", mac: `02:77:00:00:${tag().slice(0, 2)}:01` });
    await call("POST", "/por", { plantUid: uid, rtus: [`R${uid}`] });
    await page.goto("/setting/total");
    const row = page.getByRole("row").filter({ hasText: `합계 ${uid}` });
    await expect(row.getByText(/^별칭A \(02:77:00:00:[0-9A-F]{2}:01\)$/)).toBeVisible();

    await page.goto("/setting/import");
    const reg = page.locator("section").filter({ has: page.getByRole("heading", { name: "원천 등록" }) });
    await reg.getByLabel(/^이름/).fill(`자기 자신 ${uid}`);
    await reg.getByLabel(/^주소/).fill("not a url");
    await submit(page, reg, "등록");
    await expect(reg.locator("#register-url-error")).toContainText("http://");
    await expect(reg.locator("#register-pw-error")).toHaveText("입력하세요.");
    await reg.getByLabel(/^주소/).fill(server.baseUrl);
    await reg.getByLabel(/^아이디/).fill("admin");
    await reg.getByLabel(/^비밀번호/).fill(ADMIN_PASSWORD);
    await submit(page, reg, "등록");
    await expect(page.getByRole("status").filter({ hasText: "등록했습니다" })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: new RegExp(`합계 ${uid}`) })).toBeDisabled();
    await submit(
      page,
      page.locator("section").filter({ has: page.getByRole("heading", { name: /가져올 항목/ }) }),
      "선택 항목 가져오기",
    );
    await expect(page.getByText("가져올 항목을 하나 이상 고르세요.")).toBeVisible();
    const danger = page.locator(".danger-zone");
    await danger.getByLabel("확인 문구").fill("delete");
    await submit(page, danger, "삭제");
    await expect(page.getByRole("status").filter({ hasText: "원천을 삭제했습니다." })).toBeVisible();
  });
});
