/**
 * The alarm mail's link (issue 29 §2), with JavaScript on and off: /alarm/<seq> opened while signed out goes to the
 * login form and, after it, back to the alarm (the login's redirect-target rule); the alarm is acknowledged there
 * with a note, on a phone-sized screen, and the list shows it so. A ladder form refuses a bad step with a field error.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ADMIN_PASSWORD } from "../helpers/server";
import { createGatewayFixture } from "../helpers/telemetry";
import { expect, submitLogin, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 } });

/** Serious and critical accessibility findings (axe) on the page as it is; axe runs in the page, so with script only. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (test.info().project.name === "nojs") return [];
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
}

test("opens an alarm from its mail link after login and acknowledges it", async ({ page, store, member }) => {
  const g = await createGatewayFixture(store);
  // An alarm of a device that never reported: the engine leaves it as it is (nothing about it can be judged now).
  const now = Date.now();
  const seq = Number(
    (
      await store.db
        .insertInto("alarm")
        .values({
          plant_uid: g.plantUid,
          rtu_uid: g.rtuUid,
          device_uid: g.board,
          code: 1000001,
          level: 4,
          fault_code: null,
          message: "fixture",
          raised_at: now,
          released_at: null,
          active_since: now,
          last_seen_at: now,
          toggles: 2,
        })
        .returning("seq")
        .executeTakeFirstOrThrow()
    ).seq,
  );
  const m = await member();
  await page.goto(`/alarm/${seq}`);
  await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=%2Falarm%2F${seq}$`));
  await submitLogin(page, m.id, m.password);
  await expect(page).toHaveURL(new RegExp(`/alarm/${seq}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`알람 #${seq}`);
  await expect(page.getByTestId("alarm-state")).toHaveText("발생");
  await expect(page.getByText("반복 2회")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel("메모").fill("모바일에서 확인");
  await page.getByRole("button", { name: "확인", exact: true }).click();
  await expect(page.getByTestId("alarm-state")).toHaveText("확인됨");
  await expect(page.getByText("알람을 확인 처리했습니다.")).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "모바일에서 확인" })).toBeVisible();
  const row = await store.db.selectFrom("alarm").select(["ack_by", "ack_note"]).where("seq", "=", seq).executeTakeFirstOrThrow();
  expect(row).toEqual({ ack_by: m.id, ack_note: "모바일에서 확인" });
});

test("a plant's ladder form saves steps and shows field errors", async ({ page, store, loginByCookie }) => {
  const g = await createGatewayFixture(store);
  await loginByCookie("admin", ADMIN_PASSWORD);
  await page.goto(`/setting/ladder?plant=${g.plantUid}`);
  await expect(page.getByTestId("ladder-source")).toHaveText("기본 단계를 사용 중입니다.");
  const step = (n: number) => page.getByRole("group", { name: `${n}단계` });
  expect(await seriousViolations(page)).toEqual([]);
  await step(2).getByLabel("발생 후 (분)").fill("0");
  await page.getByRole("button", { name: "저장" }).click();
  await expect(step(2).getByText("앞 단계보다 늦어야 합니다.")).toBeVisible();
  await step(2).getByLabel("발생 후 (분)").fill("20");
  await page.getByRole("button", { name: "저장" }).click();
  await expect(page.getByText("단계 알림을 저장했습니다.")).toBeVisible();
  await expect(page.getByTestId("ladder-source")).toHaveText("이 범위의 단계를 사용 중입니다.");
  await expect(step(2).getByLabel("발생 후 (분)")).toHaveValue("20");
  const saved = await store.db
    .selectFrom("alarm_ladder")
    .select("steps")
    .where("scope", "=", `plant:${g.plantUid}`)
    .executeTakeFirstOrThrow();
  expect(JSON.parse(saved.steps)[1]).toEqual({ afterMinutes: 20, roles: ["operator", "safety"] });
});
