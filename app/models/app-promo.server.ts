/**
 * The app promotion pop-up's server side (SPEC §2, §9): whether it shows (cookie NewAppOpenPop), the store
 * links (APP_ANDROID_URL, APP_IOS_URL; defaults are the stores' search pages for the app until its listing
 * ids are known) and their QR codes, rendered once as SVG with the qrcode package.
 */
import { serialize } from "cookie";
import QRCode from "qrcode";
import {
  APP_PROMO_CLOSED_COOKIE,
  APP_PROMO_COOKIE,
  APP_PROMO_MAX_AGE_S,
  appPromoShown,
  type Platform,
} from "../../domain/app-promo";
import { readCookies } from "../auth/cookies.server";

export function storeUrl(platform: Platform): string {
  const configured = platform === "android" ? process.env.APP_ANDROID_URL : process.env.APP_IOS_URL;
  if (configured && /^https:\/\//.test(configured)) return configured;
  return platform === "android"
    ? "https://play.google.com/store/search?q=%ED%83%9C%EC%96%91%EA%B4%91%20%EB%B0%9C%EC%A0%84%EC%86%8C%20%ED%86%B5%ED%95%A9%20%EA%B4%80%EC%A0%9C&c=apps"
    : "https://apps.apple.com/kr/search?term=%ED%83%9C%EC%96%91%EA%B4%91%20%EB%B0%9C%EC%A0%84%EC%86%8C%20%ED%86%B5%ED%95%A9%20%EA%B4%80%EC%A0%9C";
}

const qrCache = new Map<string, Promise<string>>();
function qrSvg(text: string): Promise<string> {
  let svg = qrCache.get(text);
  if (!svg) {
    svg = QRCode.toString(text, {
      type: "svg",
      margin: 1,
      errorCorrectionLevel: "M",
      color: { dark: "#000000", light: "#ffffff" },
    });
    qrCache.set(text, svg);
  }
  return svg;
}

export interface AppPromo {
  android: { qr: string };
  ios: { qr: string };
}

/** The pop-up's content, or null when the member hid it. */
export async function appPromoFor(request: Request): Promise<AppPromo | null> {
  if (!appPromoShown(readCookies(request.headers.get("cookie")))) return null;
  const [android, ios] = await Promise.all([qrSvg(storeUrl("android")), qrSvg(storeUrl("ios"))]);
  return { android: { qr: android }, ios: { qr: ios } };
}

/** "Hide for 1 week": NewAppOpenPop for 7 days (path /); a plain close: for this browser session. */
export function appPromoCloseCookie(week: boolean): string {
  return week
    ? serialize(APP_PROMO_COOKIE, "Y", { path: "/", sameSite: "lax", maxAge: APP_PROMO_MAX_AGE_S })
    : serialize(APP_PROMO_CLOSED_COOKIE, "1", { path: "/", sameSite: "lax", httpOnly: true });
}
