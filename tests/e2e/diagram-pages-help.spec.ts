/**
 * /diagram, /page and /help with JavaScript on and off: the single-line diagram with states in words and links
 * to measurements, an administrator's SVG upload (sanitised) with bindings, a custom page built with plain
 * forms, help articles with search and the "?" link of the header; screenshots at desktop and phone width in
 * both themes.
 */
import path from "node:path";
import { writeFileSync, mkdirSync } from "node:fs";
import { createDiagramFleet, type DiagramFleet } from "../api/diagram-fixture";
import { REPO_ROOT } from "../helpers/server";
import { waitFor } from "../helpers/wait";
import { expect, test as base } from "./fixtures";
import { shootAll } from "./status-fixture";

const test = base.extend<{ as: (who: "admin" | "viewer" | "guest") => Promise<void> }, { fleet: DiagramFleet }>({
  fleet: [
    async ({ store }, use) => {
      const fleet = await createDiagramFleet(store, process.env.E2E_BASE_URL!);
      // The inverter fault alarm comes from the real alarm engine.
      await waitFor(
        async () =>
          !!(await store.db
            .selectFrom("alarm")
            .select("seq")
            .where("device_uid", "=", fleet.dev("AI2"))
            .where("released_at", "is", null)
            .executeTakeFirst()),
        {
          ms: 60_000,
          every: 250,
          failure: () => "the fixture's inverter fault alarm did not come",
        },
      );
      await use(fleet);
    },
    { scope: "worker", timeout: 90_000 },
  ],
  as: async ({ fleet, loginByCookie }, use) => use(async (who) => void (await loginByCookie(fleet[who].id, fleet[who].password))),
});

test.describe("single-line diagram", () => {
  test("draws the plant from grid to strings with live states in words, linking to measurements", async ({ page, fleet, as }) => {
    await as("viewer");
    await page.goto(`/diagram?plant=${fleet.pa.uid}`);
    await expect(page.getByRole("heading", { level: 1, name: "단선도" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: "단선 가" })).toBeVisible();
    const svg = page.locator("svg.single-line");
    await expect(svg.locator("text.sl-name", { hasText: "계통 연계점" })).toBeVisible();
    const faulty = svg.getByRole("link", { name: /인버터 인버터 2.*알람: 심각 · 인버터 고장/ });
    await expect(faulty).toHaveAttribute("href", `/measurement?plant=${fleet.pa.uid}&device=${fleet.dev("AI2")}`);
    await expect(svg.getByRole("link", { name: /ACB ACB 배전반, 열림.*누설 0\.4 mA, 차단기 열림/ })).toBeVisible();
    await expect(svg.locator(".sl-string.sl-cond-low")).toHaveCount(1);
    // The same content as a table.
    await page.getByText("표로 보기").click();
    await expect(page.getByRole("row", { name: /S3.*전류 낮음/ })).toBeVisible();
    // Choosing another plant is a plain GET form; a foreign plant is not found.
    const res = await page.goto(`/diagram?plant=${fleet.pb.uid}`);
    expect(res?.status()).toBe(404);
    // The header's "?" opens this screen's help.
    await page.goto(`/diagram?plant=${fleet.pa.uid}`);
    await page.getByRole("link", { name: "이 화면의 도움말" }).click();
    await expect(page).toHaveURL(/\/help\?article=diagram$/);
    await expect(page.getByRole("heading", { level: 1, name: "단선도 화면" })).toBeVisible();
  });

  test("an administrator uploads a hostile SVG: it is sanitised, bound to devices, and can be removed", async ({
    page,
    fleet,
    as,
  }, info) => {
    await as("admin");
    await page.goto(`/diagram?plant=${fleet.pa.uid}`);
    const dir = path.join(REPO_ROOT, "tests/.artifacts");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `hostile-${info.project.name}.svg`);
    writeFileSync(
      file,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 120" onload="window.__pwned=1"><script>window.__pwned=2</script>` +
        `<g id="inv2"><rect x="10" y="10" width="120" height="50" fill="#ddd" stroke="#333"/><text x="20" y="40">INV 2</text></g>` +
        `<rect id="acb" x="160" y="10" width="120" height="50" fill="#eee" onclick="window.__pwned=3"/><image href="https://evil.example/x.png"/></svg>`,
    );
    await page.getByLabel("SVG 파일").setInputFiles(file);
    await page.getByLabel(/인버터 인버터 2 — 요소 ID/).fill("inv2");
    await page.getByLabel(/ACB ACB 배전반 — 요소 ID/).fill("acb");
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.getByText(/도면을 저장했습니다\. 지워진 항목: .*<script>/)).toBeVisible();
    const drawing = page.locator(".uploaded-drawing svg");
    await expect(drawing).toBeVisible();
    expect(await drawing.innerHTML()).not.toMatch(/script|onload|onclick|evil\.example/);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? 0)).toBe(0);
    // A bound group is a link to the device's measurements, with its state in words.
    await expect(drawing.locator("a.sl-bound")).toHaveAttribute(
      "href",
      `/measurement?plant=${fleet.pa.uid}&device=${fleet.dev("AI2")}`,
    );
    await expect(page.locator(".bound-list").getByRole("link", { name: /ACB 배전반.*차단기 열림/ })).toBeVisible();
    // A binding to an element the drawing lacks is refused next to its field, the stored drawing kept.
    await page.getByLabel(/인버터 인버터 1 — 요소 ID/).fill("nothing");
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.getByText("도면에 그 id의 요소가 없습니다.")).toBeVisible();
    await page.goto(`/diagram?plant=${fleet.pa.uid}`);
    await page.getByRole("button", { name: /올린 도면 지우기/ }).click();
    await expect(page.getByText("올린 도면을 지웠습니다.")).toBeVisible();
    await expect(page.locator("svg.single-line")).toBeVisible();
  });

  test("screenshots", async ({ page, fleet, as, server }) => {
    await as("admin");
    await shootAll(
      page,
      server.baseUrl,
      "diagram",
      `/diagram?plant=${fleet.pa.uid}`,
      async (p) => void (await expect(p.locator("svg.single-line")).toBeVisible()),
    );
  });
});

