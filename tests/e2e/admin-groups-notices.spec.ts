/**
 * /setting/group, /notice and the /modify profile form in Chromium, with JavaScript on and off:
 * create, rename, move (never under itself), delete with the typed confirmation (refused while the
 * group holds something), notices with field errors and bulk delete, the after-login notice pop-up
 * with "don't show for a week" (on a server of its own, so no other spec ever sees the pop-up).
 */
import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { apiLogin, cookieValue, expect, test } from "./fixtures";
import { createMember, memberRow, openTestStore } from "../helpers/fixtures";
import { freePort, startServer, type TestServer } from "../helpers/server";

const js = () => test.info().project.name === "js";

async function noPopup(page: Page, baseURL: string) {
  await page.context().addCookies([{ name: "onWeekCloseModal", value: "Y", url: baseURL }]);
}

test.describe("groups (/setting/group)", () => {
  test.beforeEach(async ({ page, baseURL }) => noPopup(page, baseURL!));

  test("adds, renames, moves and deletes groups, refusing what would break the tree", async ({
    page,
    member,
    loginByCookie,
    store,
  }) => {
    const admin = await member({ auth: 10 });
    await loginByCookie(admin.id, admin.password);
    const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
    const tag = randomBytes(3).toString("hex");
    await page.goto(`/setting/group?node=${root.seq}`);

    // Field error, then a real subgroup.
    const add = page.getByRole("form", { name: "하위 그룹 추가" });
    await add.getByRole("button", { name: "추가" }).click();
    await expect(page.locator("#add-name-error")).toHaveText("입력하세요.");
    await add.getByLabel("새 그룹 이름").fill(`지사 ${tag}`);
    await add.getByRole("button", { name: "추가" }).click();
    await expect(page.getByRole("status").filter({ hasText: `그룹 지사 ${tag}을(를) 추가했습니다.` })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: `지사 ${tag}` })).toBeVisible();
    const parentSeq = Number(new URL(page.url()).searchParams.get("node"));

    await page.getByRole("form", { name: "하위 그룹 추가" }).getByLabel("새 그룹 이름").fill(`현장 ${tag}`);
    await page.getByRole("form", { name: "하위 그룹 추가" }).getByRole("button", { name: "추가" }).click();
    await expect(page.getByRole("heading", { level: 2, name: `현장 ${tag}` })).toBeVisible();
    const childSeq = Number(new URL(page.url()).searchParams.get("node"));

    // Rename the child.
    const rename = page.getByRole("form", { name: "이름·순서" });
    await rename.getByLabel("그룹 이름").fill(`현장 A ${tag}`);
    await rename.getByRole("button", { name: "저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: "그룹을 저장했습니다." })).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: `현장 A ${tag}` })).toBeVisible();

    // The parent cannot move under its own child: the option is disabled; a forged post is refused by the server.
    await page.goto(`/setting/group?node=${parentSeq}`);
    const option = page.getByRole("form", { name: "이동" }).locator(`option[value="${childSeq}"]`);
    await expect(option).toBeDisabled();
    // Forge the choice the way a crafted client would: with JS the shared rule refuses it before the
    // round trip, without JS the server does.
    await page
      .getByRole("form", { name: "이동" })
      .locator("select")
      .evaluate((sel: HTMLSelectElement, v) => {
        (sel.querySelector(`option[value="${v}"]`) as HTMLOptionElement).disabled = false;
        sel.value = String(v);
      }, childSeq);
    await page.getByRole("form", { name: "이동" }).getByRole("button", { name: "이동" }).click();
    await expect(page.locator("#move-parent_seq-error")).toHaveText("자기 자신이나 하위 그룹 아래로는 옮길 수 없습니다.");
    expect(
      (await store.db.selectFrom("node").select("parent_seq").where("seq", "=", parentSeq).executeTakeFirstOrThrow()).parent_seq,
    ).toBe(root.seq);

    // Move the child to the root.
    await page.goto(`/setting/group?node=${childSeq}`);
    await page.getByRole("form", { name: "이동" }).getByLabel("상위 그룹").selectOption(String(root.seq));
    await page.getByRole("form", { name: "이동" }).getByRole("button", { name: "이동" }).click();
    await expect(page.getByRole("status").filter({ hasText: "그룹을 옮겼습니다." })).toBeVisible();
    expect(
      (await store.db.selectFrom("node").select("parent_seq").where("seq", "=", childSeq).executeTakeFirstOrThrow()).parent_seq,
    ).toBe(root.seq);

    // A group that holds a member is not deleted; the answer names the member.
    const held = await member({ auth: 1, node_seq: childSeq });
    await page.goto(`/setting/group?node=${childSeq}`);
    const del = page.getByRole("form", { name: "그룹 삭제" });
    await del.getByLabel("확인 문구").fill("nope");
    await del.getByRole("button", { name: "그룹 삭제" }).click();
    await expect(page.locator("#group-delete-confirm-error")).toHaveText("확인 문구를 정확히 입력하세요.");
    await page.getByRole("form", { name: "그룹 삭제" }).getByLabel("확인 문구").fill("delete");
    await page.getByRole("form", { name: "그룹 삭제" }).getByRole("button", { name: "그룹 삭제" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "삭제하지 않았습니다" })).toContainText(held.id);
    expect(await store.db.selectFrom("node").select("seq").where("seq", "=", childSeq).executeTakeFirst()).toBeDefined();

    // Empty groups go.
    await page.goto(`/setting/group?node=${parentSeq}`);
    await page.getByRole("form", { name: "그룹 삭제" }).getByLabel("확인 문구").fill("delete");
    await page.getByRole("form", { name: "그룹 삭제" }).getByRole("button", { name: "그룹 삭제" }).click();
    await expect(page.getByRole("status").filter({ hasText: `그룹 지사 ${tag}을(를) 삭제했습니다.` })).toBeVisible();
    expect(await store.db.selectFrom("node").select("seq").where("seq", "=", parentSeq).executeTakeFirst()).toBeUndefined();
  });

  test("shows plants with their RTUs and the RTUs that are in no plant", async ({ page, member, loginByCookie, store }) => {
    const admin = await member({ auth: 10 });
    await loginByCookie(admin.id, admin.password);
    const root = await store.db.selectFrom("node").select("seq").where("parent_seq", "is", null).executeTakeFirstOrThrow();
    const tag = randomBytes(3).toString("hex");
    const now = Date.now();
    const node = await store.db
      .insertInto("node")
      .values({ name: `배치 ${tag}`, parent_seq: root.seq, sort_order: 0, created_at: now })
      .returning("seq")
      .executeTakeFirstOrThrow();
    const plantUid = `p${tag}`;
    await store.db
      .insertInto("plant")
      .values({
        uid: plantUid,
        name: `발전소 ${tag}`,
        alias: null,
        capa: 100,
        locality: null,
        address: null,
        lat: null,
        lng: null,
        node_seq: node.seq,
        package_seq: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const rtu = (uid: string, name: string, plant: string | null) => ({
      uid,
      alias: null,
      name,
      mac: randomBytes(6).toString("hex"),
      kind: 1,
      plant_uid: plant,
      node_seq: node.seq,
      package_seq: null,
      config: 0,
      credential_hash: null,
      use_yn: 1,
      created_at: now,
      updated_at: now,
      last_seen_at: null,
    });
    await store.db
      .insertInto("rtu")
      .values([rtu(`r1${tag}`, `RTU-A ${tag}`, plantUid), rtu(`r2${tag}`, `RTU-B ${tag}`, null)])
      .execute();
    await page.goto(`/setting/group?node=${node.seq}`);
    await expect(page.getByText(`발전소 ${tag}`)).toBeVisible();
    await expect(page.getByText(`RTU-A ${tag}`)).toBeVisible();
    await expect(page.getByRole("table").getByRole("link", { name: `RTU-B ${tag}` })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(`배치 ${tag}.*발전소 1 · RTU 2`) })).toHaveAttribute(
      "aria-current",
      "page",
    );
  });
});

