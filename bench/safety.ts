/**
 * The Korean remote-monitoring safety standard, measured (issue 29 §1): a gateway that sends nothing for 10 minutes in
 * daylight raises an alarm that reaches the plant's owner and its electrical safety manager. Prints figures (record
 * them in bench/README.md by hand).
 *   npx tsx bench/safety.ts                    SQLite; BENCH_STORE=postgres for PostgreSQL
 *   BENCH_PLANTS (1000), BENCH_STOPS (50), BENCH_STOP_SECONDS (60)
 *
 * Against one real server process (build/server.mjs) with its production alarm timer (ALARM_INTERVAL_MS 30 s) and a
 * real SMTP server process (smtp-server, tests/helpers/mailbox.ts) as its mail relay:
 *   1. 1,000 plants seeded into the store where the sun is up now (the rule judges silence by daylight), each with an
 *      owner and a safety manager as contacts (plant_contact), and the alarm setting "RTU silent after 1 interval"
 *      (10 minutes, the standard's; the portal's default is 3);
 *   2. every gateway posts a reading through POST /api/ingest once a minute, as a live fleet does;
 *   3. BENCH_STOPS gateways, chosen at random, stop at random moments of the first BENCH_STOP_SECONDS. So that the run
 *      does not wait 10 minutes per stop, a stopped gateway's last report is moved 9 minutes back in the store when it
 *      stops (what the data plane never does by itself; the tests simulate silence the same way): its 10-minute mark
 *      — the moment the standard asks for the alarm — comes one minute after its stop;
 *   4. for each stopped gateway, the time from its 10-minute mark to the alarm mail accepted by the SMTP server, for
 *      the owner and for the safety manager: p50, p99, max, and how many never arrived within 5 minutes.
 * Not a test: nothing passes or fails.
 */
import { randomBytes } from "node:crypto";
import { openStore } from "../api/store/db";
import { createMember } from "../tests/helpers/fixtures";
import { decodedHeader, Mailbox } from "../tests/helpers/mailbox";
import { ADMIN_PASSWORD, freePort, startServer, type StoreKind } from "../tests/helpers/server";
import { noonLongitude } from "../tests/api/pvstatus-fixture";
import { seedFleet } from "./seed-fleet";

const STORE = (process.env.BENCH_STORE ?? "sqlite") as StoreKind;
const PLANTS = Number(process.env.BENCH_PLANTS ?? 1000);
const STOPS = Number(process.env.BENCH_STOPS ?? 50);
const STOP_SECONDS = Number(process.env.BENCH_STOP_SECONDS ?? 60);
const MIN = 60_000;
const WAIT_AFTER_MARK_MS = 5 * MIN;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const secs = (ms: number) => (ms / 1000).toFixed(1);

