/**
 * What people hit when they tried the product (issue 13), against a real server on both stores:
 * an admin without a group, redirect targets, physically impossible readings, forged client
 * addresses and a patient stranger at the login, a forged host for the detail window, strict JSON
 * numbers, NUL characters, the CSP of every page, a missing upload; and a port already in use.
 * The server runs with TRUST_PROXY unset (none), as a default install does.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { ADMIN_PASSWORD, freePort, REPO_ROOT, serverBundle, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture, gatewayAuth, postReadings, slot } from "../helpers/telemetry";
import { waitFor } from "../helpers/wait";

/** Requests from another loopback address (Linux answers all of 127/8): a client the server cannot confuse. */
function from(address: string) {
  // The Agent's own localAddress option: `connect: { localAddress }` was silently not applied, so every
  // "address" of this file used to be 127.0.0.1 and the strangers throttled the owner's address too.
  return new Agent({ localAddress: address });
}

async function login(baseUrl: string, address: string, body: Record<string, unknown>, forwardedFor?: string) {
  // undici's own fetch with undici's own Agent (no mixing with Node's bundled copy).
  const res = await undiciFetch(`${baseUrl}/api/member/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) },
    body: JSON.stringify(body),
    dispatcher: from(address),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
}

function cookieHeader(tokens: { accessToken: string; refreshToken: string; sessionId: string }) {
  return `accessToken=${tokens.accessToken}; refreshToken=${tokens.refreshToken}; sessionId=${tokens.sessionId}`;
}

describe.each(STORES)("robustness against what users and attackers tried, on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let admin: { accessToken: string; refreshToken: string; sessionId: string };
  const api = () => apiClient(server.baseUrl);

  beforeAll(async () => {
    // LOG_REQUESTS: a request's own log line is the event after which its error output, had there been any, is seen.
    server = await startServer({ store: storeKind, env: { TRUST_PROXY: "none", LOG_REQUESTS: "1" }, timeoutMs: 240_000 });
    store = await openTestStore(server.databaseUrl);
    admin = await login(server.baseUrl, "127.0.0.9", { id: "admin", password: ADMIN_PASSWORD }).then((r) => r.body as any);
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  it("1: an admin of level 1 in no group opens /setting/id and /setting/id/new (no 500)", async () => {
    const m = await createMember(store, { auth: 1, node_seq: null });
    const tokens = (await login(server.baseUrl, "127.0.0.10", { id: m.id, password: m.password })).body as any;
    const list = await api().call("GET", "/node/group/list", { token: tokens.accessToken });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ rootSeq: null, groupList: [], plantList: [] });
    for (const page of ["/setting/id", "/setting/id/new"]) {
      const res = await fetch(`${server.baseUrl}${page}`, { headers: { cookie: cookieHeader(tokens) }, redirect: "manual" });
      expect(res.status, page).toBe(200);
      expect(await res.text()).not.toContain("문제가 발생했습니다");
    }
  });

  it("3: a redirectTo is read as a browser reads it: never another host, never a 500", async () => {
    for (const target of [
      "/\t/evil.example/x",
      "/\\evil.example",
      "//evil.example",
      "/a\r\nSet-Cookie: x=1",
      "/a\u0000b",
      "https://evil.example",
    ]) {
      const res = await fetch(`${server.baseUrl}/login?redirectTo=${encodeURIComponent(target)}`, {
        headers: { cookie: cookieHeader(admin) },
        redirect: "manual",
      });
      expect(res.status, JSON.stringify(target)).toBe(302);
      const location = new URL(res.headers.get("location")!, server.baseUrl);
      expect(location.origin, JSON.stringify(target)).toBe(server.baseUrl);
      expect(res.headers.get("set-cookie") ?? "").not.toContain("x=1");
    }
    const ok = await fetch(`${server.baseUrl}/login?redirectTo=${encodeURIComponent("/pvstatus?view=gh")}`, {
      headers: { cookie: cookieHeader(admin) },
      redirect: "manual",
    });
    expect(ok.headers.get("location")).toBe("/pvstatus?view=gh");
    // A target longer than a Location header may be (20,000 characters posted to /preferences) goes home.
    const page = await fetch(`${server.baseUrl}/login`);
    const csrfCookie = page.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const long = await fetch(`${server.baseUrl}/preferences`, {
      method: "POST",
      headers: { cookie: `${cookieHeader(admin)}; ${csrfCookie}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf, theme: "dark", redirectTo: `/pvstatus?q=${"x".repeat(20_000)}` }),
      redirect: "manual",
    });
    expect(long.status).toBe(302);
    expect(long.headers.get("location")).toBe("/");
  });

  it("4: readings no device can produce are rejected as out_of_range; bad stored rows never spoil the totals", async () => {
    const g = await createGatewayFixture(store, { capaKw: 100, inverters: 2 });
    const ts = slot(1);
    const answer = await postReadings(server.baseUrl, g, [
      { device: g.inverters[0], ts, values: { iw: -500 } },
      { device: g.inverters[0], ts: slot(2), values: { iw: 1e308 } },
      { device: g.inverters[1], ts, values: { iw: 30_000, today_wh: 1e15 } },
      { device: g.env, ts, values: { his: 1e9 } },
      { device: g.env, ts: slot(2), values: { sts: 9999 } },
      { device: g.inverters[1], ts: slot(3), values: { iw: 30_000, today_wh: 120_000 } },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
    expect(answer.body.rejected.map((r: any) => [r.index, r.reason, r.field])).toEqual([
      [0, "out_of_range", "iw"],
      [1, "out_of_range", "iw"],
      [2, "out_of_range", "today_wh"],
      [3, "out_of_range", "his"],
      [4, "out_of_range", "sts"],
    ]);

    // A row stored raw before ingest had bounds: one device of another plant reports 1e300 Wh today.
    const bad = await createGatewayFixture(store, { capaKw: 50, inverters: 1 });
    const now = Date.now();
    await store.db
      .insertInto("device_latest")
      .values({
        device_uid: bad.inverters[0]!,
        kind: 1,
        ts: now - 60_000,
        received_at: now,
        iw: 1e300,
        today_wh: 1e300,
        total_wh: 1e300,
        fault_code: 0,
        his: null,
        iis: null,
        sts: null,
        ats: null,
        state: null,
        values_json: JSON.stringify({ iw: 1e300, dc_w: 1e300 }),
      })
      .execute();
    const res = await api().call("GET", "/pvstatus", { token: admin.accessToken });
    expect(res.status).toBe(200);
    for (const key of ["total_iw", "today_gen", "month_gen", "year_gen", "accrue_gen", "total_pw"]) {
      expect(typeof res.body[key], key).toBe("number");
      expect(Number.isFinite(res.body[key]), key).toBe(true);
      expect(res.body[key], key).toBeLessThan(1e9);
    }
    expect(res.text).not.toMatch(/e\+\d{2,}|null,"today_gen"|Infinity/);
    // The good plant's 120 kWh still count: the bad row does not turn the total into 0.
    expect(res.body.today_gen).toBeGreaterThanOrEqual(120_000);
  });

  it("5: a forged X-Forwarded-For does not give a fresh address (TRUST_PROXY none)", async () => {
    // Each attempt claims a new address and a new id: only the connection's own address can be slowed.
    let last = 0;
    for (let i = 0; i < 30 && last !== 429; i++) {
      last = (await login(server.baseUrl, "127.0.0.20", { id: `nobody${i}`, password: "wrong-password" }, `198.51.100.${i + 1}`))
        .status;
    }
    expect(last).toBe(429);
  });

  it("5: a patient stranger cannot lock the owner out (device cookie; README promise)", async () => {
    const owner = await createMember(store, { auth: 0 });
    const first = await login(server.baseUrl, "127.0.0.30", { id: owner.id, password: owner.password });
    expect(first.status).toBe(200);
    const deviceToken = first.body.deviceToken as string;
    expect(deviceToken).toBeTruthy();
    // The stranger tries wrong passwords for the owner's id, each time from a new address.
    // They keep going until the id is being slowed down (the delay doubles per failure, so this ends).
    let stranger = 0;
    for (let i = 0; i < 30 && stranger !== 429; i++) {
      stranger = (await login(server.baseUrl, `127.0.1.${i + 1}`, { id: owner.id, password: "guess" })).status;
    }
    expect(stranger).toBe(429);
    // The owner's browser, which logged in as them before, gets in at once: the strangers' failures
    // slow down the id, not this browser.
    const back = await login(server.baseUrl, "127.0.0.32", { id: owner.id, password: owner.password, deviceToken });
    expect(back.status).toBe(200);
  });

  it("6: a forged X-Forwarded-Host never carries a detail-window code to a foreign host", async () => {
    const g = await createGatewayFixture(store, { inverters: 1 });
    const res = await fetch(`${server.baseUrl}/resources/detail-window?kind=plant&uid=${g.plantUid}&name=x`, {
      headers: { cookie: cookieHeader(admin), "x-forwarded-host": "evil.example" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.host).toBe(`detail.localhost:${server.port}`);
    expect(location.searchParams.get("code")).toBeTruthy();
  });

  it("7: numbers are strict in JSON bodies and NUL is refused in text", async () => {
    const target = await createMember(store, { auth: 0 });
    const asText = await api().call("PUT", `/member/${target.id}`, { token: admin.accessToken, json: { auth: true } });
    expect(asText.status).toBe(400);
    expect(asText.body.fields.auth).toBe("not_a_number");
    const plant = await api().call("POST", "/plant", {
      token: admin.accessToken,
      json: { name: "참 발전소", capa: true, locality: "경북" },
    });
    expect(plant.status).toBe(400);
    expect(plant.body.fields.capa).toBe("not_a_number");
    const nul = await api().call("PUT", `/member/${target.id}`, { token: admin.accessToken, json: { name: "a\u0000b" } });
    expect(nul.status).toBe(400);
    expect(nul.body.fields.name).toBe("control_character");
    const query = await api().call("GET", `/monitor/gen?keyword=${encodeURIComponent("a\u0000")}`, { token: admin.accessToken });
    expect(query.status).toBeLessThan(500);
    const row = await store.db.selectFrom("member").select("name").where("id", "=", target.id).executeTakeFirstOrThrow();
    expect(row.name).not.toContain("\u0000");
  });

  it('7: numeric text ("10") where a JSON body has a number is refused, naming the field', async () => {
    const target = await createMember(store, { auth: 0 });
    const g = await createGatewayFixture(store, { inverters: 1 });
    const refused: [string, string, Record<string, unknown>, string][] = [
      ["PUT", `/member/${target.id}`, { auth: "10" }, "auth"],
      ["POST", "/plant", { name: "글자 발전소", capa: "10", locality: "경북" }, "capa"],
      ["POST", "/device", { name: "글자 인버터", kind: 1, plantUid: g.plantUid, rtuUid: g.rtuUid, address: "3" }, "address"],
      ["POST", "/device", { name: "글자 인버터", kind: "1", plantUid: g.plantUid, rtuUid: g.rtuUid, address: 3 }, "kind"],
      [
        "POST",
        "/diagnose/produce",
        { deviceUids: g.inverters, unit: "10", start: "2026-01-01 00:00", end: "2026-01-01 06:00" },
        "unit",
      ],
      [
        "PUT",
        `/diagnose/coefficients/${g.plantUid}`,
        { temperatureCoefficient: "-0.004", systemFactor: 0.9 },
        "temperatureCoefficient",
      ],
    ];
    for (const [method, path, json, field] of refused) {
      const res = await api().call(method as "POST", path, { token: admin.accessToken, json });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.fields, `${method} ${path}`).toEqual({ [field]: "not_a_number" });
    }
    // The same with JSON numbers is taken (the refusal was the type, not the value).
    const asNumber = await api().call("PUT", `/member/${target.id}`, { token: admin.accessToken, json: { auth: 1 } });
    expect(asNumber.status, JSON.stringify(asNumber.body)).toBe(200);
    const coefficients = await api().call("PUT", `/diagnose/coefficients/${g.plantUid}`, {
      token: admin.accessToken,
      json: { temperatureCoefficient: -0.004, systemFactor: 0.9 },
    });
    expect(coefficients.status, JSON.stringify(coefficients.body)).toBeLessThan(300);
    // Query strings are text by nature: there the schema reads "10" as the number it spells.
    const query = await api().call("GET", `/alarm?page=2&size=20`, { token: admin.accessToken });
    expect(query.status, JSON.stringify(query.body)).toBe(200);
  });

  // Runs after 4: its /pvstatus visit has the admin's visible plants kept (until the plant table is written), and 4
  // makes a plant straight in the store and reads the totals at once.
  it("8: wrong, repeated or overlong query values in a screen's URL give the default view or a 400, never a 500", async () => {
    const long = "x".repeat(5000);
    const lenient = [
      `/setting/plant?plantStatus=bogus&packageSeq=1e9&searchType=%00&searchText=${long}&searchText=b`,
      "/setting/device?kind=99&kind=1&status=%F0%9F%98%80&rtu=a&rtu=b&keyword=%00x",
      "/setting/rtu?comm=ONLINE&package=-3&status=maybe&type=123&keyword=%00",
      "/setting/group?node=abc",
      "/setting/group?node=99999999999999999999",
      "/notice?use=7",
      "/setting/import?source=-1&source=2",
      "/setting/config/faultCodes?edit=1e3",
      "/setting/id?page=-1&auth=x&size=100000&seq=0",
      "/pvstatus?stream=zz&stream=0&view=nope&count=-5",
    ];
    for (const page of lenient) {
      const res = await fetch(`${server.baseUrl}${page}`, { headers: { cookie: cookieHeader(admin) }, redirect: "manual" });
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).not.toContain("문제가 발생했습니다");
    }
    const check = await fetch(`${server.baseUrl}/resources/member-id-check?id=a&id=b&_data=routes%2Fresources.member-id-check`, {
      headers: { cookie: cookieHeader(admin) },
    });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ id: "", valid: false });
    const promo = await fetch(`${server.baseUrl}/resources/app-promo?platform=a&platform=b&redirectTo=%2Fnotice`, {
      headers: { cookie: cookieHeader(admin) },
      redirect: "manual",
    });
    expect(promo.status).toBe(302);
    expect(promo.headers.get("location")).toBe("/notice");
    // A detail window for something that is neither a plant nor a member is a clear 400.
    const detail = await fetch(`${server.baseUrl}/resources/detail-window?kind=robot&uid=P1`, {
      headers: { cookie: cookieHeader(admin) },
      redirect: "manual",
    });
    expect(detail.status).toBe(400);
  });

  it("8: hostile values in any search param of any screen answer a page or a 4xx, never a 500 (session 9 sweep)", async () => {
    // What a hand-edited bookmark or a scanner sends: control characters, a lone %, markup, overlong text, repeated
    // keys. The screens' names for their params, all of them given at once.
    const screens = ["/", "/pvstatus", "/watch", "/alarm", "/control", "/measurement", "/diagnose", "/statistics", "/diagram"];
    screens.push("/page", "/cctv", "/help", "/notice", "/modify", "/setting/id", "/setting/plant", "/setting/config/alarm");
    screens.push("/alarm/export", "/statistics/export", "/resources/names", "/resources/cctv-url", "/resources/recent-alarms");
    const names = ["q", "find", "plant", "group", "isGroup", "device", "deviceUid", "camera", "uid", "code", "state", "start"];
    names.push("end", "unit", "page", "tab", "kind", "view", "report", "p", "article", "seq", "sub", "in", "dataType");
    const hostile = ["\u0000x", "%", "<x>", "\u007f", "1e309", "-1", "x".repeat(3000), "2026-02-30"];
    const failures: string[] = [];
    for (const screen of screens) {
      for (const value of hostile) {
        const query = names.map((n) => `${n}=${encodeURIComponent(value)}&${n}=${encodeURIComponent(value)}`).join("&");
        const res = await fetch(`${server.baseUrl}${screen}?${query}`, {
          headers: { cookie: cookieHeader(admin) },
          redirect: "manual",
        });
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${res.status} ${screen} ${JSON.stringify(value).slice(0, 12)}`);
      }
    }
    expect(failures).toEqual([]);
    // What the refused ones show: a 400 page that says the address cannot be read, not "try again later". A NUL in a
    // path parameter is refused by the API like one in a query (it failed the call on PostgreSQL).
    for (const url of ["/diagram?plant=%00x", "/cctv?camera=%25", "/help?article=%00", "/page?p=%00", "/setting/plant/%00"]) {
      const res = await fetch(`${server.baseUrl}${url}`, { headers: { cookie: cookieHeader(admin) }, redirect: "manual" });
      expect([400, 404], url).toContain(res.status);
      const html = await res.text();
      expect(html, url).toContain(res.status === 400 ? "잘못된 요청입니다" : "페이지를 찾을 수 없습니다");
      expect(html, url).not.toContain("문제가 발생했습니다");
    }
    for (const [url, field] of [
      ["/api/plant/%00", "_path"],
      ["/api/management/plant/setting?plantUid=%00", "plantUid"],
    ] as const) {
      const nul = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${admin.accessToken}` } });
      expect(nul.status, url).toBe(400);
      expect(await nul.json(), url).toMatchObject({ message: "invalid_input", fields: { [field]: "control_character" } });
    }
  });

  describe("issue 25: cameras, webhooks, deep JSON and foreign ids", () => {
    /** A TCP listener on loopback that counts who connects (nothing may: the rule refuses loopback by default). */
    async function listener() {
      let connections = 0;
      const srv = net.createServer((sock) => {
        connections++;
        sock.destroy();
      });
      await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
      return {
        port: (srv.address() as net.AddressInfo).port,
        connections: () => connections,
        close: () => new Promise((r) => srv.close(r)),
      };
    }
    /** Every spelling of a forbidden address the attack used, with the reason the API names. */
    const hostile: Array<[string, string]> = [
      ["http://169.254.169.254/latest/meta-data/iam/security-credentials/", "address_metadata"],
      ["http://[fd00:ec2::254]/latest/meta-data/", "address_metadata"],
      ["http://100.100.100.200/latest/meta-data/", "address_metadata"],
      ["rtsp://127.0.0.1:5432/", "address_loopback"],
      ["rtsp://[::1]:5432/", "address_loopback"],
      ["http://0x7f000001:5432/", "address_loopback"],
      ["rtsp://0x7f000001:5432/", "address_loopback"],
      ["rtsp://2130706433:5432/", "address_loopback"],
      ["http://127.1:5432/", "address_loopback"],
      ["rtsp://127.1:5432/", "address_loopback"],
      ["http://[::ffff:127.0.0.1]:5432/", "address_loopback"],
      ["http://localhost:5432/", "address_loopback"],
      ["rtsp://0.0.0.0:5432/", "address_unspecified"],
      ["rtsp://100.64.1.1/", "address_cgnat"],
      ["rtsp://224.0.0.251/", "address_multicast"],
      ["rtsp://10.1.2.3:554/", "address_private"],
      ["rtsp://192.168.0.64:554/Streaming/Channels/101", "address_private"],
      ["gopher://127.0.0.1:5432/", "unsupported_scheme"],
      ["file:///etc/passwd", "unsupported_scheme"],
    ];

    it("25.1: camera and webhook URLs to loopback, metadata, private … are a 400 naming the field and the reason", async () => {
      const m = await createMember(store, { auth: 10 });
      const token = (await api().session(m.id, m.password)).accessToken;
      const g = await createGatewayFixture(store, { inverters: 1 });
      const ok = await api().call("POST", "/cctv/camera", {
        token,
        json: { plantUid: g.plantUid, name: "공인 카메라", url: "rtsp://203.0.113.10:554/live" },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      for (const [url, reason] of hostile) {
        const create = await api().call("POST", "/cctv/camera", { token, json: { plantUid: g.plantUid, name: "x", url } });
        expect([create.status, create.body.fields?.url], `POST ${url}`).toEqual([400, reason]);
        const update = await api().call("PUT", `/cctv/camera/${ok.body.uid}`, { token, json: { url } });
        expect([update.status, update.body.fields?.url], `PUT ${url}`).toEqual([400, reason]);
        if (!/^https?:/.test(url)) continue;
        const hook = await api().call("PUT", "/alarm/notify/pref", {
          token,
          json: { minLevel: 3, mail: false, webhook: true, webhookUrl: url, digest: false },
        });
        expect([hook.status, hook.body.fields?.webhookUrl], `webhook ${url}`).toEqual([400, reason]);
      }
      const cams = await store.db.selectFrom("camera").select("url").where("plant_uid", "=", g.plantUid).execute();
      expect(cams.map((c) => c.url)).toEqual(["rtsp://203.0.113.10:554/live"]);
      expect((await api().call("PUT", "/alarm/notify/pref", { token, json: { minLevel: 3, webhook: false } })).status).toBe(200);
    });

    it("25.1: the /cctv form shows the refusal as the address field's error", async () => {
      const m = await createMember(store, { auth: 10 });
      const tokens = (await login(server.baseUrl, "127.0.0.25", { id: m.id, password: m.password })).body as any;
      const g = await createGatewayFixture(store, { inverters: 1 });
      let cookie = `${cookieHeader(tokens)}; NewAppOpenPop=1`;
      const page = await fetch(`${server.baseUrl}/cctv`, { headers: { cookie } });
      const html = await page.text();
      for (const set of page.headers.getSetCookie()) cookie += `; ${set.split(";")[0]}`;
      const csrf = /name="csrf"[^>]*value="([^"]+)"/.exec(html)?.[1];
      expect(csrf, html.slice(0, 300)).toBeTruthy();
      const res = await fetch(`${server.baseUrl}/cctv`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          csrf: csrf!,
          intent: "add",
          plantUid: g.plantUid,
          name: "몰래",
          url: "rtsp://0x7f000001:5432/",
        }),
      });
      expect(res.status).toBe(400);
      const answer = await res.text();
      expect(answer).toContain("서버 자신(루프백) 주소는 쓸 수 없습니다.");
      expect(await store.db.selectFrom("camera").select("uid").where("plant_uid", "=", g.plantUid).execute()).toEqual([]);
    });

    it("25.1: an address checked at registration is checked again when the server connects (camera and webhook)", async () => {
      const m = await createMember(store, { auth: 10 });
      const session = await api().session(m.id, m.password);
      const g = await createGatewayFixture(store, { inverters: 1 });
      const target = await listener();
      try {
        // As a name that resolved elsewhere at registration and resolves to loopback now (DNS rebinding).
        const now = Date.now();
        await store.db
          .insertInto("camera")
          .values({
            uid: `CAMREBIND${g.plantUid.slice(-3)}`,
            plant_uid: g.plantUid,
            name: "바뀐 카메라",
            url: `http://localhost:${target.port}/camera.ts`,
            username: null,
            password_sealed: null,
            width: null,
            height: null,
            probed_at: null,
            created_by: m.id,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const u = await api().call("GET", `/cctv/url?uid=CAMREBIND${g.plantUid.slice(-3)}`, { token: session.accessToken });
        expect(u.status).toBe(200);
        const playlist = await fetch(`${server.baseUrl}${u.body.url}`, { headers: { cookie: `sessionId=${session.sessionId}` } });
        expect(playlist.status).toBe(403);
        expect(await playlist.json()).toEqual({ message: "camera_address_refused", details: { url: ["address_loopback"] } });
        const seq = Number(
          (
            await store.db
              .insertInto("outbox")
              .values({
                dedupe_key: `rebind-${now}`,
                channel: "webhook",
                recipient: `http://localhost:${target.port}/hook`,
                subject: "s",
                body_text: "t",
                body_html: null,
                attachments: null,
                status: "pending",
                attempts: 0,
                next_attempt_at: now,
                claimed_until: 0,
                claimed_by: null,
                last_error: null,
                created_at: now,
                sent_at: null,
              })
              .returning("seq")
              .executeTakeFirstOrThrow()
          ).seq,
        );
        const row = await waitFor(
          async () => {
            const r = await store.db.selectFrom("outbox").selectAll().where("seq", "=", seq).executeTakeFirstOrThrow();
            return Number(r.attempts) >= 1 ? r : null;
          },
          { ms: 15_000 },
        );
        expect(row.last_error).toBe("refused: address_loopback");
        expect(target.connections()).toBe(0);
      } finally {
        await target.close();
      }
    });

    it("25.6: JSON nested 5,000 deep is a 400 before anything walks it, on every JSON reader", async () => {
      const g = await createGatewayFixture(store, { inverters: 1 });
      const deep = (n: number) => `{"readings":${"[".repeat(n)}${"]".repeat(n)}}`;
      const ingest = await fetch(`${server.baseUrl}/api/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: gatewayAuth(g) },
        body: deep(5_000),
      });
      expect(ingest.status).toBe(400);
      expect(await ingest.json()).toEqual({ message: "json_too_deep" });
      const m = await createMember(store, { auth: 0 });
      for (const [method, path] of [
        ["PUT", `/api/member/${m.id}`],
        ["POST", "/api/plant"],
        ["POST", "/api/cctv/camera"],
        ["POST", "/api/member/login"],
      ] as const) {
        const res = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${admin.accessToken}` },
          body: `{"name":${"[".repeat(5_000)}${"]".repeat(5_000)}}`,
        });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(await res.json()).toEqual({ message: "json_too_deep" });
      }
      // Ordinary nesting still goes through.
      const shallow = await postReadings(server.baseUrl, g, [{ device: g.inverters[0], ts: slot(0), values: { iw: 1 } }]);
      expect(shallow.status).toBe(200);
    });

    it("25.7: foreign ids written as foreign keys are a 400 naming the field, never a 500", async () => {
      const token = admin.accessToken;
      const target = await createMember(store, { auth: 0 });
      for (const nodeSeq of [99_999_999, -1, 0, 1e12]) {
        const res = await api().call("PUT", `/member/${target.id}`, { token, json: { node_seq: nodeSeq } });
        expect([res.status, Object.keys(res.body.fields ?? {})], `node_seq ${nodeSeq}`).toEqual([400, ["node_seq"]]);
      }
      const g = await createGatewayFixture(store, { inverters: 1 });
      const refused: Array<[string, string, Record<string, unknown>, string]> = [
        [
          "POST",
          "/member",
          {
            ...{ id: `fk${Date.now()}`, name: "외래", password: "Secret-Pw-2026!", auth: 0, service: 0 },
            ...{ use_yn: 1, diagram: 0, cctv: 0, page: 0, node_seq: 99_999_999 },
          },
          "node_seq",
        ],
        ["POST", "/plant", { name: "외래 발전소", capa: 1000, locality: "경북", nodeSeq: 99_999_999 }, "nodeSeq"],
        ["POST", "/plant", { name: "외래 발전소", capa: 1000, locality: "경북", packageSeq: 99_999_999 }, "packageSeq"],
        ["POST", "/rtu", { name: "외래 RTU", kind: 1, nodeSeq: 99_999_999 }, "nodeSeq"],
        ["POST", "/rtu", { name: "외래 RTU", kind: 1, packageSeq: 99_999_999 }, "packageSeq"],
        ["POST", "/device", { name: "외래 인버터", kind: 1, plantUid: g.plantUid, rtuUid: "NO-SUCH-RTU", address: 9 }, "rtuUid"],
        ["POST", "/node", { name: "외래 그룹", parent_seq: 99_999_999 }, "parent_seq"],
        ["PUT", `/alarm/contacts/${g.plantUid}`, { owner: "no-such-member" }, "owner"],
      ];
      for (const [method, path, json, field] of refused) {
        const res = await api().call(method as "POST", path, { token, json });
        expect(res.status, `${method} ${path} ${JSON.stringify(json)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(Object.keys(res.body.fields ?? {}), `${method} ${path}`).toContain(field);
      }
      const stored = await store.db.selectFrom("member").select("node_seq").where("id", "=", target.id).executeTakeFirstOrThrow();
      expect(stored.node_seq).not.toBe(99_999_999);
    });
  });

  it("7: every page carries a CSP whose nonce is on each inline script; a missing upload is a quiet 404", async () => {
    for (const page of ["/login", "/", "/pvstatus"]) {
      const res = await fetch(`${server.baseUrl}${page}`, { headers: page === "/login" ? {} : { cookie: cookieHeader(admin) } });
      expect(res.status, page).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce, page).toBeTruthy();
      expect(csp).toContain("object-src 'none'");
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const attrs of scripts) expect(attrs, page).toContain(`nonce="${nonce}"`);
    }
    const before = server.output().length;
    const missing = await fetch(`${server.baseUrl}/uploads/logo/nothing-here.png`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/text\/plain/);
    const asset = await fetch(`${server.baseUrl}/build/_assets/not-there.css`);
    expect(asset.status).toBe(404);
    expect(asset.headers.get("content-type")).not.toMatch(/html/);
    await waitFor(() => server.output().slice(before).includes("GET /build/_assets/not-there.css 404"));
    expect(server.output().slice(before)).not.toMatch(/Error|\n\s+at /);
  });
});

describe("2: starting while the port is taken", () => {
  it("prints one line naming the port and exits", async () => {
    const port = await freePort();
    const blocker = net.createServer().listen(port, "127.0.0.1");
    await new Promise((r) => blocker.once("listening", r));
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-port-"));
    try {
      const child = spawn(process.execPath, [await serverBundle()], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          SIMULATE: "0",
          ADMIN_PASSWORD,
          DATABASE_URL: "",
          PORTAL_WORKERS: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (b) => (out += b));
      child.stderr.on("data", (b) => (out += b));
      const code = await new Promise<number | null>((r) => child.once("exit", r));
      expect(code).toBe(1);
      const lines = out.trim().split("\n");
      expect(lines).toEqual([`Port ${port} on 127.0.0.1 is already in use: stop the other server or set PORT to a free port.`]);
    } finally {
      blocker.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
