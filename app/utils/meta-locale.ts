/** The member's language for a route's `meta` (page titles): what the root loader read from their preferences. */
import type { MetaArgs } from "@remix-run/node";

export function metaLocale(matches: MetaArgs["matches"]): "ko" | "en" {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: "ko" | "en" } | undefined;
  return root?.locale === "en" ? "en" : "ko";
}
