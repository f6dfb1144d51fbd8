/**
 * The portal as many users use it, against its React floor, in one run (issue 24): prints a table and records it
 * in bench/README.md.
 *   npx tsx bench/load.ts                        1,000 plants, SQLite (~4 min)
 *   BENCH_PLANTS=20000 npx tsx bench/load.ts     20,000 plants (~8 min; 2 h of history instead of 6 h)
 *   BENCH_STORE=postgres npx tsx bench/load.ts   the same on PostgreSQL
 * What it does, against one real server (build/server.mjs: a primary with the store and /api, one portal process
 * per core):
 *   1. Seeds the fleet straight into the store (plants in 12 groups, each with an RTU, 3 inverters and a sensor) and
 *      24 members of different groups and admin levels (one without a group, seeing only linked plants); plays in
 *      the last hours of readings through POST /api/ingest.
 *   2. Signs in BENCH_BROWSERS (200) browsers, each with its own login (its own session and CSRF cookie).
 *   3. Ingests readings through POST /api/ingest for the whole run: every plant's gateway posts its devices' values
 *      once per BENCH_INGEST_SECONDS (60), spread evenly.
 *   4. A day's mix for BENCH_DAY_SECONDS (60): a third of the browsers are wallboards (the /pvstatus grid or graph
 *      document, then its data request every 6 s, as the page polls), the rest open a page every 20–60 s
 *      (/, /pvstatus, /watch, /alarm, /statistics, the plant list of the settings where the level allows it):
 *      per page count, p50, p99, errors.
 *   5. Per page, autocannon at 20 connections for BENCH_PAGE_SECONDS (8), the cookies of every eligible browser in
 *      turn: requests/s, p50, p99, and the CPU of the primary and its portal processes (/proc/<pid>/stat, utime +
 *      stime) per document, less what ingest alone costs in the same time (measured before). Then the React floor
 *      of that page, measured the same way: the HTML the portal served (to 20 of the browsers) parsed into an
 *      element tree, and served by a minimal node:http server in two processes (node:cluster) that per request
 *      serialises the page's loader data (its __remixContext, read from that HTML), renders the tree with
 *      renderToString and compresses it with brotli at the portal's quality (4). A data request's floor is
 *      JSON.stringify of the same data and brotli.
 *   BENCH_PAGES="/,/alarm"                        only the pages with these keys (the table's first column; not recorded)
 *   BENCH_CPU_PROF=<dir>                         runs the server under `node --cpu-prof` (its portal processes inherit
 *                                                the flag); summarise with bench/cpuprofile-top.ts
 * Not a test: nothing passes or fails.
 */
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, constants as zlib } from "node:zlib";
import type { Store } from "../api/store/db";

const FLOOR = process.argv.includes("--floor");
const STORE = (process.env.BENCH_STORE ?? "sqlite") as "sqlite" | "postgres";
const PLANTS = Number(process.env.BENCH_PLANTS ?? 1000);
const BROWSERS = Number(process.env.BENCH_BROWSERS ?? 200);
const HISTORY_HOURS = Number(process.env.BENCH_HISTORY_HOURS ?? (PLANTS > 5000 ? 2 : 6));
const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
const DAY_SECONDS = Number(process.env.BENCH_DAY_SECONDS ?? 60);
const PAGE_SECONDS = Number(process.env.BENCH_PAGE_SECONDS ?? 8);
const CONNECTIONS = 20;
const GROUPS = 12;
const MEMBERS = 24;
const INVERTERS = 3;
const STEP = 600_000;
const BROTLI_QUALITY = 4; // the portal's: the compression middleware's default for brotli
const PASSWORD = "bench-load-2026!";
const ACCEPT_ENCODING = "gzip, deflate, br, zstd";
const CLK_TCK = 100;

const fmt = (n: number, d = 0) =>
  Number.isFinite(n) ? n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d }) : "–";
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// The React floor: a minimal server rendering a page's element tree (run as `bench/load.ts --floor <file>`).

