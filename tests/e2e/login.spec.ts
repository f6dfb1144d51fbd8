/** Login (SPEC §2 /login, §4 Login, §8 login_failure): the form with and without JavaScript. */
import { GUEST_ID } from "../../domain/guest";
import { ADMIN_PASSWORD } from "../helpers/server";
import { authCookies, expect, expectSignedInAs, submitLogin, test } from "./fixtures";

test.describe("login", () => {
  test("signs in with id and password and sets HttpOnly, SameSite=Lax session cookies", async ({ page, context, member }) => {
    const m = await member({ name: "김태양" });
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("태양광 발전소 통합 관제");
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/$/);
    await expectSignedInAs(page, m.id);
    // /modify shows the member's own profile, fetched from the API with the new session.
    await page.goto("/modify");
    await expect(page.getByRole("definition").filter({ hasText: "김태양" })).toBeVisible();
    const cookies = await authCookies(context);
    for (const name of ["accessToken", "refreshToken", "sessionId"] as const) {
      expect(cookies[name], name).toBeDefined();
      expect(cookies[name]!.httpOnly, name).toBe(true);
      expect(cookies[name]!.sameSite, name).toBe("Lax");
      expect(cookies[name]!.path, name).toBe("/");
    }
  });

  test("returns to the page that asked for login, and only to local pages", async ({ page, member }) => {
    const m = await member();
    await page.goto("/statistics");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fstatistics$/);
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/statistics$/);

    await page.context().clearCookies();
    await page.goto("/login?redirectTo=//evil.example/steal");
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test("shows login_failure on the form for a wrong password, without saying whether the id exists", async ({
    page,
    context,
    member,
  }) => {
    const m = await member();
    await page.goto("/login");
    await submitLogin(page, m.id, "definitely-wrong-1");
    const alert = page.getByRole("alert");
    await expect(alert).toHaveText("아이디 또는 비밀번호가 올바르지 않습니다.");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel("아이디")).toHaveValue(m.id);
    await expect(page.getByLabel("비밀번호")).toHaveAttribute("aria-invalid", "true");
    expect((await authCookies(context)).accessToken).toBeUndefined();

    // An unknown id gets exactly the same text.
    await submitLogin(page, `${m.id}x`, "definitely-wrong-1");
    await expect(page.getByRole("alert")).toHaveText("아이디 또는 비밀번호가 올바르지 않습니다.");
    // And the right password still works afterwards.
    await submitLogin(page, m.id, m.password);
    await expect(page).toHaveURL(/\/$/);
  });

  test("asks for both fields when one is empty", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("아이디").fill("admin");
    await page.getByRole("button", { name: "로그인", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("아이디와 비밀번호를 입력하세요.");
  });

  test("the guest button signs in the read-only guest", async ({ page, context }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "게스트로 둘러보기" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectSignedInAs(page, GUEST_ID);
    await expect(page.locator(".topbar")).toContainText("읽기 전용");
    expect((await authCookies(context)).accessToken).toBeDefined();
    // The guest cannot change the password: the form is not offered.
    await page.goto("/modify");
    await expect(page.getByText("게스트 계정은 비밀번호를 변경할 수 없습니다.")).toBeVisible();
    await expect(page.getByLabel("새 비밀번호", { exact: true })).toHaveCount(0);
  });

  test("a signed-in member who opens /login goes to the main page", async ({ page, loginByCookie }) => {
    await loginByCookie("admin", ADMIN_PASSWORD);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
  });
});
