/**
 * Which admin areas a member's auth level may administer (SPEC §6 admin level table).
 * The table is taken literally: it is not a simple ordering of levels.
 */
export const ADMIN_AREAS = ["id", "group", "rtu", "plant", "device", "setting"] as const;
export type AdminArea = (typeof ADMIN_AREAS)[number];

const ID_LEVELS = new Set([0, 1, 2, 4, 5, 8, 10]);

export function canAdminister(area: AdminArea, auth: number | null | undefined): boolean {
  if (typeof auth !== "number" || !Number.isInteger(auth)) return false;
  switch (area) {
    case "id":
      return ID_LEVELS.has(auth);
    case "group":
      return auth === 10;
    case "rtu":
      return auth === 6 || auth === 10;
    case "plant":
    case "device":
      return auth >= 2;
    case "setting":
      return auth >= 10;
  }
}

/** The admin areas a level may open; an empty list means the admin menu is hidden. */
export function adminAreas(auth: number | null | undefined): AdminArea[] {
  return ADMIN_AREAS.filter((area) => canAdminister(area, auth));
}

/** Auth levels that exist in this product (0..10). Role names are not given by the spec. */
export const AUTH_LEVELS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export type AuthLevel = (typeof AUTH_LEVELS)[number];
export function isAuthLevel(value: unknown): value is AuthLevel {
  return typeof value === "number" && (AUTH_LEVELS as readonly number[]).includes(value);
}

/** The admin screens under /setting and the admin area each belongs to. */
export const SETTING_SCREENS = [
  { key: "total", path: "/setting/total", area: "setting" },
  { key: "id", path: "/setting/id", area: "id" },
  { key: "group", path: "/setting/group", area: "group" },
  { key: "plant", path: "/setting/plant", area: "plant" },
  { key: "device", path: "/setting/device", area: "device" },
  { key: "rtu", path: "/setting/rtu", area: "rtu" },
  { key: "config", path: "/setting/config/alarm", area: "setting" },
  { key: "import", path: "/setting/import", area: "setting" },
] as const satisfies ReadonlyArray<{ key: string; path: string; area: AdminArea }>;
export type SettingScreenKey = (typeof SETTING_SCREENS)[number]["key"];

export function settingScreensFor(auth: number | null | undefined) {
  return SETTING_SCREENS.filter((s) => canAdminister(s.area, auth));
}
