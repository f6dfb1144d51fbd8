/**
 * Browser-side events for end-to-end tests to wait on, instead of a fixed time "for the page to settle".
 */
import type { Page } from "@playwright/test";

/**
 * The Remix router is idle (a poll's or a navigation's answer has been committed) and the browser has painted what
 * followed from it (two animation frames: React renders the committed state before the next frame).
 */
export async function answerRendered(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: { state: { navigation: { state: string }; revalidation: string } } })
      .__remixRouter;
    return !!router && router.state.navigation.state === "idle" && router.state.revalidation === "idle";
  });
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Fonts are loaded and every finite animation or transition has ended: what a screenshot should show. */
export async function stillForScreenshot(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });
}
