/** Korean texts of the app promotion pop-up (SPEC §2, §8); app-promo-en.ts is its twin. */
export const appPromoKo = {
  appPromo: {
    title: "새 모바일 앱이 나왔습니다",
    body: "휴대폰으로 QR 코드를 찍거나, 휴대폰에서 QR 코드를 눌러 스토어로 가세요.",
    android: "Android 앱",
    ios: "iOS 앱 (iPhone · iPad)",
    qrAndroid: "Android 앱 스토어로 가는 QR 코드",
    qrIos: "iOS 앱 스토어로 가는 QR 코드",
    week: "1주일 동안 보지 않기",
    close: "닫기",
    androidOnly: "안드로이드 폰에서만 이용 가능한 링크입니다.",
    iosOnly: "아이폰에서만 이용 가능한 링크입니다.",
  },
};

export type AppPromoMessages = typeof appPromoKo;
