/**
 * Admin home (SPEC §2 /setting): the areas this member may administer (admin level table, SPEC §6), each with
 * what is in it, from the same scoped calls the area screens use (GET /total, the member list, /alarm/count).
 */
import { formatNumber } from "../../domain/units";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { settingScreensFor, type SettingScreenKey } from "../../domain/admin-levels";
import { requireSection } from "~/auth/section.server";
import { fmt, useT } from "~/i18n";
import { total } from "~/models/fleet.server";
import { listMembers } from "~/models/members-admin.server";
import { alarmCount } from "~/models/status.server";

/** A figure that could not be read shows as unknown; the home never fails for it. */
const orNull = <T,>(p: Promise<T>) => p.catch(() => null);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "setting");
  const screens = settingScreensFor(user.auth).map((s) => ({ key: s.key, path: s.path }));
  const has = (key: SettingScreenKey) => screens.some((s) => s.key === key);
  const [fleet, members, alarms] = await Promise.all([
    has("total") ? orNull(total(accessToken)) : null,
    has("id") ? orNull(listMembers(accessToken, { page: 1, size: 1 })) : null,
    orNull(alarmCount(accessToken)),
  ]);
  return json({
    screens,
    figures: {
      plants: fleet?.total.plantCount ?? null,
      devices: fleet?.total.deviceCount ?? null,
      rtus: fleet?.total.rtuCount ?? null,
      looseRtus: fleet?.total.rtusNotInPlant ?? null,
      members: members?.total ?? null,
      openAlarms: alarms?.alarm_count ?? null,
    },
  });
}

export default function SettingMain() {
  const { screens, figures } = useLoaderData<typeof loader>();
  const t = useT();
  const line = (text: string, count: number | null) => (count === null ? null : fmt(text, { count: formatNumber(count, 0) }));
  const facts: Partial<Record<SettingScreenKey, Array<string | null>>> = {
    total: [line(t.settingHome.plants, figures.plants), line(t.settingHome.openAlarms, figures.openAlarms)],
    id: [line(t.settingHome.members, figures.members)],
    plant: [line(t.settingHome.plants, figures.plants)],
    device: [line(t.settingHome.devices, figures.devices)],
    rtu: [line(t.settingHome.rtus, figures.rtus), figures.looseRtus ? line(t.settingHome.looseRtus, figures.looseRtus) : null],
  };
  return (
    <section>
      <h1>{t.settingNav.main}</h1>
      <p className="muted">{t.settingHome.intro}</p>
      <ul className="admin-home">
        {screens.map((s) => {
          const lines = (facts[s.key] ?? []).filter((x): x is string => !!x);
          return (
            <li key={s.key}>
              <AppLink to={s.path}>{t.settingNav[s.key]}</AppLink>
              {lines.map((l) => (
                <span key={l} className="muted">
                  {l}
                </span>
              ))}
            </li>
          );
        })}
      </ul>
      {figures.openAlarms !== null && figures.openAlarms > 0 ? (
        <p>
          <AppLink to="/alarm?status=active">{line(t.settingHome.openAlarms, figures.openAlarms)}</AppLink>
        </p>
      ) : null}
    </section>
  );
}