test.describe("custom pages", () => {
  test("a member composes a page of widgets with plain forms, reaches it by URL, and deletes it", async ({
    page,
    fleet,
    as,
  }, info) => {
    await as("viewer");
    const unique = `board-${info.project.name}`;
    await page.goto("/page");
    await expect(page.getByRole("heading", { level: 1, name: "사용자 페이지" })).toBeVisible();
    await page.getByLabel("제목").fill("현장 현황");
    await page.getByLabel("주소 이름").fill("Bad Name");
    await page.getByRole("button", { name: "만들기" }).click();
    await expect(page.getByText("영문 소문자, 숫자, - 만 쓸 수 있고")).toBeVisible();
    await page.getByLabel("주소 이름").fill(unique);
    await page.getByRole("button", { name: "만들기" }).click();
    await expect(page).toHaveURL(new RegExp(`/page\\?p=${unique}&edit=1$`));
    await expect(page.getByText("페이지를 만들었습니다.")).toBeVisible();

    const add = async (kind: string, pick?: string) => {
      await page.getByLabel("발전소", { exact: true }).selectOption(fleet.pa.uid);
      await page.getByRole("button", { name: "발전소 고르기" }).click();
      await expect(page).toHaveURL(/plant=/);
      await page.getByLabel(kind).check();
      if (pick) await page.getByLabel(pick).check();
      await page.getByRole("button", { name: "더하기" }).click();
      await expect(page.getByText("페이지를 저장했습니다.")).toBeVisible();
    };
    await add("인버터 값", "인버터 2");
    await add("상태 카드");
    await add("환경 값");
    const widgets = page.locator(".widget-title");
    await expect(widgets).toHaveText(["인버터 값 · 단선 가", "상태 카드 · 단선 가", "환경 값 · 단선 가"]);
    await expect(page.locator(".widget-inverter").getByRole("row", { name: /인버터 2.*알람/ })).toBeVisible();
    await page.getByRole("button", { name: "아래로: 인버터 값 · 단선 가" }).click();
    await expect(widgets).toHaveText(["상태 카드 · 단선 가", "인버터 값 · 단선 가", "환경 값 · 단선 가"]);
    await page.getByRole("button", { name: "빼기: 환경 값 · 단선 가" }).click();
    await expect(widgets).toHaveCount(2);

    // Reachable by its URL, outside the editor.
    await page.goto(`/page?p=${unique}`);
    await expect(page.getByRole("heading", { level: 1, name: "현장 현황" })).toBeVisible();
    await expect(page.locator(".widget-status .pv-card")).toBeVisible();
    await expect(page.getByRole("button", { name: /빼기/ })).toHaveCount(0);
    expect((await page.goto("/page?p=no-such-page"))?.status()).toBe(404);

    await page.goto(`/page?p=${unique}&edit=1`);
    await page.getByRole("button", { name: "페이지 지우기" }).click();
    await expect(page.getByText("확인란을 고르세요.")).toBeVisible();
    await page.getByLabel("지우려면 확인란을 고르세요").check();
    await page.getByRole("button", { name: "페이지 지우기" }).click();
    await expect(page).toHaveURL(/\/page$/);
    await expect(page.getByText("페이지를 지웠습니다.")).toBeVisible();
  });

  test("screenshots", async ({ page, fleet, as, server, store }) => {
    await as("admin");
    const now = Date.now();
    const widgets = [
      { kind: "status", plantName: fleet.pa.uid, invStr: "", envStr: "" },
      { kind: "chart", plantName: fleet.pa.uid, invStr: "", envStr: "" },
      { kind: "inverter", plantName: fleet.pa.uid, invStr: "", envStr: "" },
      { kind: "environment", plantName: fleet.pa.uid, invStr: "", envStr: "" },
    ];
    await store.db
      .insertInto("custom_page")
      .values({
        member_id: fleet.admin.id,
        unique_key: "shots",
        title: "스크린샷",
        widgets: JSON.stringify(widgets),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["member_id", "unique_key"]).doNothing())
      .execute();
    await shootAll(
      page,
      server.baseUrl,
      "page",
      "/page?p=shots",
      async (p) => void (await expect(p.locator(".widget")).toHaveCount(4)),
    );
    await shootAll(
      page,
      server.baseUrl,
      "page-edit",
      `/page?p=shots&edit=1&plant=${fleet.pa.uid}`,
      async (p) => void (await expect(p.getByRole("button", { name: "더하기" })).toBeVisible()),
    );
  });
});

