/**
 * Sessions in the portal: forced password change (pwd_yn), access-token renewal with the
 * refresh token (SPEC §4 Token check), sessions ended elsewhere, and logout.
 */
import { decodeTokenPayload } from "../../domain/contract/auth";
import { memberRow, tokenFamily } from "../helpers/fixtures";
import { apiLogin, authCookies, cookieValue, expect, submitLogin, test } from "./fixtures";

const nav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "주 메뉴" });

test.describe("forced password change", () => {
  test("a member with pwd_yn = 1 must change the password before anything else", async ({ page, member, store }) => {
    const m = await member({ pwd_yn: 1 });
    await page.goto("/login");
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/modify\?required=1$/);
    await expect(page.getByRole("alert")).toContainText("비밀번호를 변경하세요");
    await expect(nav(page).getByRole("link")).toHaveCount(0);

    // Every other page sends the member back here.
    for (const path of ["/", "/pvstatus", "/setting", "/notice"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/modify\?required=1$/);
    }

    // Mistakes are reported on the form and change nothing.
    await page.getByLabel("현재 비밀번호").fill("not-my-password-1");
    await page.getByLabel("새 비밀번호", { exact: true }).fill("Sunny-day-2026!");
    await page.getByLabel("새 비밀번호 확인").fill("Sunny-day-2026!");
    await page.getByRole("button", { name: "변경" }).click();
    await expect(page.getByText("현재 비밀번호가 올바르지 않습니다.")).toBeVisible();
    expect((await memberRow(store, m.id))!.pwd_yn).toBe(1);

    await page.getByLabel("현재 비밀번호").fill(m.password);
    await page.getByLabel("새 비밀번호", { exact: true }).fill("Sunny-day-2026!");
    await page.getByLabel("새 비밀번호 확인").fill("Sunny-day-2027!");
    await page.getByRole("button", { name: "변경" }).click();
    await expect(page.getByText("새 비밀번호와 확인이 다릅니다.")).toBeVisible();

    await page.getByLabel("현재 비밀번호").fill(m.password);
    await page.getByLabel("새 비밀번호", { exact: true }).fill("Sunny-day-2026!");
    await page.getByLabel("새 비밀번호 확인").fill("Sunny-day-2026!");
    await page.getByRole("button", { name: "변경" }).click();
    await expect(page).toHaveURL(/\/modify\?changed=1$/);
    await expect(page.getByRole("status")).toHaveText("비밀번호가 변경되었습니다.");
    expect((await memberRow(store, m.id))!.pwd_yn).toBe(0);

    // Navigation is back and works.
    await expect(nav(page).getByRole("link", { name: "발전소 현황" })).toBeVisible();
    await nav(page).getByRole("link", { name: "발전소 현황" }).click();
    await expect(page).toHaveURL(/\/pvstatus$/);
    await page.goto("/");
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("token renewal", () => {
  test("an expired access token is renewed with the refresh token on the next navigation", async ({
    page,
    context,
    server,
    member,
  }) => {
    const m = await member();
    await page.goto("/login");
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/$/);
    const before = await authCookies(context);
    const exp = decodeTokenPayload<{ exp: number }>(before.accessToken!.value)!.exp;
    expect(exp * 1000 - Date.now()).toBeLessThanOrEqual(server.accessTokenTtl * 1000);

    // Wait until the server holds the access token expired (TTL is 8 s on the e2e server).
    await expect
      .poll(
        async () =>
          (
            await page.request.get(`${server.baseUrl}/api/member/isAuth`, {
              headers: { authorization: `Bearer ${before.accessToken!.value}` },
            })
          ).status(),
        { timeout: server.accessTokenTtl * 1000 + 10_000 },
      )
      .toBe(401);
    await nav(page).getByRole("link", { name: "통계" }).click();
    await expect(page).toHaveURL(/\/statistics$/);
    await expect(nav(page)).toBeVisible();

    const after = await authCookies(context);
    expect(after.accessToken?.value).toBeDefined();
    expect(after.accessToken!.value).not.toBe(before.accessToken!.value);
    expect(after.refreshToken!.value).not.toBe(before.refreshToken!.value);
    expect(after.sessionId!.value).toBe(before.sessionId!.value);
    expect(decodeTokenPayload<{ exp: number }>(after.accessToken!.value)!.exp * 1000).toBeGreaterThan(Date.now());

    // The renewed session keeps working on a page that calls the API (/modify loads the profile).
    await page.goto("/modify");
    await expect(page).toHaveURL(/\/modify$/);
    await expect(page.getByRole("definition").filter({ hasText: new RegExp(`^${m.id}$`) })).toBeVisible();
  });

  test("when renewal is impossible the tokens are removed and the member lands on /login", async ({ page, context, server }) => {
    await context.addCookies([
      { name: "accessToken", value: "expired.or.garbage", url: server.baseUrl },
      { name: "refreshToken", value: "not-a-refresh-token", url: server.baseUrl },
      { name: "sessionId", value: "nope", url: server.baseUrl },
    ]);
    await page.goto("/pvstatus");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpvstatus$/);
    const cookies = await authCookies(context);
    expect(cookies.accessToken).toBeUndefined();
    expect(cookies.refreshToken).toBeUndefined();
  });

  test("a session ended elsewhere (password changed on another device) leads to /login, not a redirect loop", async ({
    page,
    context,
    member,
    loginByCookie,
    server,
    store,
  }) => {
    const m = await member();
    const mine = await loginByCookie(m.id, m.password);
    await page.goto("/modify");
    await expect(page.getByRole("definition").filter({ hasText: new RegExp(`^${m.id}$`) })).toBeVisible();

    // The same member changes the password on another device: this session is revoked.
    const other = await apiLogin(server.baseUrl, m.id, m.password);
    const res = await fetch(`${server.baseUrl}/api/member/${m.id}/password`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${other.accessToken}` },
      body: JSON.stringify({ currentPassword: m.password, newPassword: "Other-device-2026!" }),
    });
    expect(res.status).toBe(200);
    expect(await tokenFamily(store, mine.sessionId)).toMatchObject({ revoked_reason: "password_changed" });

    // /modify calls the API with the (locally unexpired) access token; the API refuses it.
    const response = await page.goto("/modify");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole("button", { name: "로그인", exact: true })).toBeVisible();
    expect((await authCookies(context)).accessToken).toBeUndefined();
  });
});

test.describe("logout", () => {
  test("clears the cookies, ends the API session and lands on /login", async ({ page, context, server, member }) => {
    const m = await member();
    await page.goto("/login");
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/$/);
    const accessToken = (await cookieValue(context, "accessToken"))!;

    await page.getByRole("button", { name: "로그아웃" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "로그인", exact: true })).toBeVisible();
    const cookies = await authCookies(context);
    expect(cookies.accessToken).toBeUndefined();
    expect(cookies.refreshToken).toBeUndefined();
    expect(cookies.sessionId).toBeUndefined();

    // The API refuses the old token at once.
    const res = await fetch(`${server.baseUrl}/api/member/isAuth`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(res.status).toBe(401);

    // Protected pages redirect to /login.
    for (const path of ["/", "/pvstatus", "/modify", "/setting"]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login(\?|$)/);
    }
  });

  test("GET /logout does not log out (it is a form post with a CSRF token)", async ({ page, context, member, loginByCookie }) => {
    const m = await member();
    await loginByCookie(m.id, m.password);
    await page.goto("/logout");
    await expect(page).toHaveURL(/\/$/);
    expect((await authCookies(context)).accessToken).toBeDefined();
  });
});