async function main() {
  const mailbox = new Mailbox(await freePort());
  await mailbox.up();
  const server = await startServer({
    store: STORE,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      MAIL_FROM: "Portal <alerts@portal.test>",
      PORTAL_WORKERS: "0",
    },
    timeoutMs: 120_000,
  });
  const store = await openStore(server.databaseUrl);
  const stopping: Array<() => void> = [];
  try {
    const api = async (method: string, path: string, body: unknown, token?: string) => {
      const res = await fetch(`${server.baseUrl}/api${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": "10.9.9.9",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const login = await api("POST", "/member/login", { id: "admin", password: ADMIN_PASSWORD });
    const admin = String(login?.accessToken ?? (login?.data as { accessToken?: string })?.accessToken);
    await api("PUT", "/settings/alarm", { ...((await settingsOf(server.baseUrl, admin)) ?? {}), rtuSilentIntervals: 1 }, admin);

    // 1. The fleet, where it is midday now, with its owner and safety manager.
    const secret = `bench-${randomBytes(6).toString("hex")}`;
    const lng = noonLongitude();
    const t0 = performance.now();
    const fleet = await seedFleet(store, {
      count: PLANTS,
      prefix: "SF",
      inverters: 2,
      sharedSecret: secret,
      lastSeenAt: Date.now(),
      look: (i) => ({ name: `안전 벤치 ${i + 1}호`, capaKw: 100, lat: 36, lng }),
      latest: (k) => ({ iw: 40_000 + k, today_wh: 200_000, total_wh: 9e7, ageMs: 30_000 }),
    });
    const owner = await createMember(store, { email: `owner-${randomBytes(3).toString("hex")}@example.kr` });
    const safety = await createMember(store, { email: `safety-${randomBytes(3).toString("hex")}@example.kr` });
    const now = Date.now();
    for (let i = 0; i < fleet.length; i += 400) {
      await store.db
        .insertInto("plant_contact")
        .values(
          fleet.slice(i, i + 400).flatMap((g) => [
            { plant_uid: g.plant, role: "owner", member_id: owner.id, updated_at: now, updated_by: null },
            { plant_uid: g.plant, role: "safety", member_id: safety.id, updated_at: now, updated_by: null },
          ]),
        )
        .execute();
    }
    console.log(`${STORE}: ${PLANTS} plants seeded in ${secs(performance.now() - t0)} s (longitude ${lng.toFixed(1)}°, midday)`);

    // 2. Every gateway posts once a minute; 3. STOPS of them stop at random moments.
    const shuffled = [...fleet].sort(() => Math.random() - 0.5);
    const stopAt = new Map(shuffled.slice(0, STOPS).map((g) => [g.plant, Date.now() + Math.random() * STOP_SECONDS * 1000]));
    const mark = new Map<string, number>();
    let posts = 0;
    let postErrors = 0;
    const gateway = async (g: (typeof fleet)[number], offset: number) => {
      let stopped = false;
      stopping.push(() => (stopped = true));
      await new Promise((r) => setTimeout(r, offset));
      for (let k = 0; !stopped; k++) {
        const stop = stopAt.get(g.plant);
        if (stop !== undefined && Date.now() >= stop) {
          // Its last report 9 minutes ago: the 10-minute mark is one minute from now.
          const last = Date.now() - 9 * MIN;
          await store.db.updateTable("rtu").set({ last_seen_at: last }).where("uid", "=", g.rtu).execute();
          mark.set(g.plant, last + 10 * MIN);
          return;
        }
        const ts = Date.now() - (Date.now() % MIN);
        const res = await fetch(`${server.baseUrl}/api/ingest`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Basic ${Buffer.from(`${g.rtu}:${secret}`).toString("base64")}`,
          },
          body: JSON.stringify({
            readings: g.inverters.map((device, i) => ({
              device,
              ts,
              values: { iw: 40_000 + i, today_wh: 200_000 + k * 600, total_wh: 9e7 + k * 600 },
            })),
          }),
        }).catch(() => null);
        posts++;
        if (!res?.ok) postErrors++;
        await res?.arrayBuffer().catch(() => undefined);
        // The next minute, or the stop when it comes first.
        const next = Math.min(Date.now() + MIN, stop ?? Infinity);
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
    };
    const running = fleet.map((g, i) => gateway(g, (i / fleet.length) * MIN));

    // 4. The alarm mails: the subject names the plant.
    const name = new Map(fleet.map((g, i) => [g.plant, `안전 벤치 ${i + 1}호`]));
    const arrived = new Map<string, number>();
    const seen = new Set<number>();
    const stopped = [...stopAt.keys()];
    const deadline = Date.now() + STOP_SECONDS * 1000 + MIN + WAIT_AFTER_MARK_MS;
    while (Date.now() < deadline) {
      mailbox.messages.forEach((m, i) => {
        if (seen.has(i)) return;
        seen.add(i);
        const subject = decodedHeader(m.subject);
        for (const plant of stopped) {
          const n = name.get(plant)!;
          // "안전 벤치 1호" is also the start of "안전 벤치 12호": the name ends at the separator.
          if (!subject.includes(`${n} ·`)) continue;
          const who = m.to.includes("owner-") ? "owner" : m.to.includes("safety-") ? "safety" : null;
          if (who && !arrived.has(`${plant} ${who}`)) arrived.set(`${plant} ${who}`, m.at);
        }
      });
      if (stopped.every((p) => mark.has(p) && arrived.has(`${p} owner`) && arrived.has(`${p} safety`))) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const s of stopping) s();
    await Promise.all(running);

    const raised = await store.db
      .selectFrom("alarm")
      .select(["plant_uid", "raised_at"])
      .where("plant_uid", "in", stopped)
      .where("code", "=", 1000003)
      .execute();
    const outbox = await store.db.selectFrom("outbox").select(["status", "subject", "last_error"]).execute();
    const report: Record<string, string> = {};
    report["silence alarms raised (of the stopped gateways)"] =
      `${new Set(raised.map((r) => r.plant_uid)).size} of ${stopped.length}`;
    report["outbox: mails by status"] = JSON.stringify(
      outbox.reduce<Record<string, number>>((n, o) => ((n[o.status] = (n[o.status] ?? 0) + 1), n), {}),
    );
    if (outbox[0]) report["outbox: first mail"] = `${outbox[0].subject} (${outbox[0].last_error ?? "no error"})`;
    for (const who of ["owner", "safety"] as const) {
      const lat = stopped
        .filter((p) => mark.has(p) && arrived.has(`${p} ${who}`))
        .map((p) => arrived.get(`${p} ${who}`)! - mark.get(p)!)
        .sort((a, b) => a - b);
      const missing = stopped.length - lat.length;
      report[`${who === "owner" ? "owner" : "safety manager"}: mark → mail accepted, p50 / p99 / max (s)`] = lat.length
        ? `${secs(pct(lat, 50))} / ${secs(pct(lat, 99))} / ${secs(lat.at(-1)!)} (${lat.length} mails${missing ? `, ${missing} missing after 5 min` : ""})`
        : `none of ${stopped.length} arrived`;
    }
    report["gateway posts during the run (errors)"] = `${posts} (${postErrors})`;
    report["alarm timer (ALARM_INTERVAL_MS)"] = "30 s (default)";
    console.log(report);
    console.log(`| ${STORE}, ${PLANTS} plants, ${STOPS} gateways stopped | |\n|---|---|`);
    for (const [k, v] of Object.entries(report)) console.log(`| ${k} | ${v} |`);
  } finally {
    for (const s of stopping) s();
    await store.close();
    await server.stop();
    await mailbox.down();
  }
}

async function settingsOf(baseUrl: string, token: string): Promise<Record<string, unknown> | null> {
  const res = await fetch(`${baseUrl}/api/settings`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json().catch(() => null)) as { alarm?: Record<string, unknown> } | null;
  return body?.alarm ?? null;
}

await main();
