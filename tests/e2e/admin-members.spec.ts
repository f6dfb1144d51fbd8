/**
 * /setting/id in Chromium, with JavaScript on and off: list filters in the URL, create (with the
 * id duplicate check), field errors that keep what was typed, edit, temporary password, logo,
 * plant links, and delete with the typed confirmation.
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { memberRow, uniqueId } from "../helpers/fixtures";
import { expect, test } from "./fixtures";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8ffff3f0005fe02fea7d6a4480000000049454e44ae426082",
  "hex",
);

const js = () => test.info().project.name === "js";

async function asAdmin(
  member: (o?: object) => Promise<{ id: string; password: string }>,
  loginByCookie: (id: string, pw: string) => Promise<unknown>,
  level = 10,
) {
  const admin = await member({ auth: level });
  await loginByCookie(admin.id, admin.password);
  return admin;
}

/** Hides the after-login notice pop-up so a notice posted by another spec cannot cover the page. */
async function noPopup(page: Page, baseURL: string) {
  await page.context().addCookies([{ name: "onWeekCloseModal", value: "Y", url: baseURL }]);
}

async function fillNewMember(
  page: Page,
  id: string,
  overrides: Partial<Record<"password" | "name" | "phone" | "email", string>> = {},
) {
  await page.getByLabel("아이디").fill(id);
  await page.getByLabel("임시 비밀번호").fill(overrides.password ?? "Start-2026!");
  await page.getByLabel("이름").fill(overrides.name ?? "김철수");
  await page.getByLabel("권한 등급").selectOption("2");
  await page.getByLabel("연락처").fill(overrides.phone ?? "010-1234-5678");
  await page.getByLabel("이메일").fill(overrides.email ?? "kim@example.kr");
  await page.getByLabel("제어").check();
  await page.getByLabel("CCTV").check();
}

