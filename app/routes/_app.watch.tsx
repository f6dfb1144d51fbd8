/**
 * Watch screen `/watch` (SPEC §2 Watch screen, §4 Selecting a tree node): a tree by group or by locality
 * with a tree search; selecting a node (or a locality) shows its plants and the operation and warning
 * totals of that node and all its descendants. View type, keyword and selection live in the URL
 * (`?view=group|locality&q=&node=|locality=`); the tree is nested lists of links and the search a GET
 * form, so it all works without JS. With JS the data refreshes every 660 000 ms (group pvstatus, SPEC §9).
 * Reset is plain /watch: group view, empty keyword.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useRevalidator } from "@remix-run/react";
import { AppLink } from "~/components/AppLink";
import { REFRESH_INTERVAL_MS } from "../../domain/chart";
import { formatEnergy, formatPower } from "../../domain/units";
import {
  LINKED_NODE_SEQ,
  parseWatchState,
  UNSPECIFIED_LOCALITY,
  watchHref,
  type GroupDetailResponse,
  type WatchLocality,
  type WatchPlant,
  type WatchState,
  type WatchTreeNode,
} from "../../domain/watch";
import { requireSection } from "~/auth/section.server";
import { DetailLink } from "~/components/status/DetailLink";
import { Qty, seoulYmdHm, shownMinute } from "~/components/status/format";
import { StatusBadge } from "~/components/status/labels";
import { OperationTable, WarningTable } from "~/components/status/OperationTables";
import { usePolling } from "~/components/status/usePolling";
import { fmt, messages, useT } from "~/i18n";
import { ApiFailure } from "~/models/api.server";
import { groupDetail, watchTree } from "~/models/status.server";
import { metaLocale } from "~/utils/meta-locale";
import { keepLastGood } from "~/utils/keep-last-good";
import { ZeroedNote } from "~/components/status/ZeroedNote";
import { scrollRegion } from "~/components/scroll-region";

export const meta: MetaFunction = ({ matches }) => [
  { title: `${messages(metaLocale(matches)).watch.title} · ${messages(metaLocale(matches)).appName}` },
];

/** A poll or kiosk step that finds no server keeps the last answer (issue 17). */
export const clientLoader = keepLastGood();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { accessToken } = requireSection(request, context, "watch");
  const state = parseWatchState(new URL(request.url).searchParams);
  const tree = await watchTree(accessToken, state.view, state.keyword);
  let detail: GroupDetailResponse | null = null;
  if (tree) {
    const hasLinked = tree.nodeList.some((n) => n.seq === LINKED_NODE_SEQ);
    const selection: { type: "node" | "locality"; uid: string | number } | null =
      state.view === "group"
        ? { type: "node", uid: state.node ?? tree.rootSeq ?? (hasLinked ? LINKED_NODE_SEQ : 0) }
        : state.locality
          ? { type: "locality", uid: state.locality }
          : null;
    if (selection) {
      detail = await groupDetail(accessToken, selection.type, selection.uid).catch((e) => {
        // A bookmarked node that was moved out of reach, or a locality without plants now: no selection.
        if (e instanceof ApiFailure && (e.status === 404 || e.status === 400)) return null;
        throw e;
      });
    }
  }
  // The page shows the minute it was made (`at`), not the API's clock: without it an unchanged poll is a 304.
  const shown: Omit<GroupDetailResponse, "now"> | null = detail && omitNow(detail);
  return json({ state, tree, detail: shown, at: shownMinute(Date.now()) });
}

function omitNow({ now: _now, ...rest }: GroupDetailResponse): Omit<GroupDetailResponse, "now"> {
  return rest;
}

type T = ReturnType<typeof useT>;

function nodeLabel(t: T, n: { seq: number; name: string }) {
  return n.seq === LINKED_NODE_SEQ ? t.watch.linked : n.name;
}

