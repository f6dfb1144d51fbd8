/**
 * /alarm/figures — the alarm figures of a period (issue 29 §2; GET /api/alarm/figures): alarms per 100 plants per day,
 * nuisance share, mean time to acknowledge and to clear, in all and per code, group and plant. The alarm screen's
 * scope (plant or group) and period come along in the URL; a plain GET form, server-rendered, works without JavaScript.
 */
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { formatSeoul } from "../../domain/seoul-clock";
import type { AlarmFiguresResponse } from "../../domain/contract/alarm";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { AlarmFigures } from "~/components/alarm/AlarmFigures";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT } from "~/i18n/alarm";
import { alarmFiguresOf, alarmScope } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { searchParam } from "~/utils/search-params";
import styles from "~/styles/alarm.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.figures.title} · ${t.appName}` }];
};

const Search = z.object({
  start: searchParam.text(10),
  end: searchParam.text(10),
  plant: searchParam.text(64),
  isGroup: searchParam.oneOf(["1"]),
  group: searchParam.id(),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "alarm");
  const q = parseSearch(Search, request);
  const now = Date.now();
  const start = q.start || formatSeoul(now - 29 * 86_400_000, "YYYY-MM-DD");
  const end = q.end || formatSeoul(now, "YYYY-MM-DD");
  const scopeQuery = { plant: q.plant || undefined, isGroup: q.isGroup || undefined, group: q.isGroup ? q.group : undefined };
  const scope =
    scopeQuery.plant || scopeQuery.group !== undefined
      ? await alarmScope(accessToken, { plant: scopeQuery.plant, group: scopeQuery.group }).catch(() => null)
      : null;
  let figures: AlarmFiguresResponse | null = null;
  let error: string | null = null;
  try {
    figures = await alarmFiguresOf(accessToken, { start, end, ...scopeQuery });
  } catch (e) {
    if (!(e instanceof ApiFailure) || e.status >= 500 || e.status === 401) throw e;
    if (e.status === 404) throw new Response("Not Found", { status: 404 });
    error = String(Object.values(e.body.fields ?? {})[0] ?? e.body.message);
  }
  return json({ start, end, plant: q.plant, isGroup: q.isGroup, group: q.group ?? null, scope, figures, error });
}

export default function AlarmFiguresScreen() {
  const d = useLoaderData<typeof loader>();
  const t = useAlarmT();
  const scopeName = d.scope?.plant?.name ?? d.scope?.group?.name ?? t.figures.allPlants;
  const back = new URLSearchParams();
  if (d.plant) back.set("plant", d.plant);
  if (d.isGroup && d.group !== null) {
    back.set("isGroup", "1");
    back.set("group", String(d.group));
  }
  const codeName = (code: number) => {
    const key = `c${code}` as keyof typeof t.main.codes;
    return key in t.main.codes && key !== "other" ? t.main.codes[key] : "";
  };
  return (
    <div className="analysis-screen alarm-figures-screen">
      <h1>{t.figures.title}</h1>
      <p className="muted">{t.figures.intro}</p>
      <p>
        <AppLink to={back.toString() ? `/alarm?${back}` : "/alarm"}>← {t.figures.back}</AppLink>
      </p>
      <Form method="get" className="alarm-filters" aria-label={t.figures.filters}>
        {d.plant ? <input type="hidden" name="plant" value={d.plant} /> : null}
        {d.isGroup && d.group !== null ? (
          <>
            <input type="hidden" name="isGroup" value="1" />
            <input type="hidden" name="group" value={d.group} />
          </>
        ) : null}
        <div className="field">
          <label htmlFor="af-start">{t.figures.start}</label>
          <input
            id="af-start"
            name="start"
            type="date"
            defaultValue={d.start}
            aria-describedby={d.error ? "af-error" : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="af-end">{t.figures.end}</label>
          <input id="af-end" name="end" type="date" defaultValue={d.end} aria-describedby={d.error ? "af-error" : undefined} />
        </div>
        <div className="filter-actions">
          <button type="submit">{t.figures.show}</button>
        </div>
      </Form>
      <p>{fmt(t.figures.scope, { scope: scopeName })}</p>
      {d.error ? (
        <p id="af-error" className="form-error" role="alert">
          {(t.figures.errors as Record<string, string>)[d.error] ?? d.error}
        </p>
      ) : null}
      {d.figures ? (
        <>
          <p className="muted small">
            {fmt(t.figures.summary, {
              start: d.figures.start,
              end: d.figures.end,
              days: d.figures.days,
              plants: d.figures.plants,
            })}
          </p>
          <AlarmFigures t={t} data={d.figures} codeName={codeName} />
        </>
      ) : null}
    </div>
  );
}
