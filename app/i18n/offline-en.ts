/** English twin of offline-ko.ts (key-for-key; the type enforces it). */
import type { Widen } from "./ko";
import type { OfflineMessages } from "./offline-ko";

export const offlineEn: Widen<OfflineMessages> = {
  offline: {
    banner: "Offline since {time}. Showing the last status received.",
    back: "It refreshes by itself when the connection returns.",
    server: "Cannot reach the server · since {time}. Showing the last status received.",
    retrying: "It refreshes by itself when the server answers again.",
  },
};
