import { describe, expect, it } from "vitest";
import { APP_PROMO_CLOSED_COOKIE, APP_PROMO_COOKIE, APP_PROMO_MAX_AGE_S, appPromoShown, storeLinkDecision } from "./app-promo";

const UA = {
  android: "Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X916B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipod: "Mozilla/5.0 (iPod touch; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  ipadDesktopMode:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};

describe("app promotion pop-up (SPEC §2, §9)", () => {
  it("shows unless NewAppOpenPop (or this session's close) is set; the week lasts 7 days", () => {
    expect(appPromoShown({})).toBe(true);
    expect(appPromoShown({ [APP_PROMO_COOKIE]: "Y" })).toBe(false);
    expect(appPromoShown({ [APP_PROMO_COOKIE]: "" })).toBe(false);
    expect(appPromoShown({ [APP_PROMO_CLOSED_COOKIE]: "1" })).toBe(false);
    expect(appPromoShown({ onWeekCloseModal: "Y" })).toBe(true);
    expect(APP_PROMO_MAX_AGE_S).toBe(604_800);
  });

  it("the Android QR opens the store only on Android devices", () => {
    expect(storeLinkDecision("android", { userAgent: UA.android })).toEqual({ open: true });
    expect(storeLinkDecision("android", { userAgent: UA.androidTablet, width: 1600 })).toEqual({ open: true });
    for (const ua of [UA.iphone, UA.windows, UA.ipadDesktopMode]) {
      expect(storeLinkDecision("android", { userAgent: ua })).toEqual({ open: false, alert: "android_only" });
    }
  });

  it("the iOS QR opens the store on iPhone, iPad (also in desktop mode) and iPod only", () => {
    expect(storeLinkDecision("ios", { userAgent: UA.iphone })).toEqual({ open: true });
    expect(storeLinkDecision("ios", { userAgent: UA.ipod })).toEqual({ open: true });
    expect(storeLinkDecision("ios", { userAgent: UA.ipadDesktopMode, maxTouchPoints: 5 })).toEqual({ open: true });
    expect(storeLinkDecision("ios", { userAgent: UA.ipadDesktopMode, maxTouchPoints: 0 })).toEqual({
      open: false,
      alert: "ios_only",
    });
    for (const ua of [UA.android, UA.windows])
      expect(storeLinkDecision("ios", { userAgent: ua })).toEqual({ open: false, alert: "ios_only" });
  });
});
