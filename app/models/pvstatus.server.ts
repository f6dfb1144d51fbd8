/**
 * Plant status data for /pvstatus through the /api contract (SPEC §7 POST /pvstatus/group,
 * GET /pvstatus/new), shaped for the screen: graph cards get their chart's series once, compact
 * (charts/CardChart.tsx compactChart; the page draws the SVG from it), and the map gets a slim point list.
 */
import { gzipSync } from "node:zlib";
import { LRUCache } from "lru-cache";
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
import { api, ApiFailure, apiShaped, keptShapes } from "./api.server";
import { acceptsGzip } from "~/utils/http-encoding.server";

/** The map asks for every plant at once. */
const MAP_LIMIT = 10_000;

/**
 * Compact charts by their whole input: wallboards poll the same cards every 6 s, and a card's series
 * change only when a reading arrives (every 10 minutes).
 */
const chartCache = new LRUCache<string, CardChartData>({ max: 2_000 });
function cachedChart(key: string, make: () => CardChartData): CardChartData {
  let chart = chartCache.get(key);
  if (chart === undefined) chartCache.set(key, (chart = make()));
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
      now: number;
    }
  | { ok: true; kind: "map"; points: MapPlant[]; withoutCoords: number; counts: StatusCounts; total: number; now: number }
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
 * Lists already shaped, by (view, locale, the API's answer). The API keeps one answer per member and
 * request for each 5-s status snapshot and tags it with an ETag, so wallboards polling the same view get
 * the same tag back until the data changes: then the body is not even read, and the parse and the card
 * shaping are done once, not once per wallboard and poll. The shaped list depends on nothing else.
 * Least recently used entries go first.
 */
interface ListEntry {
  list: PlantStatusList;
  bytes: number;
  /** The list as JSON, made when a poll first needs it. */
  json?: string;
}
const listCache = keptShapes<ListEntry>(64 * 1024 * 1024, 200);

async function listEntry(token: string, view: PvstatusView, locale: Locale): Promise<{ key: string | null; entry: ListEntry }> {
  try {
    const { key, value } = await apiShaped(
      "/pvstatus/group",
      { method: "POST", token, body: groupRequest(view) },
      listCache,
      `${locale}\u0000${JSON.stringify(view)}\u0000`,
      (text) => ({ list: shapeList(JSON.parse(text) as PvstatusGroupResponse, view, locale), bytes: text.length }),
    );
    return { key, entry: value };
  } catch (error) {
    // Redirects (session ended) pass through; any other failure shows the list's error state.
    if (error instanceof ApiFailure) return { key: null, entry: { list: { ok: false, status: error.status }, bytes: 0 } };
    if (error instanceof Response) throw error;
    console.error("pvstatus list failed", error);
    return { key: null, entry: { list: { ok: false, status: 0 }, bytes: 0 } };
  }
}

export async function plantStatusList(token: string, view: PvstatusView, locale: Locale): Promise<PlantStatusList> {
  return (await listEntry(token, view, locale)).entry.list;
}

/**
 * Bodies of poll answers, by what they hold: the screen's own fields and the list's cache key. A poll
 * is the same few hundred kilobytes for every wallboard on one view until the next snapshot, so its
 * JSON is written and gzipped once, not once per poll.
 */
const pollBodies = new LRUCache<string, { json: Uint8Array<ArrayBuffer>; gzip?: Uint8Array<ArrayBuffer> }>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (b) => b.json.length + (b.gzip?.length ?? 0) || 1,
});

/**
 * A wallboard's poll: a data request for the screen, answered with the whole list (no stream: the
 * list is ready when the answer goes). `fields` are the loader's other fields, the same on every poll.
 */
export async function plantStatusPoll(
  request: Request,
  token: string,
  view: PvstatusView,
  locale: Locale,
  fields: Record<string, unknown>,
): Promise<Response> {
  const { key, entry } = await listEntry(token, view, locale);
  const head = JSON.stringify(fields);
  // The loader's object with `list` added last, written from the parts' JSON.
  const withList = (listJson: string) => `${head.slice(0, -1)},"list":${listJson}}`;
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "private, no-store",
    Vary: "Accept-Encoding",
  });
  if (key === null) return new Response(withList(JSON.stringify(entry.list)), { headers });
  const bodyKey = `${head}\u0000${key}`;
  let body = pollBodies.get(bodyKey);
  if (!body) {
    entry.json ??= JSON.stringify(entry.list);
    pollBodies.set(bodyKey, (body = { json: new TextEncoder().encode(withList(entry.json)) }));
  }
  if (!acceptsGzip(request)) return new Response(body.json, { headers });
  if (!body.gzip) {
    body.gzip = new Uint8Array(gzipSync(body.json));
    pollBodies.set(bodyKey, body);
  }
  headers.set("Content-Encoding", "gzip");
  return new Response(body.gzip, { headers });
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

/** One plant's card without series (GET /pvstatus/new), e.g. to name it in a detail-window link. */
export function plantCardFor(token: string, plantUid: string): Promise<PlantCardData> {
  return api<PlantCardData>("/pvstatus/new", { token, query: { plantUid, series: 0 } });
}
