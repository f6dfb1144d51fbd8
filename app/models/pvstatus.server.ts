/**
 * Plant status data for /pvstatus through the /api contract (SPEC §7 POST /pvstatus/group,
 * GET /pvstatus/new), shaped for the screen: graph cards get their chart's series once, compact
 * (charts/CardChart.tsx compactChart; the page draws the SVG from it), and the map gets a slim point list.
 */
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { isWarningStatus } from "../../domain/status";
import type {
  GenData,
  PlantCardData,
  PvstatusGroupRequest,
  PvstatusGroupResponse,
  StatusCounts,
} from "../../domain/contract/pvstatus";
import { hasIrradiance } from "../../domain/irradiance";
import { fmt, messages, type Locale } from "~/i18n";
import { compactChart, type CardChartData } from "~/components/charts/CardChart";
import { enabledCategories, type PvstatusView } from "~/components/plant-cards/url-state";
import { parseSearch } from "~/utils/form-action.server";
import { searchParam } from "~/utils/search-params";
import { api, ApiFailure, frozenInTests } from "./api.server";

/** The map asks for every plant at once. */
const MAP_LIMIT = 10_000;

/**
 * Compact charts by their whole input: every member's wallboard polls the same cards every 6 s, and a card's
 * series change only when a reading arrives (every 10 minutes). Shared between requests: never changed after.
 */
const chartCache = new LRUCache<string, CardChartData>({ max: 2_000 });
function cachedChart(key: string, make: () => CardChartData): CardChartData {
  let chart = chartCache.get(key);
  if (chart === undefined) chartCache.set(key, (chart = frozenInTests(make())));
  return chart;
}

export type CardGenData = Omit<GenData, "labels" | "invDatas" | "envDatas" | "stsDatas">;

/** What a card shows (the page's loader data repeats it for hydration, so nothing more). */
export interface PlantCardView extends Omit<PlantCardData, "genData" | "faults" | "lat" | "lng" | "locality" | "iwW" | "dailys"> {
  genData: CardGenData;
  /** Graph cards: the chart's series, compact (drawn by charts/CardChart.tsx CardChart). */
  chart: CardChartData | null;
  hasIrradiance: boolean;
  /** Tooltip text naming the fault(s); "" when nothing is wrong. */
  faultText: string;
}

export interface MapPlant {
  uid: string;
  name: string;
  lat: number;
  lng: number;
  status: number;
  /** Current output, formatted ("12.34 kW"). */
  iw: string;
}

export type PlantStatusList =
  | {
      ok: true;
      kind: "cards";
      list: PlantCardView[];
      counts: StatusCounts;
      total: number;
      limit: number;
      hasMore: boolean;
      /** When the API made the list; null in a poll's answer (the page shows when the poll was answered). */
      now: number | null;
    }
  | { ok: true; kind: "map"; points: MapPlant[]; withoutCoords: number; counts: StatusCounts; total: number; now: number | null }
  | { ok: false; status: number };

export function groupRequest(view: PvstatusView): PvstatusGroupRequest {
  const graph = view.view === "gh";
  return {
    type: "all",
    viewMode: view.view,
    countType: "search",
    st: enabledCategories(view),
    limit: view.view === "map" ? MAP_LIMIT : view.limit,
    searchType: view.qt,
    searchText: view.q || undefined,
    sortType: view.sort,
    order: view.order,
    series: graph,
    resolution: graph && view.size === "bar" ? "hourly" : "tenMinute",
  };
}

/** Names the fault(s) of a card: its status and each open alarm (inverter faults with their fault names). */
export function faultText(card: PlantCardData, locale: Locale): string {
  const t = messages(locale).pvstatus;
  if (!isWarningStatus(card.statusData.status) && !card.faults.length) return "";
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const f of card.faults) {
    const label = (t.alarmCodes as Record<string, string>)[`c${f.code}`] ?? fmt(t.alarmCodes.other, { code: f.code });
    const text = f.code === 1000006 && f.message ? `${label}: ${f.message}` : label;
    if (!seen.has(text)) parts.push(text);
    seen.add(text);
  }
  if (!parts.length) {
    const name = card.statusData.statusName || "none";
    parts.push((t.statusNames as Record<string, string>)[name] ?? name);
  }
  return parts.join(" · ");
}