type Blueprint = string | { tag: string; props: Record<string, unknown>; children: Blueprint[] };
interface FloorPage {
  /** Path and search the floor answers on. */
  url: string;
  kind: "html" | "json";
  /** The variants (one per browser captured), served in turn. */
  variants: Array<{ tree: Blueprint | null; context: unknown; contextRest: string; json: unknown }>;
}

const BOOLEAN = new Set(
  "checked disabled selected hidden readonly multiple required autofocus async defer nomodule open novalidate playsinline muted controls autoplay loop reversed itemscope allowfullscreen".split(
    " ",
  ),
);
const RENAME: Record<string, string> = {
  class: "className",
  for: "htmlFor",
  tabindex: "tabIndex",
  readonly: "readOnly",
  maxlength: "maxLength",
  minlength: "minLength",
  colspan: "colSpan",
  rowspan: "rowSpan",
  crossorigin: "crossOrigin",
  charset: "charSet",
  "http-equiv": "httpEquiv",
  autocomplete: "autoComplete",
  autofocus: "autoFocus",
  enctype: "encType",
  srcset: "srcSet",
  novalidate: "noValidate",
  nomodule: "noModule",
  "accept-charset": "acceptCharset",
  datetime: "dateTime",
  inputmode: "inputMode",
  spellcheck: "spellCheck",
  formaction: "formAction",
  playsinline: "playsInline",
  allowfullscreen: "allowFullScreen",
  itemscope: "itemScope",
  fetchpriority: "fetchPriority",
};
const CONTEXT_PREFIX = "window.__remixContext = ";

/** The end of the JSON value starting at `from` (brace depth, strings respected). */
function jsonEnd(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The page's HTML as an element tree (and its Remix context, serialised again per request by the floor). */
async function blueprintOf(html: string): Promise<{ tree: Blueprint; context: unknown; contextRest: string }> {
  const { parseDocument } = await import("htmlparser2");
  const doc = parseDocument(html, { lowerCaseAttributeNames: false, lowerCaseTags: false });
  let context: unknown = null;
  let contextRest = "";
  type DomNode = { type: string; name?: string; data?: string; attribs?: Record<string, string>; children?: DomNode[] };
  const textOf = (n: DomNode): string => (n.children ?? []).map((c) => c.data ?? textOf(c)).join("");
  const walk = (n: DomNode): Blueprint | null => {
    if (n.type === "text") return n.data ?? "";
    if (n.type !== "tag" && n.type !== "script" && n.type !== "style") return null;
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(n.attribs ?? {})) {
      const low = k.toLowerCase();
      if (low.startsWith("on")) continue;
      const name = RENAME[low] ?? k;
      if (BOOLEAN.has(low)) props[name] = true;
      else if (low === "style")
        props.style = Object.fromEntries(
          v
            .split(";")
            .map((d) => d.split(/:(.*)/s).map((s) => s.trim()))
            .filter(([a, b]) => a && b)
            .map(([a, b]) => [a!.startsWith("--") ? a : a!.replace(/-([a-z])/g, (_, x: string) => x.toUpperCase()), b]),
        );
      else props[name] = v;
    }
    if (n.type === "script" || n.type === "style") {
      const text = textOf(n);
      if (text.startsWith(CONTEXT_PREFIX)) {
        const end = jsonEnd(text, CONTEXT_PREFIX.length);
        try {
          context = JSON.parse(text.slice(CONTEXT_PREFIX.length, end));
          contextRest = text.slice(end);
          props.__context = true;
        } catch {
          context = null;
        }
      }
      props.dangerouslySetInnerHTML = { __html: text };
      return { tag: n.name!, props, children: [] };
    }
    if (n.name === "textarea") {
      props.defaultValue = textOf(n);
      return { tag: n.name, props, children: [] };
    }
    const children = (n.children ?? []).map(walk).filter((c): c is Blueprint => c !== null);
    return { tag: n.name!, props, children };
  };
  const root = (doc.children as DomNode[]).find((c) => c.type === "tag" && c.name === "html");
  if (!root) throw new Error("no <html> element in the page");
  return { tree: walk(root)!, context, contextRest };
}

