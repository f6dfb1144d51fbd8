/**
 * The API reference for people (issue 27): /help links /api/docs, which renders the OpenAPI description with the
 * portal's own Redoc bundle (with JavaScript), or links the description itself (without).
 */
import { ADMIN_PASSWORD } from "../helpers/server";
import { expect, test } from "./fixtures";

test.setTimeout(150_000);

test("help links the API reference, which renders the description offline", async ({ page, loginByCookie }) => {
  await loginByCookie("admin", ADMIN_PASSWORD);
  await page.goto("/help");
  // Nothing is fetched from elsewhere (Redoc's own "powered by" logo on its CDN is refused by the page's CSP).
  const outside: string[] = [];
  page.on("response", (r) => {
    if (!/^(blob|data):/.test(r.url()) && new URL(r.url()).origin !== new URL(page.url()).origin) outside.push(r.url());
  });
  await page.getByRole("link", { name: "API 설명서 (OpenAPI, 다른 시스템 연동용)" }).click();
  await expect(page).toHaveURL(/\/api\/docs$/);
  if (test.info().project.name === "js") {
    await expect(page.getByRole("heading", { level: 1, name: /Solar plant portal API/ })).toBeVisible({ timeout: 90_000 }); // Redoc lays out ~155 operations: 20 s on a loaded machine
    // An operation of the description, by its summary.
    await expect(page.getByText("Log in with id and password (SPEC §4 Login)").first()).toBeAttached();
  } else {
    await expect(page.getByRole("link", { name: "/api/openapi.json" }).first()).toBeVisible();
  }
  expect(outside, outside.join(" ")).toEqual([]);
});
