/**
 * Cameras against a real server on both stores, with a real camera: a test pattern (ffmpeg testsrc2, H.264 in
 * MPEG-TS over HTTP on loopback, api/cctv/test-pattern.ts) registered as a plant's camera. GET /cctv/url gives
 * a signed playlist URL; the server's ffmpeg pulls the camera and the playlist's segments appear and grow;
 * viewers share one pull; nobody watching stops it. Registration keeps the credentials out of every answer;
 * a camera of a foreign plant answers 404; a camera that does not answer is "unreachable". The signed URL answers
 * only with the viewer's own session, while it stands and its member sees the plant (issue 25).
 * The test pattern listens on loopback, which the outbound-address rule refuses by default: this server lists
 * 127.0.0.0/8 in CCTV_ALLOWED_NETS, as an operator would list a site VPN (robustness.test.ts checks the default).
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deriveCctvKey, signStreamToken } from "../../api/cctv/sign";
import { startTestPattern, type TestPattern } from "../../api/cctv/test-pattern";
import type { CameraListResponse, CctvUrlResponse } from "../../domain/contract/cctv";
import { createMember, openTestStore, readSecrets, type MemberFixture, type Store } from "../helpers/fixtures";
import { apiClient, STORES } from "../helpers/http";
import { freePort, startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

const FFMPEG = process.env.FFMPEG_PATH ?? "/usr/bin/ffmpeg";
const IDLE_MS = 3_000;

describe.each(STORES)("cameras on %s", (storeKind) => {
  let server: TestServer;
  let store: Store;
  let camera: TestPattern;
  const tok: Record<string, string> = {};
  const sid: Record<string, string> = {};
  const who: Record<string, MemberFixture> = {};
  const nodes: Record<"A" | "B", number> = { A: 0, B: 0 };
  let plantA = "";
  let plantB = "";
  const c = () => apiClient(server.baseUrl);
  const call = <T = any>(method: string, path: string, as: string, json?: unknown) =>
    c().call<T>(method, path, { token: tok[as], json });
  /** A stream file as the viewer's browser asks for it: with the portal's sessionId cookie (by default the viewer's). */
  const raw = (path: string, as: string | null = "viewer") =>
    fetch(`${server.baseUrl}${path}`, { headers: as ? { cookie: `sessionId=${sid[as]}` } : {} });

  beforeAll(async () => {
    expect(existsSync(FFMPEG), `ffmpeg at ${FFMPEG} (Debian's ffmpeg; .ci/run installs it)`).toBe(true);
    camera = await startTestPattern({ ffmpegPath: FFMPEG, width: 1920, height: 1080, fps: 5 });
    server = await startServer({
      store: storeKind,
      port: await freePort(3400, 3499),
      env: { CCTV_IDLE_MS: String(IDLE_MS), CCTV_ALLOWED_NETS: "127.0.0.0/8" },
      timeoutMs: 180_000,
    });
    store = await openTestStore(server.databaseUrl);
    const tag = Math.random().toString(36).slice(2, 8).toUpperCase();
    const now = Date.now();
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const node = async (name: string) =>
      Number(
        (
          await store.db
            .insertInto("node")
            .values({ parent_seq: root.seq, name, sort_order: 0, created_at: now })
            .returning("seq")
            .executeTakeFirstOrThrow()
        ).seq,
      );
    const nodeA = await node(`카메라A ${tag}`);
    const nodeB = await node(`카메라B ${tag}`);
    plantA = `PC${tag}A`;
    plantB = `PC${tag}B`;
    for (const [uid, name, seq] of [
      [plantA, "카메라 가", nodeA],
      [plantB, "카메라 나", nodeB],
    ] as const) {
      await store.db
        .insertInto("plant")
        .values({
          uid,
          name,
          alias: null,
          capa: 10_000,
          locality: "전라남도 해남군",
          address: null,
          lat: 34.5,
          lng: 126.5,
          node_seq: seq,
          package_seq: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    who.admin = await createMember(store, { node_seq: nodeA, auth: 2 });
    who.viewer = await createMember(store, { node_seq: nodeA, auth: 1 });
    who.other = await createMember(store, { node_seq: nodeB, auth: 2 });
    who.noCctv = await createMember(store, { node_seq: nodeA, auth: 2, cctv: 0 });
    who.watcher = await createMember(store, { node_seq: nodeA, auth: 1 });
    nodes.A = nodeA;
    nodes.B = nodeB;
    for (const k of Object.keys(who)) {
      const session = await c().session(who[k]!.id, who[k]!.password);
      tok[k] = session.accessToken;
      sid[k] = session.sessionId;
    }
  }, 300_000);

  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await camera?.close();
  });

  let camUid = "";

  it("registers a camera; credentials written in the URL are kept apart and never answered", async () => {
    const withCreds = camera.url.replace("http://", "http://cam-user:s3cret%2Fpw@");
    const res = await call("POST", "/cctv/camera", "admin", { plantUid: plantA, name: "정문 카메라", url: withCreds });
    expect(res.status).toBe(200);
    camUid = res.body.uid;
    expect(camUid).toMatch(/^CAM[0-9A-F]{12}$/);
    const list = await call<CameraListResponse>("GET", "/cctv/list", "viewer");
    expect(list.status).toBe(200);
    expect(list.body.cameraList).toEqual([
      expect.objectContaining({
        uid: camUid,
        plant_uid: plantA,
        plant_name: "카메라 가",
        name: "정문 카메라",
        url: camera.url,
        has_credentials: true,
        state: "idle",
        editable: false,
      }),
    ]);
    expect(list.text).not.toContain("s3cret");
    expect(list.text).not.toContain("cam-user");
    expect((await call<CameraListResponse>("GET", "/cctv/list", "admin")).body.cameraList[0]!.editable).toBe(true);
    const stored = await store.db.selectFrom("camera").selectAll().where("uid", "=", camUid).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ url: camera.url, username: "cam-user" });
    expect(stored.password_sealed).not.toContain("s3cret");
  });

  it("refuses bad input with field errors, a foreign plant with 404 and a viewer with 403", async () => {
    const bad = await call("POST", "/cctv/camera", "admin", { plantUid: plantA, name: "", url: "ftp://10.0.0.1/x" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ name: "required", url: "unsupported_scheme" });
    expect((await call("POST", "/cctv/camera", "admin", { plantUid: plantA, name: "x", url: "not a url" })).body.fields.url).toBe(
      "invalid_url",
    );
    expect((await call("POST", "/cctv/camera", "admin", { plantUid: plantA, name: "x", url: 5 })).status).toBe(400);
    expect((await call("POST", "/cctv/camera", "admin", { plantUid: plantB, name: "x", url: camera.url })).status).toBe(404);
    expect((await call("POST", "/cctv/camera", "viewer", { plantUid: plantA, name: "x", url: camera.url })).status).toBe(403);
    expect((await call("PUT", `/cctv/camera/${camUid}`, "other", { name: "남의 것" })).status).toBe(404);
    expect((await call("DELETE", `/cctv/camera/${camUid}`, "other")).status).toBe(404);
  });

  it("GET /cctv/url is member-scoped: foreign or unknown camera 404, no uid 400, no camera service 403", async () => {
    expect((await call("GET", `/cctv/url?uid=${camUid}`, "other")).body).toEqual({ message: "camera_not_found" });
    expect((await call("GET", `/cctv/url?uid=${camUid}`, "other")).status).toBe(404);
    expect((await call("GET", "/cctv/url?uid=CAMNOPE", "viewer")).status).toBe(404);
    const none = await call("GET", "/cctv/url", "viewer");
    expect(none.status).toBe(400);
    expect(none.body.fields.uid).toBe("required");
    expect((await call("GET", `/cctv/url?uid=${camUid}`, "noCctv")).status).toBe(403);
    expect((await call<CameraListResponse>("GET", "/cctv/list", "other")).body.cameraList).toEqual([]);
  });

  it("source → HLS playlist → segments appear and keep coming; one pull for all viewers; the resolution is the camera's", async () => {
    const a = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${camUid}`, "viewer");
    expect(a.status).toBe(200);
    expect(a.body.url).toMatch(/^\/api\/cctv\/hls\/[^/]+\/index\.m3u8$/);
    expect(a.body.expires_at).toBeGreaterThan(Date.now() + 60_000);
    expect(a.text).not.toContain("s3cret");
    const playlist = await raw(a.body.url);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toContain("mpegurl");
    const text = await playlist.text();
    expect(text).toContain("#EXTM3U");
    const first = text.split("\n").filter((l) => /^seg_\d+\.ts$/.test(l));
    expect(first.length).toBeGreaterThan(0);
    const segUrl = a.body.url.replace("index.m3u8", first.at(-1)!);
    const seg = await raw(segUrl);
    expect(seg.status).toBe(200);
    expect(seg.headers.get("content-type")).toContain("video/mp2t");
    const bytes = new Uint8Array(await seg.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(1_000);
    expect(bytes[0]).toBe(0x47); // MPEG-TS sync byte
    // New segments keep coming while someone watches.
    const later = await waitFor(
      async () => {
        const t = await (await raw(a.body.url)).text();
        const segs = t.split("\n").filter((l) => /^seg_\d+\.ts$/.test(l));
        return segs.at(-1) !== first.at(-1) ? segs : null;
      },
      { ms: 15_000, every: 500, failure: () => `no new segment\n${server.output().slice(-1500)}` },
    );
    expect(later.length).toBeGreaterThan(0);
    // A second viewer with a URL of their own shares the same pull of the camera.
    const b = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${camUid}`, "admin");
    expect(b.body.url).not.toBe(a.body.url);
    expect((await raw(b.body.url, "admin")).status).toBe(200);
    expect(camera.clients()).toBe(1);
    expect(b.body).toMatchObject({ state: "live", width: 1920, height: 1080 });
    // A still picture for pages without script.
    const snap = await raw(b.body.snapshot, "admin");
    expect(snap.status).toBe(200);
    expect(snap.headers.get("content-type")).toBe("image/jpeg");
    const jpeg = new Uint8Array(await snap.arrayBuffer());
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
    // The resolution is kept for the list (MOTIE: at least 2 MP).
    const stored = await store.db
      .selectFrom("camera")
      .select(["width", "height"])
      .where("uid", "=", camUid)
      .executeTakeFirstOrThrow();
    expect([Number(stored.width), Number(stored.height)]).toEqual([1920, 1080]);
  }, 60_000);

  it("stops pulling the camera when nobody watches", async () => {
    await waitFor(() => camera.clients() === 0, {
      ms: IDLE_MS + 12_000,
      every: 250,
      failure: () => `still pulling\n${server.output().slice(-1500)}`,
    });
    const list = await call<CameraListResponse>("GET", "/cctv/list", "viewer");
    expect(list.body.cameraList[0]).toMatchObject({ state: "idle", width: 1920, height: 1080 });
  }, 30_000);

  it("refuses forged, foreign-camera and expired tokens, and files that are not the stream's", async () => {
    const a = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${camUid}`, "viewer");
    const token = a.body.url.split("/")[4]!;
    const forged = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA");
    expect((await raw(`/api/cctv/hls/${forged}/index.m3u8`)).status).toBe(404);
    const key = deriveCctvKey(readSecrets(server.dataDir).jwt);
    const expired = signStreamToken(key, camUid, { sid: sid.viewer!, member: who.viewer!.id }, Date.now() - 1_000);
    const res = await raw(`/api/cctv/hls/${expired}/index.m3u8`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: "url_expired" });
    expect((await raw(`/api/cctv/hls/${token}/..%2F..%2Fportal.db`)).status).toBe(404);
    expect((await raw(`/api/cctv/hls/${token}/secrets.json`)).status).toBe(404);
  });

  it("the signed URL answers only the viewer's own session, while it stands and still sees the plant (issue 25)", async () => {
    const u = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${camUid}`, "watcher");
    expect(u.status).toBe(200);
    const refusal = async (path: string, as: string | null, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.baseUrl}${path}`, {
        headers: { ...(as ? { cookie: `sessionId=${sid[as]}` } : {}), ...headers },
      });
      return { status: res.status, message: res.status === 200 ? "ok" : ((await res.json()) as { message: string }).message };
    };
    // The holder of the URL alone (no session), another group's member, another member of the same group: refused.
    for (const file of [u.body.url, u.body.url.replace("index.m3u8", "seg_1.ts"), u.body.snapshot]) {
      expect(await refusal(file, null), file).toEqual({ status: 403, message: "session_required" });
      expect(await refusal(file, "other"), file).toEqual({ status: 403, message: "session_required" });
      expect(await refusal(file, null, { authorization: `Bearer ${tok.other}` }), file).toEqual({
        status: 403,
        message: "session_required",
      });
      expect(await refusal(file, "viewer"), file).toEqual({ status: 403, message: "session_required" });
    }
    // The viewer's own session: by its cookie (the portal) or its bearer token.
    expect((await refusal(u.body.url, "watcher")).status).toBe(200);
    expect((await refusal(u.body.url, null, { authorization: `Bearer ${tok.watcher}` })).status).toBe(200);
    // Moved to a group that cannot see the plant: refused at once, every file; back: answered again.
    await store.db.updateTable("member").set({ node_seq: nodes.B }).where("id", "=", who.watcher!.id).execute();
    expect(await refusal(u.body.url, "watcher")).toEqual({ status: 403, message: "camera_not_visible" });
    expect(await refusal(u.body.snapshot, "watcher")).toEqual({ status: 403, message: "camera_not_visible" });
    await store.db.updateTable("member").set({ node_seq: nodes.A }).where("id", "=", who.watcher!.id).execute();
    expect((await refusal(u.body.url, "watcher")).status).toBe(200);
    // Logged out: the session no longer stands.
    expect((await call("POST", "/member/logout", "watcher")).status).toBe(200);
    expect(await refusal(u.body.url, "watcher")).toEqual({ status: 403, message: "session_ended" });
    expect(await refusal(u.body.url.replace("index.m3u8", "seg_1.ts"), "watcher")).toEqual({
      status: 403,
      message: "session_ended",
    });
  }, 60_000);

  it("a camera that does not answer is unreachable, with a 502 on the playlist", async () => {
    const port = await freePort(3400, 3499);
    const res = await call("POST", "/cctv/camera", "admin", {
      plantUid: plantA,
      name: "꺼진 카메라",
      url: `rtsp://127.0.0.1:${port}/stream`,
    });
    expect(res.status).toBe(200);
    const u = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${res.body.uid}`, "viewer");
    const playlist = await raw(u.body.url);
    expect(playlist.status).toBe(502);
    expect((await playlist.json()).message).toBe("camera_unreachable");
    const again = await call<CctvUrlResponse>("GET", `/cctv/url?uid=${res.body.uid}`, "viewer");
    expect(again.body.state).toBe("unreachable");
    expect(again.body.last_error).toBeTruthy();
    expect((await call("DELETE", `/cctv/camera/${res.body.uid}`, "admin")).status).toBe(204);
    expect((await call("GET", `/cctv/url?uid=${res.body.uid}`, "viewer")).status).toBe(404);
  }, 40_000);
});