async function floorServer(file: string): Promise<void> {
  if (cluster.isPrimary) {
    for (let i = 0; i < 2; i++) cluster.fork();
    cluster.on("exit", () => process.exit(1));
    return;
  }
  const React = await import("react");
  const { renderToString } = await import("react-dom/server");
  const pages = JSON.parse(readFileSync(file, "utf8")) as { port: number; pages: FloorPage[] };
  const byUrl = new Map(pages.pages.map((p) => [p.url, { page: p, next: 0 }]));
  const build = (b: Blueprint, contextScript: string): React.ReactNode => {
    if (typeof b === "string") return b;
    if (b.props.__context) {
      const { __context: _, ...props } = b.props;
      return React.createElement(b.tag, { ...props, dangerouslySetInnerHTML: { __html: contextScript } });
    }
    return React.createElement(b.tag, b.props, ...b.children.map((c) => build(c, contextScript)));
  };
  http
    .createServer((req, res) => {
      const entry = byUrl.get(req.url ?? "");
      if (!entry) {
        res.writeHead(404).end();
        return;
      }
      const v = entry.page.variants[entry.next++ % entry.page.variants.length]!;
      let body: string;
      if (entry.page.kind === "json") body = JSON.stringify(v.json);
      else {
        const script = `${CONTEXT_PREFIX}${JSON.stringify(v.context)
          .replace(/</g, "\\u003c")
          .replace(/>/g, "\\u003e")}${v.contextRest}`;
        body = `<!DOCTYPE html>${renderToString(build(v.tree!, script) as React.ReactElement)}`;
      }
      const out = brotliCompressSync(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      res.writeHead(200, {
        "content-type": entry.page.kind === "json" ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
        "content-encoding": "br",
        "content-length": out.length,
      });
      res.end(out);
    })
    .listen(pages.port, "127.0.0.1");
}

// ---------------------------------------------------------------------------------------------------------------
// Fixture.

interface Gateway {
  rtu: string;
  secret: string;
  inverters: string[];
  sensor: string;
  capaKw: number;
}
interface Member {
  id: string;
  auth: number;
  readOnly: boolean;
}

/** 12 groups (6 under the root, one subgroup under each), the plants spread over them, and 24 members. */
async function seed(store: Store): Promise<{ gateways: Gateway[]; members: Member[] }> {
  // Loaded here, not at the top: the floor's processes run this file too and need none of it.
  const { createMember } = await import("../tests/helpers/fixtures");
  const { SERVICE_MASK_MAX } = await import("../domain/service-bits");
  const now = Date.now();
  const db = store.db;
  const root = await db.selectFrom("node").select("seq").where("parent_seq", "is", null).orderBy("seq").executeTakeFirstOrThrow();
  const groups: number[] = [];
  for (let g = 0; g < GROUPS / 2; g++) {
    const top = await db
      .insertInto("node")
      .values({ parent_seq: root.seq, name: `벤치 그룹 ${g + 1}`, sort_order: g, created_at: now })
      .returning("seq")
      .executeTakeFirstOrThrow();
    const sub = await db
      .insertInto("node")
      .values({ parent_seq: top.seq, name: `벤치 그룹 ${g + 1}-1`, sort_order: 0, created_at: now })
      .returning("seq")
      .executeTakeFirstOrThrow();
    groups.push(top.seq, sub.seq);
  }
  const { seedFleet } = await import("./seed-fleet");
  const seeded = await seedFleet(store, {
    count: PLANTS,
    prefix: "LD",
    inverters: INVERTERS,
    sensor: true,
    perTransaction: 250,
    look: (i) => ({
      name: `벤치 태양광 ${i + 1}호`,
      capaKw: [99.8, 199.6, 499.5, 998][i % 4]!,
      locality: "경기도 화성시",
      lat: 37.2 + ((i * 7919) % 100) / 250,
      lng: 126.83 + ((i * 104729) % 100) / 250,
      node: groups[i % GROUPS]!,
    }),
  });
  const gateways: Gateway[] = seeded.map((g) => ({
    rtu: g.rtu,
    secret: g.secret,
    inverters: g.inverters,
    sensor: g.sensor!,
    capaKw: g.capaKw,
  }));
  const plantUids = seeded.map((g) => g.plant);
  const tag = randomBytes(2).toString("hex").toUpperCase();
  // Levels of SPEC §6: 10 (all areas), 6 (RTUs), 2 (members, plants, devices), 8, 3 and 1 (monitoring only).
  const levels = [10, 6, 2, 8, 3, 1];
  const members: Member[] = [];
  for (let m = 0; m < MEMBERS; m++) {
    const id = `bench${tag.toLowerCase()}${m}`;
    const auth = levels[m % levels.length]!;
    // Two members at the root, one without a group (linked plants only), the rest in the groups.
    const node = m < 2 ? root.seq : m === MEMBERS - 1 ? null : groups[m % GROUPS]!;
    await createMember(store, {
      id,
      password: PASSWORD,
      name: `벤치 사용자 ${m + 1}`,
      auth,
      service: SERVICE_MASK_MAX,
      node_seq: node,
      read_only: m % 5 === 4 ? 1 : 0,
      password_changed_at: now,
    });
    if (node === null)
      await db
        .insertInto("member_plant")
        .values(plantUids.filter((_, i) => i % 50 === 7).map((plant_uid) => ({ member_id: id, plant_uid, created_at: now })))
        .execute();
    members.push({ id, auth, readOnly: m % 5 === 4 });
  }
  return { gateways, members };
}

/** The readings of one gateway at `ts` (a clear-ish day by the Seoul hour). */
function readingsAt(g: Gateway, i: number, ts: number) {
  const hour = (ts / 3_600_000 + 9) % 24;
  const sun = Math.max(0, Math.sin(((hour - 6) / 13) * Math.PI));
  const irr = 950 * sun * (0.8 + 0.2 * Math.sin(i + ts / STEP));
  const faulty = i % 37 === 0; // a few plants stop, so the status groups are not all "normal"
  const dayStart = ts - ((ts + 9 * 3_600_000) % 86_400_000);
  const out = g.inverters.map((device, k) => {
    const iw = faulty && k === 0 ? 0 : (g.capaKw / INVERTERS) * 1000 * (irr / 1000) * 0.85;
    const todayWh = Math.round(((g.capaKw / INVERTERS) * 1000 * 0.85 * 5 * (ts - dayStart)) / 86_400_000);
    return {
      device,
      ts,
      values: {
        iw: Math.round(iw),
        dc_w: Math.round(iw * 1.03),
        today_wh: todayWh,
        total_wh: 50_000_000 + i * 1000 + Math.round(ts / 3_600_000) * 100,
        fault_code: faulty && k === 0 && sun > 0 ? 1 : 0,
      },
    };
  });
  return [
    ...out,
    { device: g.sensor, ts, values: { his: Math.round(irr * 0.9), iis: Math.round(irr), sts: 15 + 25 * sun, ats: 10 + 8 * sun } },
  ];
}

function ingest(baseUrl: string, g: Gateway, readings: unknown[]): Promise<Response> {
  return fetch(`${baseUrl}/api/ingest`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Basic ${Buffer.from(`${g.rtu}:${g.secret}`).toString("base64")}`,
    },
    body: JSON.stringify({ readings }),
  });
}

async function ingestHistory(baseUrl: string, gateways: Gateway[]): Promise<number> {
  const last = Date.now() - (Date.now() % STEP);
  const steps = (HISTORY_HOURS * 3_600_000) / STEP;
  let next = 0;
  let readings = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < gateways.length) {
        const i = next++;
        const g = gateways[i]!;
        const batch = Array.from({ length: steps }, (_, s) => readingsAt(g, i, last - (steps - 1 - s) * STEP)).flat();
        const res = await ingest(baseUrl, g, batch);
        readings += ((await res.json()) as { accepted: number }).accepted;
      }
    }),
  );
  return readings;
}

/** Every gateway posts its values of now once per INGEST_SECONDS, spread evenly, until `stop` is set. */
function liveIngest(baseUrl: string, gateways: Gateway[], stop: { done: boolean }) {
  const figures = { posts: 0, errors: 0 };
  const gap = (INGEST_SECONDS * 1000) / gateways.length;
  const run = async () => {
    const start = performance.now();
    let n = 0;
    const inFlight = new Set<Promise<void>>();
    while (!stop.done) {
      const due = start + n * gap;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const i = n++ % gateways.length;
      const g = gateways[i]!;
      const p = ingest(baseUrl, g, readingsAt(g, i, Date.now()))
        .then(async (r) => {
          await r.arrayBuffer();
          if (r.ok) figures.posts++;
          else figures.errors++;
        })
        .catch(() => void figures.errors++)
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size > 32) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  };
  return { figures, done: run() };
}

// ---------------------------------------------------------------------------------------------------------------
// Browsers.

interface Browser {
  member: Member;
  cookie: string;
  agent: http.Agent;
}

async function signIn(baseUrl: string, member: Member): Promise<Browser> {
  const res = await fetch(`${baseUrl}/api/member/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: member.id, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`login of ${member.id}: ${res.status} ${await res.text()}`);
  const t = (await res.json()) as { accessToken: string; refreshToken: string; sessionId: string };
  // A browser that has run the page's scripts before (pvjs: it takes the streamed /pvstatus list).
  const session = `accessToken=${t.accessToken}; refreshToken=${t.refreshToken}; sessionId=${t.sessionId}; NewAppOpenPop=1; pvjs=1`;
  const first = await fetch(`${baseUrl}/`, { headers: { cookie: session } });
  await first.arrayBuffer();
  const set = first.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => !/^(accessToken|refreshToken|sessionId)=/.test(c));
  return { member, cookie: [session, ...set].join("; "), agent: new http.Agent({ keepAlive: true, maxSockets: 3 }) };
}

