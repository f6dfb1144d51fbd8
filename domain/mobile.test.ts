import { describe, it, expect } from "vitest";
import { isAndroidDevice, isIosDevice, isMobileClient } from "./mobile";

const UA = {
  iphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipadOld: "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  androidPhone:
    "Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X910N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};

describe("isMobileClient", () => {
  it("detects phones and iOS devices by user agent", () => {
    expect(isMobileClient({ userAgent: UA.iphone })).toBe(true);
    expect(isMobileClient({ userAgent: UA.ipadOld, width: 1366 })).toBe(true);
    expect(isMobileClient({ userAgent: UA.androidPhone, width: 1920 })).toBe(true);
  });

  it("treats an Android tablet as mobile only up to 1200 px", () => {
    expect(isMobileClient({ userAgent: UA.androidTablet, width: 1200 })).toBe(true);
    expect(isMobileClient({ userAgent: UA.androidTablet, width: 1201 })).toBe(false);
    expect(isMobileClient({ userAgent: UA.androidTablet })).toBe(true); // width unknown (server)
  });

  it("detects a touch Mac (iPadOS desktop mode)", () => {
    expect(isMobileClient({ userAgent: UA.mac, maxTouchPoints: 5 })).toBe(true);
    expect(isMobileClient({ userAgent: UA.mac, maxTouchPoints: 1 })).toBe(false);
    expect(isMobileClient({ userAgent: UA.mac, maxTouchPoints: 0 })).toBe(false);
    expect(isMobileClient({ userAgent: UA.mac })).toBe(false);
  });

  it("leaves desktops alone, whatever their width", () => {
    expect(isMobileClient({ userAgent: UA.windows, width: 800, maxTouchPoints: 10 })).toBe(false);
    expect(isMobileClient({ userAgent: "" })).toBe(false);
    expect(isMobileClient({ userAgent: null })).toBe(false);
  });
});

describe("app store device checks", () => {
  it("Android", () => {
    expect(isAndroidDevice(UA.androidPhone)).toBe(true);
    expect(isAndroidDevice(UA.androidTablet)).toBe(true);
    expect(isAndroidDevice(UA.iphone)).toBe(false);
    expect(isAndroidDevice(undefined)).toBe(false);
  });

  it("iPhone, iPad, iPod", () => {
    expect(isIosDevice({ userAgent: UA.iphone })).toBe(true);
    expect(isIosDevice({ userAgent: UA.ipadOld })).toBe(true);
    expect(isIosDevice({ userAgent: "Mozilla/5.0 (iPod touch; CPU iPhone OS 12_5 like Mac OS X)" })).toBe(true);
    expect(isIosDevice({ userAgent: UA.mac, maxTouchPoints: 5 })).toBe(true);
    expect(isIosDevice({ userAgent: UA.mac, maxTouchPoints: 0 })).toBe(false);
    expect(isIosDevice({ userAgent: UA.androidPhone })).toBe(false);
  });
});
