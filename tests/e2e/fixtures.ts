/**
 * Playwright fixtures: the server started by global-setup, its store for creating state directly,
 * and a login by cookie (tokens from the API, no form) for specs that are not about the login form.
 */
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import type { LoginResponse } from "../../domain/contract/auth";
import { createMember, openTestStore, type MemberFixture, type Store } from "../helpers/fixtures";

export { expect };

export interface E2EServer {
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  accessTokenTtl: number;
}

function e2eServer(): E2EServer {
  const baseUrl = process.env.E2E_BASE_URL;
  if (!baseUrl) throw new Error("E2E_BASE_URL is not set: run through playwright.config.ts (global-setup starts the server)");
  return {
    baseUrl,
    dataDir: process.env.E2E_DATA_DIR!,
    databaseUrl: process.env.E2E_DATABASE_URL!,
    accessTokenTtl: Number(process.env.E2E_ACCESS_TOKEN_TTL),
  };
}

export const AUTH_COOKIES = ["accessToken", "refreshToken", "sessionId"] as const;

export async function apiLogin(baseUrl: string, id: string, password: string): Promise<LoginResponse> {
  const res = await fetch(`${baseUrl}/api/member/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, password }),
  });
  if (res.status !== 200) throw new Error(`login ${id}: ${res.status} ${await res.text()}`);
  return (await res.json()) as LoginResponse;
}

export async function cookieValue(context: BrowserContext, name: string): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

export async function authCookies(context: BrowserContext) {
  const jar = await context.cookies();
  return Object.fromEntries(AUTH_COOKIES.map((n) => [n, jar.find((c) => c.name === n)]));
}

/**
 * Signed in as `id`: the shell's top bar names the member and the main menu is there. (The content of
 * each screen belongs to its own spec; these checks stay valid whatever the main page shows.)
 */
export async function expectSignedInAs(page: Page, id: string) {
  await expect(page.getByRole("banner").locator(".who")).toContainText(id);
  await expect(page.getByRole("navigation", { name: "주 메뉴" })).toBeVisible();
}

/** Fills and submits the login form (the page must be on /login). */
export async function submitLogin(page: Page, id: string, password: string) {
  await page.getByLabel("아이디").fill(id);
  await page.getByLabel("비밀번호").fill(password);
  await page.getByRole("button", { name: "로그인", exact: true }).click();
}

type Fixtures = {
  server: E2EServer;
  member: (overrides?: Parameters<typeof createMember>[1]) => Promise<MemberFixture>;
  /** Signs the browser context in by setting the session cookies from an API login. */
  loginByCookie: (id: string, password: string) => Promise<LoginResponse>;
};

export const test = base.extend<Fixtures, { store: Store }>({
  store: [
    async ({}, use) => {
      const store = await openTestStore(e2eServer().databaseUrl);
      await use(store);
      await store.close();
    },
    { scope: "worker" },
  ],
  // The app promotion pop-up (a modal on every page until hidden) is hidden for every spec but its own,
  // which clears this cookie.
  context: async ({ context }, use) => {
    await context.addCookies([{ name: "NewAppOpenPop", value: "Y", url: e2eServer().baseUrl }]);
    await use(context);
  },
  server: async ({}, use) => use(e2eServer()),
  baseURL: async ({}, use) => use(e2eServer().baseUrl),
  member: async ({ store }, use) => use((overrides) => createMember(store, overrides)),
  loginByCookie: async ({ context, server }, use) =>
    use(async (id, password) => {
      const tokens = await apiLogin(server.baseUrl, id, password);
      const common = { url: server.baseUrl, httpOnly: true, sameSite: "Lax" as const };
      await context.addCookies([
        { ...common, name: "accessToken", value: tokens.accessToken },
        { ...common, name: "refreshToken", value: tokens.refreshToken },
        { ...common, name: "sessionId", value: tokens.sessionId },
      ]);
      return tokens;
    }),
});