test.describe("help", () => {
  test("opens the start article, searches, and reads an article in both languages", async ({ page, as }) => {
    await as("viewer");
    await page.goto("/help");
    await expect(page.getByRole("heading", { level: 1, name: "처음 사용하는 분께" })).toBeVisible();
    await page.getByLabel("도움말 검색").fill("1000003");
    await page.getByRole("button", { name: "검색" }).click();
    await expect(page).toHaveURL(/q=1000003/);
    await expect(page.getByRole("heading", { name: /‘1000003’ 검색 결과/ })).toBeVisible();
    await page.locator(".help-results").getByRole("link", { name: "알람 코드와 등급" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "등급" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: "1000003 인터넷 연결 끊김" })).toBeVisible();
    await page.getByRole("link", { name: "다른 언어로 보기: English" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Alarm codes and levels" })).toBeVisible();
    expect((await page.goto("/help?article=nothing-here"))?.status()).toBe(404);
    // The header's "?" on another screen opens that screen's article.
    await page.goto("/pvstatus");
    await page.getByRole("link", { name: "이 화면의 도움말" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "발전소 현황 화면" })).toBeVisible();
  });

  test("screenshots", async ({ page, as, server }) => {
    await as("viewer");
    await shootAll(
      page,
      server.baseUrl,
      "help",
      "/help?article=performance",
      async (p) => void (await expect(p.locator(".help-article h1")).toBeVisible()),
    );
  });
});
