/** Admin main (SPEC §2 /setting): what this member may administer, by the admin level table (SPEC §6). */
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { settingScreensFor } from "../../domain/admin-levels";
import { requireSection } from "~/auth/section.server";
import { useT } from "~/i18n";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = requireSection(request, context, "setting");
  return json({ screens: settingScreensFor(user.auth).map((s) => ({ key: s.key, path: s.path })) });
}

export default function SettingMain() {
  const { screens } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="panel">
      <h1>{t.settingNav.main}</h1>
      <ul>
        {screens.map((s) => (
          <li key={s.key}>
            <AppLink to={s.path}>{t.settingNav[s.key]}</AppLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