interface Page {
  key: string;
  url: string;
  kind: "html" | "json";
  allowed: (m: Member) => boolean;
}

const DATA = (route: string) => `_data=${encodeURIComponent(route)}`;
const PAGES: Page[] = [
  { key: "/pvstatus (grid)", url: "/pvstatus", kind: "html", allowed: () => true },
  { key: "/pvstatus?view=gh (graph)", url: "/pvstatus?view=gh", kind: "html", allowed: () => true },
  { key: "/pvstatus grid poll (data)", url: `/pvstatus?${DATA("routes/_app.pvstatus")}`, kind: "json", allowed: () => true },
  {
    key: "/pvstatus graph poll (data)",
    url: `/pvstatus?view=gh&${DATA("routes/_app.pvstatus")}`,
    kind: "json",
    allowed: () => true,
  },
  { key: "/", url: "/", kind: "html", allowed: () => true },
  { key: "/watch", url: "/watch", kind: "html", allowed: () => true },
  { key: "/alarm", url: "/alarm", kind: "html", allowed: () => true },
  { key: "/statistics", url: "/statistics", kind: "html", allowed: () => true },
  { key: "/setting/plant (admin list)", url: "/setting/plant", kind: "html", allowed: (m) => m.auth >= 2 && !m.readOnly },
];
const page = (key: string) => PAGES.find((p) => p.key === key)!;
/** The pages measured one by one (BENCH_PAGES filters them; a filtered run is not recorded in the README). */
const ONLY = process.env.BENCH_PAGES?.split(",").filter(Boolean);
const MEASURED = ONLY ? PAGES.filter((p) => ONLY.includes(p.key)) : PAGES;

