/**
 * The app promotion pop-up (SPEC §2 App promotion pop-up, §8 QR row, §9 NewAppOpenPop and mobile detection):
 * shown on load unless the cookie NewAppOpenPop exists; one QR per platform; the Android store link works
 * only on an Android device and the iOS one only on iPhone, iPad and iPod — elsewhere an alert says so.
 * "Hide for 1 week" sets the cookie for 7 days; the other button only closes.
 */
import { isAndroidDevice, isIosDevice, type ClientHints } from "./mobile";

export const APP_PROMO_COOKIE = "NewAppOpenPop";
export const APP_PROMO_DAYS = 7;
export const APP_PROMO_MAX_AGE_S = APP_PROMO_DAYS * 24 * 3600;
/**
 * Closing without "hide for 1 week" closes the pop-up for this browser session only; with script the dialog
 * simply closes, without script a page load is the only way to close it, so this session cookie stands in.
 */
export const APP_PROMO_CLOSED_COOKIE = "NewAppOpenPopClosed";

export const PLATFORMS = ["android", "ios"] as const;
export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(v: unknown): v is Platform {
  return v === "android" || v === "ios";
}

/** Whether the pop-up shows, from the request's cookies. */
export function appPromoShown(cookies: Record<string, string | undefined>): boolean {
  return cookies[APP_PROMO_COOKIE] === undefined && cookies[APP_PROMO_CLOSED_COOKIE] === undefined;
}

export type StoreLinkDecision = { open: true } | { open: false; alert: "android_only" | "ios_only" };

/** What a click (or tap) on a platform's QR does on this device. */
export function storeLinkDecision(platform: Platform, hints: ClientHints): StoreLinkDecision {
  if (platform === "android") return isAndroidDevice(hints.userAgent) ? { open: true } : { open: false, alert: "android_only" };
  return isIosDevice(hints) ? { open: true } : { open: false, alert: "ios_only" };
}
