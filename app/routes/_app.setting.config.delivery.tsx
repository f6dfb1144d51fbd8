/**
 * /setting/config/delivery — the alert delivery log (GET /api/alarm/notify/log): every mail and webhook of the
 * outbox with its state, attempts and last error, newest first; a status filter and pages in the URL (GET form,
 * links). Admins of the setting area only (server.ts prints this address when SMTP_URL is not set).
 */
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, NavLink, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { OUTBOX_STATES } from "../../domain/contract/alarm";
import { formatSeoul } from "../../domain/seoul-clock";
import { SETTING_TYPES } from "../../domain/settings";
import { requireSettingScreen } from "~/auth/section.server";
import { Pager } from "~/components/AdminForm";
import { fmt } from "~/i18n";
import { useAdminT } from "~/i18n/admin";
import { alarmMessages, useAlarmT } from "~/i18n/alarm";
import { deliveryLog } from "~/models/alarm.server";
import { parseSearch } from "~/utils/form-action.server";
import styles from "~/styles/alarm.css";
import { metaLocale } from "~/utils/meta-locale";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = alarmMessages(metaLocale(matches));
  return [{ title: `${t.delivery.title} · ${t.appName}` }];
};

const Search = z.object({
  status: z
    .union([z.enum(OUTBOX_STATES), z.literal("")])
    .optional()
    .transform((s) => s || undefined),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSettingScreen(request, context, "config");
  const q = parseSearch(Search, request);
  return json({ q, log: await deliveryLog(accessToken, q) });
}

const time = (ts: number | null) => (ts === null ? "–" : formatSeoul(ts, "YYYY-MM-DD HH:mm:ss"));

export default function DeliveryLog() {
  const { q, log } = useLoaderData<typeof loader>();
  const t = useAlarmT();
  const admin = useAdminT();
  const d = t.delivery;
  const location = useLocation();
  const mark = { pending: "…", sent: "✔", failed: "✖", dropped: "⊘" } as const;
  return (
    <div className="admin-page">
      <h1>{admin.config.title}</h1>
      <nav className="subnav" aria-label={admin.config.nav}>
        {SETTING_TYPES.map((s) => (
          <NavLink key={s} to={`/setting/config/${s}`}>
            {admin.config.tabs[s]}
          </NavLink>
        ))}
        <NavLink to="/setting/config/delivery">{d.title}</NavLink>
      </nav>
      <h2>{d.title}</h2>
      <p>{fmt(d.channels, { list: log.channels.length ? log.channels.map((c) => d.channel[c]).join(", ") : "–" })}</p>
      {!log.channels.includes("mail") ? <p className="alert info">{d.noMail}</p> : null}
      <Form method="get" className="inline-form" aria-label={d.status}>
        <div className="field">
          <label htmlFor="dl-status">{d.status}</label>
          <select id="dl-status" name="status" defaultValue={q.status ?? ""} key={q.status ?? ""}>
            <option value="">{d.all}</option>
            {OUTBOX_STATES.map((s) => (
              <option key={s} value={s}>
                {d.states[s]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{d.show}</button>
      </Form>
      {log.deliveryList.length === 0 ? (
        <p className="muted">{d.empty}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table stack-on-phone">
            <caption className="visually-hidden">{d.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{d.col.created}</th>
                <th scope="col">{d.col.channel}</th>
                <th scope="col">{d.col.recipient}</th>
                <th scope="col">{d.col.subject}</th>
                <th scope="col">{d.col.status}</th>
                <th scope="col" className="num">
                  {d.col.attempts}
                </th>
                <th scope="col">{d.col.next}</th>
                <th scope="col">{d.col.sent}</th>
                <th scope="col">{d.col.error}</th>
              </tr>
            </thead>
            <tbody>
              {log.deliveryList.map((r) => (
                <tr key={r.seq}>
                  <td className="nowrap" data-label={d.col.created}>
                    {time(r.created_at)}
                  </td>
                  <td data-label={d.col.channel}>{d.channel[r.channel]}</td>
                  <td data-label={d.col.recipient} className="mono">
                    {r.recipient}
                  </td>
                  <td data-label={d.col.subject}>{r.subject}</td>
                  <td data-label={d.col.status}>
                    <span
                      className={
                        r.status === "failed" ? "outcome-failed" : r.status === "sent" ? "outcome-done" : "outcome-pending"
                      }
                    >
                      <span aria-hidden="true">{mark[r.status]}</span> {d.states[r.status]}
                    </span>
                  </td>
                  <td className="num" data-label={d.col.attempts}>
                    {r.attempts}
                  </td>
                  <td className="nowrap" data-label={d.col.next}>
                    {r.status === "pending" ? time(r.next_attempt_at) : "–"}
                  </td>
                  <td className="nowrap" data-label={d.col.sent}>
                    {time(r.sent_at)}
                  </td>
                  <td data-label={d.col.error}>{r.last_error ?? "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.total > log.size ? (
        <Pager page={log.page} size={log.size} total={log.total} search={new URLSearchParams(location.search)} />
      ) : null}
    </div>
  );
}
