import { useLoaderData } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import type { SettingScreenKey } from "../../domain/admin-levels";
import type { SectionKey } from "../../domain/navigation";
import { fmt, useT } from "~/i18n";

/** An honest placeholder for a screen that a later piece of work builds. */
export function NotYetAvailable({ screen }: { screen: string }) {
  const t = useT();
  return (
    <section className="panel" aria-labelledby="nya-title">
      <h1 id="nya-title">{fmt(t.notYet.title, { screen })}</h1>
      <p>{t.notYet.body}</p>
      <p>
        <AppLink to="/">{t.notYet.back}</AppLink>
      </p>
    </section>
  );
}

/** Default export for placeholder routes: names the section its loader resolved. */
export function PlaceholderScreen() {
  const { section } = useLoaderData<{ section: SectionKey }>();
  return <NotYetAvailable screen={useT().nav[section]} />;
}

export function SettingPlaceholderScreen() {
  const { screen } = useLoaderData<{ screen: SettingScreenKey }>();
  return <NotYetAvailable screen={useT().settingNav[screen]} />;
}
