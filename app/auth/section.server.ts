import type { AppLoadContext } from "@remix-run/node";
import { SETTING_SCREENS, canAdminister, type SettingScreenKey } from "../../domain/admin-levels";
import { SECTIONS, canOpenSection, type SectionKey } from "../../domain/navigation";
import { requireAuth } from "./session.server";

/** A loader guard for a section: signed in, and the section is open to this member (SPEC §6). */
export function requireSection(request: Request, context: AppLoadContext, key: SectionKey) {
  const auth = requireAuth(request, context);
  if (!canOpenSection(auth.user, key)) throw new Response("forbidden", { status: 403 });
  return auth;
}

/** Loader of a screen that is not built yet: the same guard, and the section's key for the placeholder. */
export async function placeholderLoader({ request, context }: { request: Request; context: AppLoadContext }) {
  const first = new URL(request.url).pathname.split("/")[1] || "main";
  const key = SECTIONS.find((s) => s.path === `/${first}`)?.key ?? "main";
  requireSection(request, context, key);
  return { section: key };
}

/** Guard for an admin screen: the setting section, then the admin area of that screen (SPEC §6 table). */
export function requireSettingScreen(request: Request, context: AppLoadContext, key: SettingScreenKey) {
  const auth = requireSection(request, context, "setting");
  const screen = SETTING_SCREENS.find((s) => s.key === key)!;
  if (!canAdminister(screen.area, auth.user.auth)) throw new Response("forbidden", { status: 403 });
  return auth;
}

export async function settingPlaceholderLoader({ request, context }: { request: Request; context: AppLoadContext }) {
  const segment = new URL(request.url).pathname.split("/")[2] as SettingScreenKey;
  requireSettingScreen(request, context, segment);
  return { screen: segment };
}