function PlantLeaves({ plants }: { plants: WatchPlant[] }) {
  const t = useT();
  if (!plants.length) return null;
  return (
    <ul className="wt-plants">
      {plants.map((p) => (
        <li key={p.plant_uid}>
          <DetailLink kind="plant" uid={p.plant_uid} name={p.name} />{" "}
          <span className="sr-status">
            <StatusBadge t={t} status={p.status} />
          </span>
        </li>
      ))}
    </ul>
  );
}

function TreeCounts({ plants, warnings }: { plants?: number; warnings?: number }) {
  const t = useT();
  return (
    <span className="wt-counts">
      <span className="muted">{fmt(t.watch.treeCount, { count: plants ?? 0 })}</span>
      {warnings ? <span className="tag warn">▲ {fmt(t.watch.treeWarn, { count: warnings })}</span> : null}
    </span>
  );
}

function GroupTree({
  nodes,
  state,
  open,
  depth = 0,
}: {
  nodes: WatchTreeNode<WatchPlant>[];
  state: WatchState;
  open: Set<number>;
  depth?: number;
}) {
  const t = useT();
  return (
    <ul className={depth === 0 ? "wt-tree" : "wt-children"}>
      {nodes.map((n) => {
        const selected = open.has(-1 - n.seq);
        const showChildren = n.children.length > 0 && (depth === 0 || open.has(n.seq) || !!state.keyword);
        return (
          <li key={n.seq}>
            <AppLink
              to={watchHref({ view: "group", keyword: state.keyword, node: n.seq })}
              aria-current={selected ? "true" : undefined}
              className="wt-link"
            >
              <span aria-hidden="true" className="wt-mark">
                {n.children.length ? (showChildren ? "▾" : "▸") : "·"}
              </span>
              <span className="wt-name">{nodeLabel(t, n)}</span>
            </AppLink>
            <TreeCounts plants={n.plantCount} warnings={n.warningCount} />
            {state.keyword ? <PlantLeaves plants={n.plants} /> : null}
            {showChildren ? <GroupTree nodes={n.children} state={state} open={open} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function LocalityList({ list, state }: { list: WatchLocality[]; state: WatchState }) {
  const t = useT();
  return (
    <ul className="wt-tree">
      {list.map((l) => (
        <li key={l.uid}>
          <AppLink
            to={watchHref({ view: "locality", keyword: state.keyword, locality: l.uid })}
            aria-current={state.locality === l.uid ? "true" : undefined}
            className="wt-link"
          >
            <span aria-hidden="true" className="wt-mark">
              ·
            </span>
            <span className="wt-name">{l.locality ?? t.watch.unspecified}</span>
          </AppLink>
          <TreeCounts plants={l.plantCount} warnings={l.warningCount} />
          {state.keyword ? <PlantLeaves plants={l.plants} /> : null}
        </li>
      ))}
    </ul>
  );
}

function Selection({ detail }: { detail: Omit<GroupDetailResponse, "now"> }) {
  const t = useT();
  const title =
    detail.type === "node"
      ? fmt(t.watch.scopeNode, { name: nodeLabel(t, { seq: Number(detail.uid), name: detail.name }) })
      : fmt(t.watch.scopeLocality, { name: detail.uid === UNSPECIFIED_LOCALITY ? t.watch.unspecified : detail.name });
  const c = detail.counts;
  const subNodes = detail.type === "node" ? detail.nodeList.slice(1) : detail.nodeList;
  return (
    <div className="watch-selection">
      <h2 id="watch-selection-title">{title}</h2>
      <dl className="kpi-grid kpi-compact">
        <div className="kpi">
          <dt>{t.watch.plantsTitle}</dt>
          <dd>{fmt(t.watch.treeCount, { count: c.plants })}</dd>
        </div>
        <div className="kpi">
          <dt>{t.watch.capacity}</dt>
          <dd>
            <Qty q={formatPower(c.total_capa * 1000)} />
          </dd>
        </div>
        <div className="kpi kpi-live">
          <dt>{t.watch.output}</dt>
          <dd>
            <Qty q={formatPower(c.total_iw)} />
          </dd>
        </div>
        <div className="kpi">
          <dt>{t.watch.todayGen}</dt>
          <dd>
            <Qty q={formatEnergy(c.today_gen)} />
          </dd>
        </div>
      </dl>
      <div className="detail-grid">
        <OperationTable op={c.op} caption={t.watch.operationTitle} />
        <WarningTable warn={c.warn} caption={t.watch.warningTitle} />
      </div>
      <p className="muted small definitions">{t.watch.definitions}</p>

      {subNodes.length > 0 ? (
        <div {...scrollRegion(detail.type === "node" ? t.watch.nodeTotals : t.watch.nodeTotalsLocality)}>
          <table className="data-table">
            <caption>{detail.type === "node" ? t.watch.nodeTotals : t.watch.nodeTotalsLocality}</caption>
            <thead>
              <tr>
                <th scope="col">{t.watch.nodeCol}</th>
                <th scope="col" className="num">
                  {t.watch.categories.inv} {t.watch.op.generating}/{t.watch.op.total}
                </th>
                <th scope="col" className="num">
                  {t.watch.op.breaking} ({t.watch.categories.inv}/{t.watch.categories.env}/{t.watch.categories.grid})
                </th>
                <th scope="col" className="num">
                  {t.watch.levels.l3}+{t.watch.levels.l4}
                </th>
              </tr>
            </thead>
            <tbody>
              {subNodes.map((n) => {
                const op = detail.nopDataObj[n.seq]!;
                const w = detail.norDataObj[n.seq]!;
                const severe = ["inv", "env", "grid"].reduce((s, k) => s + w[k as "inv"][2] + w[k as "inv"][3], 0);
                return (
                  <tr key={n.seq}>
                    <th scope="row" style={{ paddingLeft: `${1 + Math.min(n.depth, 6) * 0.9}rem` }}>
                      {n.seq === LINKED_NODE_SEQ ? (
                        t.watch.linked
                      ) : (
                        <AppLink to={watchHref({ view: "group", node: n.seq })}>{n.name}</AppLink>
                      )}
                    </th>
                    <td className="num">
                      {op.inv.generating}/{op.inv.total}
                    </td>
                    <td className="num">
                      {op.inv.breaking}/{op.env.breaking}/{op.grid.breaking}
                    </td>
                    <td className="num">{severe}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}

      <h3>{t.watch.plantsTitle}</h3>
      {detail.plantList.length === 0 ? (
        <p className="muted">{t.watch.noPlants}</p>
      ) : (
        <div className="table-wrap">
          <table className="data-table watch-plants stack-on-phone">
            <caption className="visually-hidden">{t.watch.plantsTitle}</caption>
            <thead>
              <tr>
                <th scope="col">{t.watch.plantCol.name}</th>
                <th scope="col">{t.watch.plantCol.status}</th>
                <th scope="col" className="num">
                  {t.watch.plantCol.output}
                </th>
                <th scope="col" className="num">
                  {t.watch.plantCol.today}
                </th>
                <th scope="col" className="num">
                  {t.watch.plantCol.inv}
                </th>
                <th scope="col" className="num">
                  {t.watch.plantCol.warn}
                </th>
              </tr>
            </thead>
            <tbody>
              {detail.plantList.map((p) => (
                <tr key={p.plant_uid}>
                  <th scope="row">
                    <DetailLink kind="plant" uid={p.plant_uid} name={p.name} />
                  </th>
                  <td data-label={t.watch.plantCol.status}>
                    <StatusBadge t={t} status={p.status} />
                  </td>
                  <td className="num" data-label={t.watch.plantCol.output}>
                    <Qty q={formatPower(p.iw)} />
                  </td>
                  <td className="num" data-label={t.watch.plantCol.today}>
                    <Qty q={formatEnergy(p.dailys)} />
                    <ZeroedNote zeroed={p.dailysZeroed} />
                  </td>
                  <td className="num" data-label={t.watch.plantCol.inv}>
                    {p.g_inv}/{p.total_inv}
                  </td>
                  <td className="num" data-label={t.watch.plantCol.warn}>
                    {p.alarm_count}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {detail.rtusNotInPlant.length > 0 ? (
        <>
          <h3>{t.watch.rtusNotInPlant}</h3>
          <ul className="plain-list">
            {detail.rtusNotInPlant.map((r) => (
              <li key={r.uid}>
                {r.alias || r.name}
                {r.mac ? <span className="muted"> ({r.mac})</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

export default function Watch() {
  const { state, tree, detail, at } = useLoaderData<typeof loader>();
  const t = useT();
  const revalidator = useRevalidator();
  usePolling(() => {
    if (revalidator.state === "idle") revalidator.revalidate();
  }, REFRESH_INTERVAL_MS.groupPvstatus);

  // Open nodes: the path to the selection and the search's matches; -1 - seq marks the selected node.
  const open = new Set<number>([...(detail?.expandeds ?? []), ...(tree?.expandeds ?? [])]);
  if (detail?.type === "node") open.add(-1 - Number(detail.uid));
  const empty = tree && (state.view === "group" ? tree.nodeList.length === 0 : tree.localityList.length === 0);

  return (
    <div className="watch-page">
      <div className="page-head">
        <h1>{t.watch.title}</h1>
        <p className="muted small" aria-live="polite">
          {fmt(t.watch.asOf, { time: seoulYmdHm(at) })}
        </p>
      </div>
      <div className="watch-layout">
        <aside className="status-panel watch-tree" aria-labelledby="watch-tree-title">
          <h2 id="watch-tree-title" className="visually-hidden">
            {state.view === "group" ? t.watch.tree : t.watch.localities}
          </h2>
          <nav className="subnav tabs-nav" aria-label={t.watch.viewLabel}>
            {(["group", "locality"] as const).map((v) => (
              <AppLink
                key={v}
                to={watchHref({ view: v, keyword: state.keyword })}
                aria-current={state.view === v ? "page" : undefined}
              >
                {t.watch.views[v]}
              </AppLink>
            ))}
          </nav>
          <Form method="get" action="/watch" className="wt-search" role="search" key={`${state.view}|${state.keyword}`}>
            {state.view !== "group" ? <input type="hidden" name="view" value={state.view} /> : null}
            <label htmlFor="watch-q">{t.watch.search}</label>
            <div className="wt-search-row">
              <input
                id="watch-q"
                name="q"
                type="search"
                defaultValue={state.keyword}
                placeholder={t.watch.searchPlaceholder}
                maxLength={50}
              />
              <button type="submit">{t.watch.submit}</button>
            </div>
            <AppLink to="/watch" className="small reset-link">
              {t.watch.reset}
            </AppLink>
          </Form>
          <nav aria-label={state.view === "group" ? t.watch.tree : t.watch.localities} className="wt-nav">
            {!tree ? (
              <p className="alert warn" role="status">
                {t.watch.notContent}
              </p>
            ) : empty ? (
              <p className="muted" role="status">
                {t.watch.noMatch}
              </p>
            ) : state.view === "group" ? (
              <GroupTree nodes={tree.nodeList} state={state} open={open} />
            ) : (
              <LocalityList list={tree.localityList} state={state} />
            )}
          </nav>
        </aside>
        <section
          className="status-panel watch-main"
          aria-labelledby={detail ? "watch-selection-title" : undefined}
          aria-label={detail ? undefined : t.watch.selectHint}
        >
          {detail ? <Selection detail={detail} /> : <p className="muted">{t.watch.selectHint}</p>}
        </section>
      </div>
    </div>
  );
}
