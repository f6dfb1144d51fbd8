/**
 * The portal's sections (SPEC §2 routes) and who sees them: optional sections by service bit
 * (SPEC §6), admin by admin level, diagram/custom page/camera only for members who have them.
 */
import { adminAreas } from "./admin-levels";
import { hasService, type ServiceKey } from "./service-bits";

export const SECTIONS = [
  { key: "main", path: "/" },
  { key: "pvstatus", path: "/pvstatus", service: "pvstatus" },
  { key: "watch", path: "/watch" },
  { key: "control", path: "/control", service: "control" },
  { key: "measurement", path: "/measurement", service: "measurement" },
  { key: "diagram", path: "/diagram", service: "diagram", memberFlag: "diagram" },
  { key: "page", path: "/page", memberFlag: "page" },
  { key: "diagnose", path: "/diagnose", service: "diagnoseMenu" },
  { key: "statistics", path: "/statistics", service: "statistics" },
  { key: "alarm", path: "/alarm", service: "alarm" },
  { key: "workorder", path: "/workorder", service: "alarm" },
  { key: "cctv", path: "/cctv", service: "cctv", memberFlag: "cctv" },
  { key: "help", path: "/help", service: "help" },
  { key: "notice", path: "/notice" },
  { key: "setting", path: "/setting", admin: true },
  { key: "modify", path: "/modify" },
] as const satisfies ReadonlyArray<{
  key: string;
  path: string;
  service?: ServiceKey;
  memberFlag?: "diagram" | "cctv" | "page";
  admin?: boolean;
}>;

export type SectionKey = (typeof SECTIONS)[number]["key"];

export interface NavViewer {
  service: number | null | undefined;
  auth: number | null | undefined;
  readOnly?: number;
  diagram?: number;
  cctv?: number;
  page?: number;
}

export function canOpenSection(viewer: NavViewer, key: SectionKey): boolean {
  const section = SECTIONS.find((s) => s.key === key);
  if (!section) return false;
  if ("service" in section && !hasService(viewer.service ?? null, section.service)) return false;
  if ("memberFlag" in section && !viewer[section.memberFlag]) return false;
  if ("admin" in section && (viewer.readOnly === 1 || adminAreas(viewer.auth).length === 0)) return false;
  return true;
}

export function navigationFor(viewer: NavViewer): Array<{ key: SectionKey; path: string }> {
  return SECTIONS.filter((s) => canOpenSection(viewer, s.key)).map((s) => ({ key: s.key, path: s.path }));
}

export type NavItem = ReturnType<typeof navigationFor>[number];

/**
 * Whether the page at `pathname` belongs to the section at `sectionPath` (its entry is shown current):
 * the section's own path or a page below it; the main screen `/` only on itself.
 */
export function isCurrentSection(pathname: string, sectionPath: string): boolean {
  // Route matching ignores case (/Setting opens /setting), so the mark does too.
  const path = (pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname).toLowerCase();
  const section = sectionPath.toLowerCase();
  if (section === "/") return path === "/";
  return path === section || path.startsWith(`${section}/`);
}