test.describe("members (/setting/id)", () => {
  test.beforeEach(async ({ page, baseURL }) => noPopup(page, baseURL!));

  test("creates a member and lands on the member page with a confirmation", async ({ page, member, loginByCookie, store }) => {
    await asAdmin(member, loginByCookie);
    await page.goto("/setting/id");
    await page.getByRole("link", { name: "새 회원 등록" }).click();
    await expect(page).toHaveURL(/\/setting\/id\/new$/);
    const id = uniqueId("e2e");
    await fillNewMember(page, id);
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page).toHaveURL(new RegExp(`/setting/id/edit/${id}$`));
    await expect(page.getByRole("status").filter({ hasText: `회원 ${id}을(를) 등록했습니다.` })).toBeVisible();
    const row = await memberRow(store, id);
    expect(row).toMatchObject({ name: "김철수", auth: 2, pwd_yn: 1, use_yn: 1, cctv: 1, phone: "010-1234-5678" });
    expect(row!.service & (1 << 6)).toBe(1 << 6);
    // Reloading does not post again.
    await page.reload();
    await expect(page.getByRole("heading", { name: `회원 정보 · ${id}` })).toBeVisible();
  });

  test("shows field errors next to the fields, keeps what was typed and writes nothing", async ({
    page,
    member,
    loginByCookie,
    store,
  }) => {
    await asAdmin(member, loginByCookie);
    await page.goto("/setting/id/new");
    const id = uniqueId("bad");
    await fillNewMember(page, id, { password: "short", name: "이영희", phone: "abc", email: "not-an-email" });
    const posts: string[] = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.getByText("8자 이상이어야 합니다.")).toBeVisible();
    await expect(page.getByText("전화번호 형식이 아닙니다. 예: 010-1234-5678")).toBeVisible();
    await expect(page.getByText("이메일 주소 형식이 아닙니다.")).toBeVisible();
    await expect(page.getByLabel("이메일")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("이름")).toHaveValue("이영희");
    await expect(page.getByLabel("아이디")).toHaveValue(id);
    await expect(page.getByLabel("제어")).toBeChecked();
    // With JS the same schema refused the form before the round trip.
    if (js()) expect(posts).toEqual([]);
    expect(await memberRow(store, id)).toBeUndefined();
  });

  test("refuses a duplicate id (checked as typed with JS, on submit without)", async ({ page, member, loginByCookie, store }) => {
    await asAdmin(member, loginByCookie);
    const existing = await member({ auth: 1 });
    await page.goto("/setting/id/new");
    await fillNewMember(page, existing.id.toUpperCase());
    if (js()) await expect(page.getByText("이미 사용 중인 아이디입니다.")).toBeVisible();
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.locator("#new-id-error")).toHaveText("이미 사용 중인 아이디입니다.");
    await expect(page).toHaveURL(/\/setting\/id\/new$/);
    expect((await memberRow(store, existing.id))!.name).toBe(`테스트 ${existing.id}`);
    if (js()) {
      const free = uniqueId("free");
      await page.getByLabel("아이디").fill(free);
      await expect(page.getByText("사용할 수 있는 아이디입니다.")).toBeVisible();
    }
  });

  test("filters the list by level and use flag through the URL", async ({ page, member, loginByCookie }) => {
    await asAdmin(member, loginByCookie);
    const tag = `f${randomBytes(3).toString("hex")}`;
    await member({ id: `${tag}-on`, auth: 7, use_yn: 1 });
    await member({ id: `${tag}-off`, auth: 7, use_yn: 0 });
    await page.goto("/setting/id");
    await page.getByLabel("아이디·이름").fill(tag);
    await page.getByLabel("권한 등급").selectOption("7");
    await page.getByLabel("사용 여부").selectOption("1");
    await page.getByRole("button", { name: "검색" }).click();
    await expect(page).toHaveURL(/auth=7/);
    await expect(page).toHaveURL(/use=1/);
    const table = page.getByRole("table", { name: "회원 목록" });
    await expect(table.getByRole("link", { name: `${tag}-on` })).toBeVisible();
    await expect(table.getByRole("link", { name: `${tag}-off` })).toHaveCount(0);
    // The bookmarkable URL shows the same rows.
    await page.goto(`/setting/id?q=${tag}&use=0`);
    await expect(table.getByRole("link", { name: `${tag}-off` })).toBeVisible();
    await expect(page.getByLabel("사용 여부")).toHaveValue("0");
  });

  test("edits a member, resets the password and handles the logo", async ({ page, member, loginByCookie, store }, testInfo) => {
    await asAdmin(member, loginByCookie);
    const m = await member({ auth: 1, service: 0, cctv: 0 });
    await page.goto(`/setting/id/edit/${m.id}`);

    await page.getByLabel("이름").fill("");
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.locator("#edit-name-error")).toHaveText("입력하세요.");

    await page.getByLabel("이름").fill("박민수");
    await page.getByLabel("권한 등급").selectOption("4");
    await page.getByRole("checkbox", { name: "도움말" }).check();
    await page.getByLabel("사용 (로그인 허용)").uncheck();
    await page.getByRole("button", { name: "저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: "회원 정보를 저장했습니다." })).toBeVisible();
    expect(await memberRow(store, m.id)).toMatchObject({ name: "박민수", auth: 4, service: 1, use_yn: 0 });

    const reset = page.getByRole("form", { name: "비밀번호 초기화" });
    await reset.getByLabel("임시 비밀번호").fill("abc");
    await reset.getByRole("button", { name: "임시 비밀번호 설정" }).click();
    await expect(page.locator("#reset-password-error")).toHaveText("8자 이상이어야 합니다.");
    await reset.getByLabel("임시 비밀번호").fill("Temp-2026!");
    await reset.getByRole("button", { name: "임시 비밀번호 설정" }).click();
    await expect(page.getByRole("status").filter({ hasText: "임시 비밀번호를 설정했습니다." })).toBeVisible();
    expect((await memberRow(store, m.id))!.pwd_yn).toBe(1);

    const svg = testInfo.outputPath("logo.svg");
    const png = testInfo.outputPath("logo.png");
    const fs = await import("node:fs/promises");
    await fs.writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await fs.writeFile(png, PNG);
    const logo = page.getByRole("form", { name: "로고" });
    await logo.getByLabel("로고 파일").setInputFiles(svg);
    await logo.getByRole("button", { name: "로고 올리기" }).click();
    await expect(page.locator("#logo-logo-error")).toHaveText("PNG, JPEG, WebP 이미지만 올릴 수 있습니다.");
    expect((await memberRow(store, m.id))!.logo).toBeNull();
    await page.getByRole("form", { name: "로고" }).getByLabel("로고 파일").setInputFiles(png);
    await page.getByRole("form", { name: "로고" }).getByRole("button", { name: "로고 올리기" }).click();
    await expect(page.getByRole("status").filter({ hasText: "로고를 올렸습니다." })).toBeVisible();
    const img = page.getByRole("img", { name: `${m.id}의 로고` });
    await expect(img).toBeVisible();
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1);
    await page.getByRole("button", { name: "로고 삭제" }).click();
    await expect(page.getByText("등록된 로고가 없습니다.")).toBeVisible();
    expect((await memberRow(store, m.id))!.logo).toBeNull();
  });

  test("links and unlinks a plant", async ({ page, member, loginByCookie, store }) => {
    await asAdmin(member, loginByCookie);
    const m = await member({ auth: 1 });
    const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
    const uid = `p${randomBytes(5).toString("hex")}`;
    const now = Date.now();
    await store.db
      .insertInto("plant")
      .values({
        uid,
        name: `연결시험 ${uid}`,
        alias: null,
        capa: 9990,
        locality: null,
        address: null,
        lat: null,
        lng: null,
        node_seq: root.seq,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await page.goto(`/setting/id/edit/${m.id}`);
    await page.getByLabel("연결할 발전소").selectOption(uid);
    await page.getByRole("button", { name: "연결", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "연결했습니다." })).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: `연결시험 ${uid}` })).toBeVisible();
    const link = await store.db.selectFrom("member_plant").selectAll().where("member_id", "=", m.id).execute();
    expect(link.map((l) => l.plant_uid)).toEqual([uid]);
    await page.getByRole("button", { name: `연결시험 ${uid} 연결 해제` }).click();
    await expect(page.getByRole("status").filter({ hasText: "연결을 해제했습니다." })).toBeVisible();
    expect(await store.db.selectFrom("member_plant").selectAll().where("member_id", "=", m.id).execute()).toEqual([]);
  });

  test("deletes a member only with the typed confirmation", async ({ page, member, loginByCookie, store }) => {
    await asAdmin(member, loginByCookie);
    const m = await member({ auth: 1 });
    await page.goto(`/setting/id/edit/${m.id}`);
    const del = page.getByRole("form", { name: "회원 삭제" });
    await del.getByLabel("확인 문구").fill("yes");
    await del.getByRole("button", { name: "회원 삭제" }).click();
    await expect(page.locator("#delete-confirm-error")).toHaveText("확인 문구를 정확히 입력하세요.");
    expect(await memberRow(store, m.id)).toBeDefined();
    await del.getByLabel("확인 문구").fill("delete");
    await del.getByRole("button", { name: "회원 삭제" }).click();
    await expect(page).toHaveURL(/\/setting\/id$/);
    await expect(page.getByRole("status").filter({ hasText: `회원 ${m.id}을(를) 삭제했습니다.` })).toBeVisible();
    expect(await memberRow(store, m.id)).toBeUndefined();
  });

  test("a level-3 member cannot open the member screens", async ({ page, member, loginByCookie }) => {
    await asAdmin(member, loginByCookie, 3);
    expect((await page.goto("/setting/id"))?.status()).toBe(403);
    expect((await page.goto("/setting/id/new"))?.status()).toBe(403);
  });
});
