/**
 * /control/log — the tamper-evident command and acknowledgement log (issue 29 §1; api/routes/audit.ts), for members
 * with the control service bit (SPEC §6 control 6, as /control). Filters by plant (found by name) and period, the
 * chain's verification said in words with a mark (not colour alone), a page of entries and a CSV export
 * (/control/log/export with the same search). Plain GET forms and links: works without JavaScript.
 */
import { json, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { AUDIT_KINDS } from "../../domain/audit-chain";
import type { AuditListResponse } from "../../domain/contract/audit";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { Pager } from "~/components/AdminForm";
import { FilterSelect } from "~/components/DataTable";
import { AuditTable, ChainVerdict } from "~/components/control-log/AuditLog";
import { fmt } from "~/i18n";
import { alarmMessages, useAlarmT } from "~/i18n/alarm";
import { alarmScope } from "~/models/alarm.server";
import { ApiFailure } from "~/models/api.server";
import { auditList, auditVerify } from "~/models/control.server";
import { AUDIT_SCREEN_PAGE, auditSearch } from "~/utils/audit-search.server";
import { metaLocale } from "~/utils/meta-locale";
import styles from "~/styles/alarm.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.chain.title} · ${t.appName}` }];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "control");
  const q = auditSearch(request);
  const url = new URL(request.url);
  let notFound: string | null = null;
  if (q.find) {
    const found = await alarmScope(accessToken, { q: q.find });
    const m = found.matches;
    const exact = m?.plants.filter((p) => p.name.trim().toLowerCase() === q.find.toLowerCase()) ?? [];
    const pick = m && m.plants.length === 1 && !m.more ? m.plants[0] : exact.length === 1 ? exact[0] : null;
    if (pick) {
      url.searchParams.delete("find");
      url.searchParams.delete("page");
      url.searchParams.set("plant", pick.uid);
      throw redirect(`/control/log?${url.searchParams}`);
    }
    notFound = q.find;
  }
  const plantName = q.plant
    ? await alarmScope(accessToken, { plant: q.plant })
        .then((s) => s.plant?.name ?? null)
        .catch(() => null)
    : null;
  let list: AuditListResponse | null = null;
  let error: { field: string; code: string } | null = null;
  try {
    list = notFound
      ? null
      : await auditList(accessToken, {
          plant: q.plant || undefined,
          start: q.start,
          end: q.end,
          kind: q.kind || undefined,
          page: q.page,
          size: AUDIT_SCREEN_PAGE,
        });
  } catch (e) {
    if (!(e instanceof ApiFailure) || e.status >= 500 || e.status === 401) throw e;
    const [field, code] = Object.entries(e.body.fields ?? {})[0] ?? ["_form", e.body.message];
    error = { field, code: String(code) };
  }
  const verdict = await auditVerify(accessToken);
  return json({ q, plantName, notFound, list, error, verdict });
}

export default function ControlLogScreen() {
  const { q, plantName, notFound, list, error, verdict } = useLoaderData<typeof loader>();
  const t = useAlarmT();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const errorText = error ? ((t.chain.errors as Record<string, string>)[error.code] ?? error.code) : null;
  const exportSearch = new URLSearchParams(search);
  exportSearch.delete("page");
  exportSearch.delete("find");
  return (
    <div className="analysis-screen control-log-screen">
      <h1>{t.chain.title}</h1>
      <p className="muted">{t.chain.intro}</p>
      <p>
        <AppLink to="/control">← {t.control.title}</AppLink>
      </p>
      <ChainVerdict t={t} v={verdict} />
      <Form method="get" className="alarm-filters" aria-label={t.chain.filters}>
        <div className="field">
          <label htmlFor="cl-find">{t.chain.find}</label>
          <input
            id="cl-find"
            name="find"
            type="search"
            defaultValue={q.find || plantName || ""}
            placeholder={plantName ?? t.chain.findPlaceholder}
            maxLength={100}
          />
        </div>
        <div className="field">
          <label htmlFor="cl-start">{t.chain.start}</label>
          <input
            id="cl-start"
            name="start"
            type="date"
            defaultValue={q.start}
            aria-invalid={error?.field === "start" || undefined}
            aria-describedby={error?.field === "start" ? "cl-error" : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="cl-end">{t.chain.end}</label>
          <input
            id="cl-end"
            name="end"
            type="date"
            defaultValue={q.end}
            aria-invalid={error?.field === "end" || undefined}
            aria-describedby={error?.field === "end" ? "cl-error" : undefined}
          />
        </div>
        <FilterSelect
          key={`k${q.kind}`}
          id="cl-kind"
          name="kind"
          label={t.chain.kind}
          value={q.kind}
          any={t.chain.allKinds}
          options={AUDIT_KINDS.map((k) => ({ value: k, label: t.chain.kinds[k] }))}
        />
        <div className="filter-actions">
          <button type="submit">{t.chain.show}</button>
          <AppLink to="/control/log" className="button secondary">
            {t.chain.reset}
          </AppLink>
          <a className="button secondary" href={`/control/log/export?${exportSearch}`} download>
            {t.chain.export}
          </a>
        </div>
      </Form>
      {errorText ? (
        <p id="cl-error" className="form-error" role="alert">
          {errorText}
        </p>
      ) : null}
      {notFound ? <p role="status">{fmt(t.chain.noPlant, { find: notFound })}</p> : null}
      {list ? (
        <>
          <AuditTable t={t} rows={list.rows} total={list.total} />
          {list.total > list.size ? <Pager page={list.page} size={list.size} total={list.total} search={search} /> : null}
        </>
      ) : null}
    </div>
  );
}