test.describe("notices (/notice)", () => {
  test.beforeEach(async ({ page, baseURL }) => noPopup(page, baseURL!));

  test("posts, edits and deletes notices with field errors and the typed confirmation", async ({
    page,
    member,
    loginByCookie,
    store,
  }) => {
    const admin = await member({ auth: 10 });
    await loginByCookie(admin.id, admin.password);
    const tag = randomBytes(3).toString("hex");
    await page.goto("/notice");
    const create = page.getByRole("form", { name: "새 공지" });
    await create.getByRole("button", { name: "공지 등록" }).click();
    await expect(page.locator("#notice-new-content-error")).toHaveText("입력하세요.");
    // Hidden notices only: a published one would pop up in every other spec running now.
    await create.getByLabel("내용").fill(`점검 안내 ${tag}\n둘째 줄`);
    await create.getByLabel("게시 (회원에게 표시)").uncheck();
    await create.getByRole("button", { name: "공지 등록" }).click();
    await expect(page.getByRole("status").filter({ hasText: "공지를 등록했습니다." })).toBeVisible();
    const row = await store.db
      .selectFrom("notice")
      .selectAll()
      .where("content", "like", `점검 안내 ${tag}%`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ use_yn: 0, author_id: admin.id });

    await page
      .getByRole("listitem")
      .filter({ hasText: `점검 안내 ${tag}` })
      .getByRole("link", { name: "수정" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/notice/${row.seq}$`));
    const edit = page.getByRole("form", { name: `공지 수정 · ${row.seq}번` });
    await edit.getByLabel("내용").fill("");
    await edit.getByRole("button", { name: "저장" }).click();
    await expect(page.locator("#notice-edit-content-error")).toHaveText("입력하세요.");
    await page
      .getByRole("form", { name: `공지 수정 · ${row.seq}번` })
      .getByLabel("내용")
      .fill(`바뀐 안내 ${tag}`);
    await page
      .getByRole("form", { name: `공지 수정 · ${row.seq}번` })
      .getByRole("button", { name: "저장" })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "공지를 저장했습니다." })).toBeVisible();
    expect(
      (await store.db.selectFrom("notice").select("content").where("seq", "=", row.seq).executeTakeFirstOrThrow()).content,
    ).toBe(`바뀐 안내 ${tag}`);

    // Bulk delete from the list: nothing selected, then a wrong confirmation, then for real.
    const second = await store.db
      .insertInto("notice")
      .values({ content: `둘째 공지 ${tag}`, use_yn: 0, author_id: admin.id, created_at: Date.now(), updated_at: Date.now() })
      .returning("seq")
      .executeTakeFirstOrThrow();
    await page.goto("/notice?use=0");
    const list = page.getByRole("form", { name: "공지 목록" });
    await list.getByLabel("확인 문구").fill("delete");
    await list.getByRole("button", { name: "선택한 공지 삭제" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "삭제할 공지를 고르세요." })).toBeVisible();
    await page.getByLabel(`${row.seq}번 공지 선택`).check();
    await page.getByLabel(`${second.seq}번 공지 선택`).check();
    await page.getByRole("form", { name: "공지 목록" }).getByLabel("확인 문구").fill("no");
    await page.getByRole("form", { name: "공지 목록" }).getByRole("button", { name: "선택한 공지 삭제" }).click();
    await expect(page.locator("#notice-bulk-confirm-error")).toHaveText("확인 문구를 정확히 입력하세요.");
    await expect(page.getByLabel(`${row.seq}번 공지 선택`)).toBeChecked();
    await page.getByRole("form", { name: "공지 목록" }).getByLabel("확인 문구").fill("delete");
    await page.getByRole("form", { name: "공지 목록" }).getByRole("button", { name: "선택한 공지 삭제" }).click();
    await expect(page.getByRole("status").filter({ hasText: "공지 2건을 삭제했습니다." })).toBeVisible();
    expect(await store.db.selectFrom("notice").select("seq").where("seq", "in", [row.seq, second.seq]).execute()).toEqual([]);
  });

  test("a member below level 10 reads notices but gets no forms", async ({ page, member, loginByCookie }) => {
    const m = await member({ auth: 5 });
    await loginByCookie(m.id, m.password);
    await page.goto("/notice");
    await expect(page.getByRole("heading", { name: "공지사항", level: 1 })).toBeVisible();
    await expect(page.getByRole("form", { name: "새 공지" })).toHaveCount(0);
  });
});

test.describe("own profile (/modify)", () => {
  test.beforeEach(async ({ page, baseURL }) => noPopup(page, baseURL!));

  test("edits name, phone and e-mail with field errors", async ({ page, member, loginByCookie, store }) => {
    const m = await member({ auth: 1 });
    await loginByCookie(m.id, m.password);
    await page.goto("/modify");
    const form = page.getByRole("form", { name: "내 정보 수정" });
    await form.getByLabel("이메일").fill("not-mail");
    await form.getByLabel("연락처").fill("010-9876-5432");
    await form.getByRole("button", { name: "저장" }).click();
    await expect(page.locator("#profile-email-error")).toHaveText("이메일 주소 형식이 아닙니다.");
    await expect(page.getByRole("form", { name: "내 정보 수정" }).getByLabel("연락처")).toHaveValue("010-9876-5432");
    await page.getByRole("form", { name: "내 정보 수정" }).getByLabel("이메일").fill("me@example.kr");
    await page.getByRole("form", { name: "내 정보 수정" }).getByLabel("이름").fill("최수진");
    await page.getByRole("form", { name: "내 정보 수정" }).getByRole("button", { name: "저장" }).click();
    await expect(page.getByRole("status").filter({ hasText: "내 정보를 저장했습니다." })).toBeVisible();
    expect(await memberRow(store, m.id)).toMatchObject({ name: "최수진", phone: "010-9876-5432", email: "me@example.kr" });
    await expect(page.locator("dl.facts")).toContainText("최수진");
  });
});

test.describe("notice pop-up after login", () => {
  // A server of its own: the published notice must not pop up in specs running in parallel.
  let server: TestServer;

  test.beforeAll(async () => {
    server = await startServer({ store: "sqlite", port: await freePort(4500, 4599) });
    const store = await openTestStore(server.databaseUrl);
    const now = Date.now();
    await store.db
      .insertInto("notice")
      .values({ content: "정기 점검: 토요일 02:00–04:00", use_yn: 1, author_id: "admin", created_at: now, updated_at: now })
      .execute();
    await store.db
      .insertInto("notice")
      .values({ content: "숨긴 공지", use_yn: 0, author_id: "admin", created_at: now, updated_at: now })
      .execute();
    await createMember(store, { id: "popup-member", password: "Popup-2026!", auth: 1 });
    await store.close();
  });
  test.afterAll(async () => server?.stop());

  test("shows published notices after login; closing for a week sets onWeekCloseModal", async ({ page, context }) => {
    const base = server.baseUrl;
    const tokens = await apiLogin(base, "popup-member", "Popup-2026!");
    await context.addCookies(
      (["accessToken", "refreshToken", "sessionId"] as const).map((name) => ({
        name,
        value: tokens[name],
        url: base,
        httpOnly: true,
      })),
    );
    await page.goto(`${base}/`);
    const popup = js() ? page.getByRole("dialog", { name: "공지사항" }) : page.getByRole("region", { name: "공지사항" });
    await expect(popup).toBeVisible();
    await expect(popup).toContainText("정기 점검");
    await expect(popup).not.toContainText("숨긴 공지");
    await popup.getByLabel("일주일 동안 보지 않기").check();
    await popup.getByRole("button", { name: "닫기" }).first().click();
    await expect(popup).toHaveCount(0);
    await expect.poll(() => cookieValue(context, "onWeekCloseModal")).toBe("Y");
    const cookie = (await context.cookies()).find((c) => c.name === "onWeekCloseModal")!;
    expect(cookie.path).toBe("/");
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    await page.reload();
    await expect(page.getByText("정기 점검")).toHaveCount(0);
  });

  test("a plain close hides it for the rest of the session only", async ({ page, context }) => {
    const base = server.baseUrl;
    const tokens = await apiLogin(base, "popup-member", "Popup-2026!");
    await context.addCookies(
      (["accessToken", "refreshToken", "sessionId"] as const).map((name) => ({
        name,
        value: tokens[name],
        url: base,
        httpOnly: true,
      })),
    );
    await page.goto(`${base}/modify`);
    const popup = js() ? page.getByRole("dialog", { name: "공지사항" }) : page.getByRole("region", { name: "공지사항" });
    await expect(popup).toBeVisible();
    if (js()) {
      // The dialog is on screen from the server's markup before Radix listens for Escape (hydration, then an
      // effect): on a loaded machine an early key press goes nowhere, so press again until it closes.
      await expect(async () => {
        await page.keyboard.press("Escape");
        await expect(popup).toHaveCount(0, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
    } else await popup.getByRole("button", { name: "닫기" }).click();
    await expect(popup).toHaveCount(0);
    await expect.poll(() => cookieValue(context, "noticeClosed")).toBe(tokens.sessionId);
    expect(await cookieValue(context, "onWeekCloseModal")).toBeUndefined();
    await page.goto(`${base}/notice`);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "공지사항" })).toHaveCount(0);
    // A new login brings it back.
    const again = await apiLogin(base, "popup-member", "Popup-2026!");
    await context.addCookies(
      (["accessToken", "refreshToken", "sessionId"] as const).map((name) => ({
        name,
        value: again[name],
        url: base,
        httpOnly: true,
      })),
    );
    await page.goto(`${base}/`);
    await expect(
      js() ? page.getByRole("dialog", { name: "공지사항" }) : page.getByRole("region", { name: "공지사항" }),
    ).toBeVisible();
  });
});
