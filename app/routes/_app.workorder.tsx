/**
 * /workorder — the work orders of the plants the member sees (issue 29 §3): filters and search in the URL (a GET
 * form, works without JavaScript), the CSV of the same filters, a link to create one. Visibility is the API's.
 */
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { requireSection } from "~/auth/section.server";
import { AppLink } from "~/components/AppLink";
import { WorkOrderFilters, WorkOrderPager, WorkOrderTable } from "~/components/workorder/WorkOrderList";
import { useWorkorderT, workorderMessages } from "~/i18n/workorder";
import { ApiFailure } from "~/models/api.server";
import { workOrderList } from "~/models/workorder.server";
import styles from "~/styles/workorder.css";
import { parseSearch } from "~/utils/form-action.server";
import { metaLocale } from "~/utils/meta-locale";
import { WorkOrderListQuerySchema } from "../../domain/contract/work-order";
import { formatSeoul } from "../../domain/seoul-clock";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export const meta: MetaFunction = ({ matches }) => {
  const t = workorderMessages(metaLocale(matches));
  return [{ title: `${t.workorder.title} · ${t.appName}` }];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken, user } = requireSection(request, context, "workorder");
  const q = parseSearch(WorkOrderListQuerySchema, request);
  try {
    const list = await workOrderList(accessToken, q);
    return json({ q, list, readOnly: user.readOnly === 1, today: formatSeoul(Date.now(), "YYYY-MM-DD") });
  } catch (error) {
    // A plant filter the member may not see reads as an empty list, not an error page.
    if (error instanceof ApiFailure && error.status === 404)
      return json({
        q,
        list: { workOrders: [], total: 0, page: q.page, size: q.size },
        readOnly: user.readOnly === 1,
        today: "",
      });
    throw error;
  }
}

export default function WorkOrders() {
  const { q, list, readOnly, today } = useLoaderData<typeof loader>();
  const t = useWorkorderT();
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  search.delete("page");
  const exportHref = `/workorder/export${search.toString() ? `?${search.toString()}` : ""}`;
  return (
    <div className="analysis-screen workorder-screen">
      <h1>{t.workorder.title}</h1>
      <p className="wo-actions">
        {readOnly ? null : (
          <AppLink to="/workorder/new" className="button">
            {t.workorder.create}
          </AppLink>
        )}
        <a href={exportHref} className="button secondary" download>
          {t.workorder.export}
        </a>
      </p>
      <WorkOrderFilters t={t} q={q} />
      <WorkOrderTable t={t} rows={list.workOrders} total={list.total} today={today} />
      <WorkOrderPager t={t} page={list.page} size={list.size} total={list.total} search={location.search} />
    </div>
  );
}
