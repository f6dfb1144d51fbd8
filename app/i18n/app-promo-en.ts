/** English twin of app-promo-ko.ts (key-for-key; the type enforces it). */
import type { AppPromoMessages } from "./app-promo-ko";
import type { Widen } from "./ko";

export const appPromoEn: Widen<AppPromoMessages> = {
  appPromo: {
    title: "Our new mobile app is here",
    body: "Scan a QR code with your phone, or tap it on your phone to go to the store.",
    android: "Android app",
    ios: "iOS app (iPhone · iPad)",
    qrAndroid: "QR code to the Android app store",
    qrIos: "QR code to the iOS App Store",
    week: "Hide for 1 week",
    close: "Close",
    androidOnly: "This link is available only on Android phones.",
    iosOnly: "This link is available only on iPhones.",
  },
};
