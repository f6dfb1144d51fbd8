/**
 * Work orders (issue 29 §3), with JavaScript on and off: from an alarm's page, "작업 지시 만들기" opens the new form
 * with the plant and the alarm filled in; the work order is created with an assignee, moved to in progress and to
 * done with notes (only the allowed buttons are shown), a photo is attached (a non-image refused by its bytes), and
 * the list filtered by state (in the URL) shows it, and its CSV holds it.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { createGatewayFixture } from "../helpers/telemetry";
import { expect, test } from "./fixtures";

const PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

async function seriousViolations(page: Page): Promise<string[]> {
  if (test.info().project.name === "nojs") return [];
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}

test("creates a work order from an alarm, moves it to in progress and done with a note, and finds it by state", async ({
  page,
  store,
  member,
  loginByCookie,
}) => {
  const g = await createGatewayFixture(store);
  const now = Date.now();
  const seq = Number(
    (
      await store.db
        .insertInto("alarm")
        .values({
          plant_uid: g.plantUid,
          rtu_uid: g.rtuUid,
          device_uid: g.inverters[0]!,
          code: 1000006,
          level: 3,
          fault_code: null,
          message: "fixture",
          raised_at: now,
          released_at: null,
          active_since: now,
          last_seen_at: now,
        })
        .returning("seq")
        .executeTakeFirstOrThrow()
    ).seq,
  );
  const tech = await member({ email: `tech-${randomBytes(3).toString("hex")}@example.kr` });
  const m = await member();
  await loginByCookie(m.id, m.password);
  const title = `인버터 점검 ${randomBytes(3).toString("hex")}`;

  await page.goto(`/alarm/${seq}`);
  await page.getByRole("link", { name: "작업 지시 만들기" }).click();
  await expect(page).toHaveURL(new RegExp(`/workorder/new\\?plant=${g.plantUid}&alarm=${seq}$`));
  await expect(page.getByRole("heading", { level: 2, name: new RegExp(g.plantUid) })).toBeVisible();
  await expect(page.getByLabel(new RegExp(`알람 #${seq}`))).toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);

  // A refused form comes back with the field's message and what was typed.
  await page.getByLabel("제목").fill(title);
  await page.getByLabel("담당자 아이디").fill("no-such-member");
  await page.getByRole("button", { name: "만들기" }).click();
  await expect(page.getByText("그런 회원이 없습니다.")).toBeVisible();
  await expect(page.getByLabel("제목")).toHaveValue(title);

  await page.getByLabel("담당자 아이디").fill(tech.id);
  await page.getByLabel("우선순위").selectOption("high");
  await page.getByLabel(`인버터 1 (${g.inverters[0]})`).check();
  await page.getByRole("button", { name: "만들기" }).click();
  await expect(page).toHaveURL(/\/workorder\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await expect(page.getByText(`작업 지시 #${id}를 만들었습니다.`)).toBeVisible();
  await expect(page.getByTestId("workorder-state")).toHaveText("접수");
  await expect(page.getByRole("link", { name: new RegExp(`알람 #${seq}`) })).toBeVisible();
  // Only the allowed moves: start or cancel, never "done" from open.
  await expect(page.getByRole("button", { name: "작업 시작" })).toBeVisible();
  await expect(page.getByRole("button", { name: "완료 처리" })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // A photo: an SVG named .png is refused by its bytes; a real PNG is shown.
  await page.getByLabel("사진 파일").setInputFiles({
    name: "trick.png",
    mimeType: "image/png",
    buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'></svg>"),
  });
  await page.getByRole("button", { name: "사진 올리기" }).click();
  await expect(page.getByText("PNG, JPEG, WebP 사진만 올릴 수 있습니다.")).toBeVisible();
  await page
    .getByLabel("사진 파일")
    .setInputFiles({ name: "현장.png", mimeType: "image/png", buffer: Buffer.from(PNG_1X1, "base64") });
  await page.getByRole("button", { name: "사진 올리기" }).click();
  await expect(page.getByText("사진을 올렸습니다.")).toBeVisible();
  const photo = page.getByRole("img", { name: /작업 사진 #\d+/ });
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await page.getByLabel("메모 (선택)").fill("현장 출동");
  await page.getByRole("button", { name: "작업 시작" }).click();
  await expect(page.getByTestId("workorder-state")).toHaveText("진행 중");
  await page.getByRole("textbox", { name: "메모", exact: true }).fill("퓨즈 교체");
  await page.getByRole("button", { name: "메모 남기기" }).click();
  await expect(page.getByText("메모를 남겼습니다.")).toBeVisible();
  await page.getByRole("button", { name: "완료 처리" }).click();
  await expect(page.getByTestId("workorder-state")).toHaveText("완료");
  await expect(page.getByRole("button", { name: "작업 시작" })).toHaveCount(0);
  const history = page.getByRole("list").filter({ hasText: "퓨즈 교체" });
  await expect(history).toContainText("진행 중 → 완료");
  await expect(history).toContainText("현장 출동");

  // The assignee's mail, once, in the outbox.
  const mails = await store.db
    .selectFrom("outbox")
    .select("recipient")
    .where("dedupe_key", "like", `work-order:${id}:%`)
    .execute();
  expect(mails).toHaveLength(1);

  // The list, filtered by state in the URL.
  await page.goto("/workorder");
  await page.getByLabel("상태").selectOption("done");
  await page.getByLabel("검색어").fill(title);
  await page.getByRole("button", { name: "찾기" }).click();
  await expect(page).toHaveURL(/state=done/);
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await expect(page.getByRole("link", { name: "CSV 내려받기" })).toHaveAttribute("href", /\/workorder\/export\?.*state=done/);
  const csvHref = await page.getByRole("link", { name: "CSV 내려받기" }).getAttribute("href");
  const csv = await page.request.get(csvHref!);
  expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
  const lines = (await csv.text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r\n/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`${id},${g.plantUid},`);
  expect(lines[1]).toContain(`${title},높음,완료,`);
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto(`/workorder?state=open&q=${encodeURIComponent(title)}`);
  await expect(page.getByText("조건에 맞는 작업 지시가 없습니다.")).toBeVisible();
});
