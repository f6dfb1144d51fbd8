// Mobile detection of SPEC §9 and the device checks of the app promotion pop-up (SPEC §2).

export interface ClientHints {
  userAgent: string | null | undefined;
  /** Viewport width in CSS px; unknown on the server. */
  width?: number | null;
  /** navigator.maxTouchPoints; unknown on the server. */
  maxTouchPoints?: number | null;
}

/** Android tablets up to this width count as mobile. */
export const ANDROID_MOBILE_MAX_WIDTH = 1200;

// Phones and iOS devices. Android is handled apart because a wide Android tablet is a desktop here.
const MOBILE_UA = /iPhone|iPad|iPod|Mobi|BlackBerry|IEMobile|Opera Mini|webOS/i;

/**
 * Mobile by user agent; or Android with width ≤ 1200 (an Android UA with unknown width, as on the
 * server, counts as mobile because most are handhelds); or a touch Mac (iPadOS in desktop mode
 * reports "Macintosh" but has more than one touch point).
 */
export function isMobileClient({ userAgent, width, maxTouchPoints }: ClientHints): boolean {
  const ua = userAgent ?? "";
  if (MOBILE_UA.test(ua)) return true;
  if (/Android/i.test(ua) && (width == null || width <= ANDROID_MOBILE_MAX_WIDTH)) return true;
  return isTouchMac(ua, maxTouchPoints);
}

function isTouchMac(ua: string, maxTouchPoints: number | null | undefined): boolean {
  return /Macintosh/i.test(ua) && (maxTouchPoints ?? 0) > 1;
}

/** The Android store QR works only on Android devices. */
export function isAndroidDevice(userAgent: string | null | undefined): boolean {
  return /Android/i.test(userAgent ?? "");
}

/** The iOS store QR works on iPhone, iPad and iPod (including iPadOS posing as a Mac). */
export function isIosDevice({ userAgent, maxTouchPoints }: ClientHints): boolean {
  const ua = userAgent ?? "";
  return /iPhone|iPad|iPod/i.test(ua) || isTouchMac(ua, maxTouchPoints);
}
