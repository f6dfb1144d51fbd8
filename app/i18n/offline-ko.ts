/** Korean texts of the offline banner of the shell (kiosk wallboards); offline-en.ts is its twin. */
export const offlineKo = {
  offline: {
    banner: "오프라인 · {time}부터 연결이 끊겼습니다. 마지막으로 받은 상태를 보여 줍니다.",
    back: "연결되면 저절로 새로 고칩니다.",
    server: "서버에 연결할 수 없습니다 · {time}부터. 마지막으로 받은 상태를 보여 줍니다.",
    retrying: "서버가 응답하면 저절로 새로 고칩니다.",
  },
};

export type OfflineMessages = typeof offlineKo;