export function cardView(card: PlantCardData, view: Pick<PvstatusView, "view" | "size">, locale: Locale): PlantCardView {
  const { labels, invDatas, envDatas, stsDatas, ...genData } = card.genData;
  const irr = hasIrradiance(card.genData.envInfo.mode);
  let chart: CardChartData | null = null;
  if (view.view === "gh") {
    const t = messages(locale).pvstatus;
    const size = view.size === "bar" ? "bar" : view.size === "lg" ? "lg" : "md";
    const key = [
      card.plant_uid,
      card.name,
      size,
      locale,
      card.genData.total_capa,
      irr,
      labels,
      invDatas,
      envDatas,
      stsDatas,
    ].join("|");
    chart = cachedChart(key, () => ({
      size,
      title: fmt(size === "bar" ? t.chart.titleBar : irr ? t.chart.titleIrr : t.chart.title, { name: card.name }),
      capacityKw: card.genData.total_capa,
      hasIrradiance: irr,
      ...compactChart(labels, { generation: invDatas, irradiance: envDatas, reference: stsDatas }),
    }));
  }
  const { faults: _f, lat: _lat, lng: _lng, locality: _l, iwW: _w, dailys: _d, ...shown } = card;
  return { ...shown, genData, chart, hasIrradiance: irr, faultText: faultText(card, locale) };
}

/**
 * The list as the screen shows it. Not kept here: the API's answer carries the time it was made, so members never
 * share one, and a wallboard's poll whose answer is unchanged ends in a 304 in the browser (entry.server.tsx).
 */
export async function plantStatusList(token: string, view: PvstatusView, locale: Locale): Promise<PlantStatusList> {
  try {
    const answer = await api<PvstatusGroupResponse>("/pvstatus/group", { method: "POST", token, body: groupRequest(view) });
    return shapeList(answer, view, locale);
  } catch (error) {
    // Redirects (session ended) pass through; any other failure shows the list's error state.
    if (error instanceof ApiFailure) return { ok: false, status: error.status };
    if (error instanceof Response) throw error;
    console.error("pvstatus list failed", error);
    return { ok: false, status: 0 };
  }
}

function shapeList(answer: PvstatusGroupResponse, view: PvstatusView, locale: Locale): PlantStatusList {
  if (view.view === "map") {
    const points: MapPlant[] = [];
    for (const c of answer.list) {
      if (c.lat === null || c.lng === null) continue;
      points.push({
        uid: c.plant_uid,
        name: c.name,
        lat: Math.round(c.lat * 1e5) / 1e5,
        lng: Math.round(c.lng * 1e5) / 1e5,
        status: c.statusData.status,
        iw: `${c.genData.iw.value} ${c.genData.iw.unit}`,
      });
    }
    return {
      ok: true,
      kind: "map",
      points,
      withoutCoords: answer.list.length - points.length,
      counts: answer.counts,
      total: answer.total,
      now: answer.now,
    };
  }
  return {
    ok: true,
    kind: "cards",
    list: answer.list.map((c) => cardView(c, view, locale)),
    counts: answer.counts,
    total: answer.total,
    limit: answer.limit,
    hasMore: answer.hasMore,
    now: answer.now,
  };
}

/** `stream=0` asks for the whole list in the document even where the page's script runs (the other view
 * parameters are read by url-state's parseView, shared with the page's links). Here, not in the route: the
 * schema would bring zod into the page's script. */
const StreamSearch = z.object({ stream: searchParam.text(1) });

/** Whether the document streams the list: the page's script runs in this browser (its cookie) and stream≠0. */
export function listStreams(scriptRuns: boolean, url: URL): boolean {
  return scriptRuns && parseSearch(StreamSearch, url).stream !== "0";
}

/** One plant's card without series (GET /pvstatus/new), e.g. to name it in a detail-window link. */
export function plantCardFor(token: string, plantUid: string): Promise<PlantCardData> {
  return api<PlantCardData>("/pvstatus/new", { token, query: { plantUid, series: 0 } });
}