function get(baseUrl: string, b: Browser, url: string): Promise<{ status: number; body: string }> {
  const base = new URL(baseUrl);
  const once = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: base.hostname,
          port: base.port,
          path: url,
          agent: b.agent,
          timeout: 30_000,
          headers: { cookie: b.cookie, "accept-encoding": "identity" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", reject);
      req.end();
    });
  // Browsers retry a GET once when a kept-alive connection turns out closed.
  return once().catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ECONNRESET" || e.code === "EPIPE") return once();
    throw e;
  });
}

/** The day's mix: wallboards polling every 6 s, the other browsers opening a page every 20–60 s. */
async function day(baseUrl: string, browsers: Browser[], seconds: number) {
  const times = new Map<string, number[]>();
  const errors = new Map<string, number>();
  const end = Date.now() + seconds * 1000;
  const visit = async (b: Browser, p: Page) => {
    const t = performance.now();
    try {
      const r = await get(baseUrl, b, p.url);
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      const list = times.get(p.key) ?? [];
      list.push(performance.now() - t);
      times.set(p.key, list);
    } catch {
      errors.set(p.key, (errors.get(p.key) ?? 0) + 1);
    }
  };
  const wallboard = async (b: Browser, i: number) => {
    const graph = i % 2 === 1;
    await sleep(Math.random() * 20_000);
    await visit(b, page(graph ? "/pvstatus?view=gh (graph)" : "/pvstatus (grid)"));
    while (Date.now() < end) {
      const t = performance.now();
      await visit(b, page(graph ? "/pvstatus graph poll (data)" : "/pvstatus grid poll (data)"));
      await sleep(Math.max(0, 6000 - (performance.now() - t)));
    }
  };
  const office = async (b: Browser) => {
    const mix = ["/", "/", "/", "/pvstatus (grid)", "/pvstatus (grid)", "/watch", "/alarm", "/alarm", "/statistics"];
    if (page("/setting/plant (admin list)").allowed(b.member)) mix.push("/setting/plant (admin list)");
    await sleep(Math.random() * 30_000);
    while (Date.now() < end) {
      await visit(b, page(mix[Math.floor(Math.random() * mix.length)]!));
      await sleep(20_000 + Math.random() * 40_000);
    }
  };
  await Promise.all(browsers.map((b, i) => (i % 3 === 0 ? wallboard(b, i / 3) : office(b))));
  return PAGES.map((p) => ({ key: p.key, times: times.get(p.key) ?? [], errors: errors.get(p.key) ?? 0 }));
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring.

/** utime + stime (clock ticks) of `pid` and every process whose parent it is. */
function cpuTicks(pid: number): number {
  const stat = (p: string) => {
    try {
      const text = readFileSync(`/proc/${p}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
    } catch {
      return null;
    }
  };
  let total = stat(String(pid))?.ticks ?? 0;
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    const s = stat(p);
    if (s && s.ppid === pid) total += s.ticks;
  }
  return total;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  docs: number;
  cpuMs: number;
  non2xx: number;
  errors: number;
}

async function cannon(url: string, cookies: string[], pid: number, backgroundMsPerS = 0, seconds = PAGE_SECONDS): Promise<Run> {
  let n = 0;
  const before = cpuTicks(pid);
  const t = performance.now();
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { "accept-encoding": ACCEPT_ENCODING },
    requests: [
      {
        setupRequest: (req: { headers?: Record<string, string> }) => {
          req.headers = { ...req.headers, cookie: cookies[n++ % cookies.length]! };
          return req;
        },
      },
    ],
  });
  const wall = (performance.now() - t) / 1000;
  const cpuMs = ((cpuTicks(pid) - before) * 1000) / CLK_TCK - backgroundMsPerS * wall;
  const docs = r["2xx"];
  return {
    rps: docs / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    docs,
    cpuMs: docs ? Math.max(0, cpuMs) / docs : NaN,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** A request retried until it answers (the server may still be working off the day's queue). */
async function settled<T>(fn: () => Promise<T>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(1000);
    }
  }
}

async function waitForPort(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(100);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const { startServer } = await import("../tests/helpers/server");
  const { openStore } = await import("../api/store/db");
  const started = performance.now();
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" / ");
  console.log(`load bench: ${STORE}, ${PLANTS} plants, ${BROWSERS} browsers of ${MEMBERS} members, load ${load}`);
  const prof = process.env.BENCH_CPU_PROF;
  const server = await startServer({
    store: STORE,
    env: { ACCESS_TOKEN_TTL: "7200" },
    timeoutMs: 180_000,
    nodeArgs: prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : [],
  });
  const store = await openStore(server.databaseUrl);
  const stop = { done: false };
  let floor: ChildProcess | null = null;
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    let t = performance.now();
    const { gateways, members } = await seed(store);
    const seeded = (performance.now() - t) / 1000;
    t = performance.now();
    const history = await ingestHistory(server.baseUrl, gateways);
    const historySeconds = (performance.now() - t) / 1000;
    console.log(
      `  seeded ${PLANTS} plants in ${seeded.toFixed(1)} s; ${fmt(history)} readings of ${HISTORY_HOURS} h through /api/ingest in ${historySeconds.toFixed(1)} s`,
    );
    t = performance.now();
    const browsers: Browser[] = [];
    let nextBrowser = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextBrowser < BROWSERS) {
          const i = nextBrowser++;
          browsers[i] = await signIn(server.baseUrl, members[i % members.length]!);
        }
      }),
    );
    console.log(`  ${BROWSERS} browsers signed in in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const live = liveIngest(server.baseUrl, gateways, stop);
    // What ingest alone costs the server per second (subtracted from each page's CPU).
    await sleep(3000);
    const bg0 = cpuTicks(server.pid);
    const bgT = performance.now();
    await sleep(5000);
    const backgroundMsPerS = (((cpuTicks(server.pid) - bg0) * 1000) / CLK_TCK / (performance.now() - bgT)) * 1000;
    console.log(`  live ingest alone: ${backgroundMsPerS.toFixed(1)} ms CPU per second`);

    const mix = await day(server.baseUrl, browsers, DAY_SECONDS);
    console.log(`  day's mix, ${DAY_SECONDS} s:`);
    for (const m of mix)
      console.log(
        `    ${m.key}: ${m.times.length} (${fmt(m.times.length / DAY_SECONDS, 1)}/s), p50 ${fmt(pct(m.times, 50))} ms, p99 ${fmt(pct(m.times, 99))} ms, errors ${m.errors}`,
      );

    // Capture each page as 20 browsers of different members get it, for the floor.
    const floorPages: FloorPage[] = [];
    for (const p of MEASURED) {
      const eligible = browsers.filter((b) => p.allowed(b.member));
      const variants: FloorPage["variants"] = [];
      for (const b of eligible.slice(0, 20)) {
        const r = await settled(() => get(server.baseUrl, b, p.url));
        if (r.status !== 200) throw new Error(`${p.url} for ${b.member.id}: ${r.status}`);
        if (p.kind === "json") variants.push({ tree: null, context: null, contextRest: "", json: JSON.parse(r.body) });
        else variants.push({ ...(await blueprintOf(r.body)), json: null });
      }
      floorPages.push({ url: p.url, kind: p.kind, variants });
    }
    const floorPort = 3790 + Math.floor(Math.random() * 9);
    const floorFile = path.join(server.dataDir, "floor-pages.json");
    writeFileSync(floorFile, JSON.stringify({ port: floorPort, pages: floorPages }));
    floor = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "--floor", floorFile], {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    const floorUrl = `http://127.0.0.1:${floorPort}`;
    await waitForPort(floorUrl, 180_000);
    for (const p of MEASURED) await cannon(`${floorUrl}${p.url}`, ["a=1"], floor.pid!, 0, 2); // warm

    for (const p of MEASURED) {
      const cookies = browsers.filter((b) => p.allowed(b.member)).map((b) => b.cookie);
      await cannon(`${server.baseUrl}${p.url}`, cookies.slice(0, 20), server.pid, 0, 2); // warm (short)
      const portal = await cannon(`${server.baseUrl}${p.url}`, cookies, server.pid, backgroundMsPerS);
      const fl = await cannon(`${floorUrl}${p.url}`, ["a=1"], floor.pid!);
      const m = mix.find((x) => x.key === p.key)!;
      const row = [
        p.key,
        `${fmt(portal.rps)} (${fmt(portal.rps / fl.rps, 2)}×)`,
        `${portal.p50} / ${portal.p99} (${fmt(portal.p99 / fl.p99, 1)}×)`,
        `${fmt(portal.cpuMs, 2)} (${fmt(portal.cpuMs / fl.cpuMs, 1)}×)`,
        `${fmt(fl.rps)} · ${fl.p50} / ${fl.p99} · ${fmt(fl.cpuMs, 2)}`,
        `${m.times.length} · ${fmt(pct(m.times, 50))} / ${fmt(pct(m.times, 99))} · ${m.errors}`,
        `${portal.non2xx + portal.errors}`,
      ];
      rows.push(row);
      console.log(`  ${row.join(" | ")}`);
    }
    notes.push(
      `${PLANTS} plants (${PLANTS * INVERTERS} inverters and ${PLANTS} sensors) in ${GROUPS} groups, seeded into the store in ${seeded.toFixed(1)} s; ${fmt(history)} readings of the last ${HISTORY_HOURS} h through /api/ingest in ${historySeconds.toFixed(1)} s`,
      `${BROWSERS} browsers, each signed in on its own, over ${MEMBERS} members (levels 10, 6, 2, 8, 3, 1; two at the root, twenty in the groups, one with linked plants only)`,
      `live ingest during the whole run: every gateway posts once per ${INGEST_SECONDS} s (${fmt(gateways.length / INGEST_SECONDS, 1)} posts/s; ${fmt(live.figures.posts)} posts, ${live.figures.errors} errors by the end of the page runs), ${backgroundMsPerS.toFixed(1)} ms of server CPU per second, subtracted from each page's CPU`,
      `machine load average at start ${load}; whole run ${((performance.now() - started) / 60_000).toFixed(1)} min`,
    );
  } finally {
    stop.done = true;
    floor?.kill();
    await store.close();
    await server.stop();
  }

  const header = [
    "page",
    "req/s (× floor)",
    "p50 / p99 ms at c=20 (p99 × floor)",
    "CPU ms per document, portal + API (× floor)",
    "floor: req/s · p50 / p99 ms · CPU ms",
    `day's mix: requests · p50 / p99 ms · errors`,
    "non-2xx",
  ];
  const table = [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
  console.log(`\n${table}\n`);
  for (const n of notes) console.log(`- ${n}`);
  if (ONLY) return;
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), "README.md");
  const marker = `load-${STORE}-${PLANTS}`;
  const cmd = `${PLANTS !== 1000 ? `BENCH_PLANTS=${PLANTS} ` : ""}${STORE === "postgres" ? "BENCH_STORE=postgres " : ""}npx tsx bench/load.ts`;
  const section = `<!-- ${marker} -->\n## Many users on live data, ${STORE}, ${fmt(PLANTS)} plants (\`${cmd}\`, ${new Date().toISOString().slice(0, 16)} UTC, ${os.cpus().length} cores)\n\n${table}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n<!-- /${marker} -->`;
  let readme = readFileSync(file, "utf8");
  const re = new RegExp(`<!-- ${marker} -->[\\s\\S]*<!-- /${marker} -->`);
  readme = re.test(readme) ? readme.replace(re, section) : readme.replace(/\n<!-- /, `\n${section}\n\n<!-- `);
  writeFileSync(file, readme);
  console.log(`recorded in bench/README.md (${marker})`);
}

if (FLOOR) await floorServer(process.argv[process.argv.indexOf("--floor") + 1]!);
else {
  await main();
  process.exit(0);
}
