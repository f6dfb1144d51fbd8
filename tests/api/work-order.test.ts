/**
 * Work orders (issue 29 §3) against a real server on both stores: create from alarms of a plant, the list's filters
 * and paging, the state moves (refused ones answer 409 and change nothing), notes with author and time, bad input
 * (400 with fields, nothing written), visibility (a member who cannot see the plant gets 404 and an empty list),
 * a read-only member refused every write, the CSV export's content, and the assignee's one mail in the outbox.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, openTestStore, type Store } from "../helpers/fixtures";
import { STORES, apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";
import { createGatewayFixture } from "../helpers/telemetry";

describe.each(STORES)("work orders on %s", (kind) => {
  let server: TestServer;
  let store: Store;
  let admin: string;

  beforeAll(async () => {
    server = await startServer({ store: kind, env: { PORTAL_WORKERS: "0", PUBLIC_URL: "https://portal.example.kr" } });
    store = await openTestStore(server.databaseUrl);
    admin = (await apiClient(server.baseUrl).session("admin", ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
  });

  const call = (method: string, path: string, json?: unknown, token = admin) =>
    apiClient(server.baseUrl).call(method, path, { token, json });

  async function insertAlarm(plant: string, device: string | null = null) {
    const row = await store.db
      .insertInto("alarm")
      .values({
        plant_uid: plant,
        rtu_uid: null,
        device_uid: device,
        code: 1000006,
        level: 3,
        fault_code: null,
        message: "fixture",
        raised_at: Date.now(),
        released_at: null,
      } as never)
      .returning("seq")
      .executeTakeFirstOrThrow();
    return Number(row.seq);
  }

  async function member(over: Parameters<typeof createMember>[1] = {}) {
    const m = await createMember(store, over);
    return { ...m, token: (await apiClient(server.baseUrl).session(m.id, m.password)).accessToken };
  }

  /** A member of a group of their own, below the root: they see none of the root's plants. */
  async function outsider() {
    const root = await store.db
      .selectFrom("node")
      .select("seq")
      .where("parent_seq", "is", null)
      .orderBy("seq")
      .executeTakeFirstOrThrow();
    const node = await store.db
      .insertInto("node")
      .values({ parent_seq: root.seq, name: `n-${randomBytes(3).toString("hex")}`, sort_order: 0, created_at: Date.now() })
      .returning("seq")
      .executeTakeFirstOrThrow();
    return member({ node_seq: Number(node.seq), email: `out-${randomBytes(3).toString("hex")}@example.kr` });
  }

  const counts = async () => ({
    orders: Number(
      (
        await store.db
          .selectFrom("work_order")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst()
      )?.n,
    ),
    history: Number(
      (
        await store.db
          .selectFrom("work_order_history")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst()
      )?.n,
    ),
    outbox: Number(
      (
        await store.db
          .selectFrom("outbox")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst()
      )?.n,
    ),
  });

  it("creates a work order from alarms of a plant, mails the assignee once, and moves it open → in progress → done with notes", async () => {
    const g = await createGatewayFixture(store);
    const a1 = await insertAlarm(g.plantUid, g.inverters[0]!);
    const a2 = await insertAlarm(g.plantUid, g.inverters[1]!);
    const email = `tech-${randomBytes(3).toString("hex")}@example.kr`;
    const tech = await member({ email });
    const created = await call("POST", "/workorder", {
      plant: g.plantUid,
      title: "인버터 1 점검",
      description: "과전류 트립 확인",
      priority: "high",
      assignee: tech.id,
      dueDate: "2026-12-01",
      devices: [g.inverters[0], g.inverters[1]],
      alarms: [a1, a2],
    });
    expect(created.status, created.text).toBe(201);
    const wo = created.body;
    expect(wo).toMatchObject({
      plant_uid: g.plantUid,
      title: "인버터 1 점검",
      priority: "high",
      state: "open",
      assignee: tech.id,
      dueDate: "2026-12-01",
      created_by: "admin",
      nextStates: ["in_progress", "cancelled"],
    });
    expect(wo.devices.map((d: { uid: string }) => d.uid).sort()).toEqual([g.inverters[0], g.inverters[1]].sort());
    expect(wo.alarms.map((a: { seq: number }) => a.seq)).toEqual([a1, a2]);
    expect(wo.history.map((h: { kind: string }) => h.kind)).toEqual(["created", "assigned"]);

    // The assignee's mail: one, to their address, with the link to the work order; written with the work order.
    const mails = await store.db.selectFrom("outbox").selectAll().where("dedupe_key", "like", `work-order:${wo.id}:%`).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ channel: "mail", recipient: email, plant_uid: g.plantUid, member_id: tech.id });
    expect(mails[0]!.subject).toContain("인버터 1 점검");
    expect(mails[0]!.body_text).toContain(`https://portal.example.kr/workorder/${wo.id}`);

    // Editing other fields, or naming the same assignee again, mails nobody.
    const edit = await call("PATCH", `/workorder/${wo.id}`, { priority: "urgent", assignee: tech.id, title: "인버터 1·2 점검" });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({ priority: "urgent", title: "인버터 1·2 점검" });
    expect(
      await store.db.selectFrom("outbox").select("seq").where("dedupe_key", "like", `work-order:${wo.id}:%`).execute(),
    ).toHaveLength(1);

    // Refused moves answer 409 and change nothing.
    const skip = await call("POST", `/workorder/${wo.id}/state`, { state: "done" });
    expect(skip.status).toBe(409);
    expect(skip.body.message).toBe("transition_not_allowed");
    const back = await call("POST", `/workorder/${wo.id}/state`, { state: "open" });
    expect(back.status).toBe(409);

    const start = await call("POST", `/workorder/${wo.id}/state`, { state: "in_progress", note: "현장 출동" }, tech.token);
    expect(start.status, start.text).toBe(200);
    expect(start.body).toMatchObject({ state: "in_progress", nextStates: ["done", "cancelled"] });
    const note = await call("POST", `/workorder/${wo.id}/note`, { note: "퓨즈 교체 필요" }, tech.token);
    expect(note.status, note.text).toBe(200);
    const done = await call("POST", `/workorder/${wo.id}/state`, { state: "done", note: "교체 완료" }, tech.token);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ state: "done", nextStates: [] });
    const h = done.body.history as Array<{
      kind: string;
      author: string;
      note: string | null;
      fromState: string | null;
      toState: string | null;
      at: number;
    }>;
    expect(h.map((x) => [x.kind, x.fromState, x.toState, x.note, x.author])).toEqual([
      ["created", null, "open", null, "admin"],
      ["assigned", null, null, null, "admin"],
      ["state", "open", "in_progress", "현장 출동", tech.id],
      ["note", null, null, "퓨즈 교체 필요", tech.id],
      ["state", "in_progress", "done", "교체 완료", tech.id],
    ]);
    expect(h.every((x) => x.at > 0)).toBe(true);

    // Final: no more moves, no more edits; notes still.
    expect((await call("POST", `/workorder/${wo.id}/state`, { state: "cancelled" })).status).toBe(409);
    expect((await call("PATCH", `/workorder/${wo.id}`, { title: "x" })).status).toBe(409);
    expect((await call("POST", `/workorder/${wo.id}/note`, { note: "사후 확인" })).status).toBe(200);
  });

  it("cancels from open and from in progress, never from done", async () => {
    const g = await createGatewayFixture(store);
    const mk = async () => (await call("POST", "/workorder", { plant: g.plantUid, title: "취소 시험" })).body.id as number;
    const a = await mk();
    expect((await call("POST", `/workorder/${a}/state`, { state: "cancelled" })).body.state).toBe("cancelled");
    const b = await mk();
    await call("POST", `/workorder/${b}/state`, { state: "in_progress" });
    expect((await call("POST", `/workorder/${b}/state`, { state: "cancelled" })).body.state).toBe("cancelled");
    const bad = await call("POST", `/workorder/${b}/state`, { state: "closed" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.state).toBe("unknown_state");
  });

  it("refuses bad input with field messages and writes nothing", async () => {
    const g = await createGatewayFixture(store);
    const other = await createGatewayFixture(store);
    const foreignAlarm = await insertAlarm(other.plantUid);
    const blind = await outsider();
    const before = await counts();
    const bad = await call("POST", "/workorder", { plant: g.plantUid, title: " ", priority: "asap", dueDate: "2026-02-30" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ title: "required", priority: "unknown_priority", dueDate: "not_a_date" });
    const refs = await call("POST", "/workorder", {
      plant: g.plantUid,
      title: "참조 오류",
      devices: [other.inverters[0]],
      alarms: [foreignAlarm],
      assignee: blind.id,
    });
    expect(refs.status).toBe(400);
    expect(refs.body.fields).toEqual({ devices: "not_of_plant", alarms: "not_of_plant", assignee: "member_cannot_see_plant" });
    const nobody = await call("POST", "/workorder", { plant: g.plantUid, title: "x", assignee: "no-such-member" });
    expect(nobody.body.fields).toEqual({ assignee: "no_such_member" });
    const noPlant = await call("POST", "/workorder", { plant: "PTNOPE", title: "x" });
    expect(noPlant.status).toBe(400);
    expect(noPlant.body.fields).toEqual({ plant: "not_found" });
    const extra = await call("POST", "/workorder", { plant: g.plantUid, title: "x", state: "done" });
    expect(extra.status).toBe(400);
    expect(await counts()).toEqual(before);

    const wo = (await call("POST", "/workorder", { plant: g.plantUid, title: "수정 시험" })).body;
    const mid = await counts();
    const empty = await call("PATCH", `/workorder/${wo.id}`, {});
    expect(empty.status).toBe(400);
    const badEdit = await call("PATCH", `/workorder/${wo.id}`, { title: "바뀜", devices: [other.board] });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body.fields).toEqual({ devices: "not_of_plant" });
    expect((await call("GET", `/workorder/${wo.id}`)).body.title).toBe("수정 시험");
    expect((await call("POST", `/workorder/${wo.id}/note`, { note: "  " })).body.fields).toEqual({ note: "required" });
    expect(await counts()).toEqual(mid);
    expect((await call("GET", "/workorder/0")).status).toBe(400);
    expect((await call("GET", "/workorder/99999999")).status).toBe(404);
  });

  it("follows the plant's visibility: 404 and absent from the list and export for a member who cannot see it", async () => {
    const g = await createGatewayFixture(store);
    const wo = (await call("POST", "/workorder", { plant: g.plantUid, title: `보이지 않음 ${g.plantUid}` })).body;
    const blind = await outsider();
    expect((await call("GET", `/workorder/${wo.id}`, undefined, blind.token)).status).toBe(404);
    const list = await call("GET", `/workorder?q=${encodeURIComponent(g.plantUid)}`, undefined, blind.token);
    expect(list.status).toBe(200);
    expect(list.body.workOrders).toEqual([]);
    const all = await call("GET", "/workorder?size=100", undefined, blind.token);
    expect(all.body.workOrders.some((w: { id: number }) => w.id === wo.id)).toBe(false);
    expect((await call("GET", `/workorder?plant=${g.plantUid}`, undefined, blind.token)).status).toBe(404);
    for (const [method, path, body] of [
      ["PATCH", `/workorder/${wo.id}`, { title: "x" }],
      ["POST", `/workorder/${wo.id}/state`, { state: "in_progress" }],
      ["POST", `/workorder/${wo.id}/note`, { note: "x" }],
    ] as const) {
      expect((await call(method, path, body, blind.token)).status).toBe(404);
    }
    const create = await call("POST", "/workorder", { plant: g.plantUid, title: "x" }, blind.token);
    expect(create.status).toBe(400);
    expect(create.body.fields).toEqual({ plant: "not_found" });
    const csv = await apiClient(server.baseUrl).call("GET", "/workorder/export", { token: blind.token });
    expect(csv.text).not.toContain(g.plantUid);
  });

  it("lets a read-only member read but refuses every write", async () => {
    const g = await createGatewayFixture(store);
    const wo = (await call("POST", "/workorder", { plant: g.plantUid, title: "읽기 전용" })).body;
    const reader = await member({ read_only: 1 });
    expect((await call("GET", `/workorder/${wo.id}`, undefined, reader.token)).status).toBe(200);
    expect((await call("GET", `/workorder?plant=${g.plantUid}`, undefined, reader.token)).body.total).toBe(1);
    const before = await counts();
    for (const [method, path, body] of [
      ["POST", "/workorder", { plant: g.plantUid, title: "x" }],
      ["PATCH", `/workorder/${wo.id}`, { title: "x" }],
      ["POST", `/workorder/${wo.id}/state`, { state: "in_progress" }],
      ["POST", `/workorder/${wo.id}/note`, { note: "x" }],
    ] as const) {
      const res = await call(method, path, body, reader.token);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe("read_only_member");
    }
    expect(await counts()).toEqual(before);
  });

  it("filters the list by state, plant, assignee, priority, due day and text, pages it, and exports it as CSV", async () => {
    const g = await createGatewayFixture(store);
    const tech = await member();
    const tag = randomBytes(3).toString("hex");
    const mk = async (over: Record<string, unknown>) =>
      (await call("POST", "/workorder", { plant: g.plantUid, title: `필터 ${tag}`, ...over })).body.id as number;
    const a = await mk({ priority: "urgent", dueDate: "2026-01-10", assignee: tech.id, title: `=SUM(1) 필터 ${tag}` });
    const b = await mk({ priority: "low", dueDate: "2026-03-01", description: `모듈 세척 ${tag}` });
    const c = await mk({ priority: "low" });
    await call("POST", `/workorder/${b}/state`, { state: "in_progress" });
    const ids = async (query: string) =>
      ((await call("GET", `/workorder?plant=${g.plantUid}&${query}`)).body.workOrders as Array<{ id: number }>)
        .map((w) => w.id)
        .sort();
    expect(await ids("")).toEqual([a, b, c].sort());
    expect(await ids("state=in_progress")).toEqual([b]);
    expect(await ids("state=open")).toEqual([a, c].sort());
    expect(await ids(`assignee=${tech.id}`)).toEqual([a]);
    expect(await ids("priority=low")).toEqual([b, c].sort());
    expect(await ids("dueBefore=2026-02-01")).toEqual([a]);
    expect(await ids(`q=${encodeURIComponent(`모듈 세척 ${tag}`)}`)).toEqual([b]);
    expect(await ids("q=SUM(1)")).toEqual([a]);
    const page = await call("GET", `/workorder?plant=${g.plantUid}&size=20&page=1`);
    expect(page.body).toMatchObject({ total: 3, page: 1, size: 20 });
    // Open ones first, the earliest due day first.
    expect(page.body.workOrders[0].id).toBe(a);
    const bad = await call("GET", "/workorder?state=closed&dueBefore=tomorrow&size=7");
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({ state: "unknown_state", dueBefore: "not_a_date", size: "unknown_page_size" });

    const csv = await apiClient(server.baseUrl).call("GET", `/workorder/export?plant=${g.plantUid}&priority=low`, {
      token: admin,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="workorders-/);
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toBe("번호,발전소 코드,발전소,제목,우선순위,상태,담당자,기한,작성자,작성 시각,변경 시각,내용");
    expect(lines).toHaveLength(3);
    expect(lines.some((l) => l.startsWith(`${b},${g.plantUid},`) && l.includes(",낮음,진행 중,,2026-03-01,admin,"))).toBe(true);
    const formula = await apiClient(server.baseUrl).call("GET", `/workorder/export?plant=${g.plantUid}&priority=urgent&lang=en`, {
      token: admin,
    });
    const [head, row] = formula.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r\n/);
    expect(head).toBe("No.,Plant code,Plant,Title,Priority,State,Assignee,Due,Created by,Created at,Updated at,Description");
    // A cell a spreadsheet would read as a formula is escaped.
    expect(row).toContain(`'=SUM(1) 필터 ${tag}`);
    expect(row).toContain(",Urgent,Open,");
  });

  it("mails a new assignee on reassignment, once per assignment", async () => {
    const g = await createGatewayFixture(store);
    const first = await member({ email: `a-${randomBytes(3).toString("hex")}@example.kr` });
    const second = await member({ email: `b-${randomBytes(3).toString("hex")}@example.kr` });
    const wo = (await call("POST", "/workorder", { plant: g.plantUid, title: "재지정" })).body;
    const mails = () =>
      store.db
        .selectFrom("outbox")
        .select(["recipient"])
        .where("dedupe_key", "like", `work-order:${wo.id}:%`)
        .orderBy("seq")
        .execute();
    expect(await mails()).toEqual([]);
    await call("PATCH", `/workorder/${wo.id}`, { assignee: first.id });
    await call("PATCH", `/workorder/${wo.id}`, { assignee: second.id });
    await call("PATCH", `/workorder/${wo.id}`, { assignee: null });
    const got = await mails();
    expect(got.map((m) => m.recipient)).toEqual([
      (await store.db.selectFrom("member").select("email").where("id", "=", first.id).executeTakeFirstOrThrow()).email,
      (await store.db.selectFrom("member").select("email").where("id", "=", second.id).executeTakeFirstOrThrow()).email,
    ]);
    expect((await call("GET", `/workorder/${wo.id}`)).body.assignee).toBeNull();
  });

  it("attaches photos checked by their bytes and size, serves them to those who see the plant only", async () => {
    const g = await createGatewayFixture(store);
    const wo = (await call("POST", "/workorder", { plant: g.plantUid, title: "사진" })).body;
    const upload = (bytes: Uint8Array<ArrayBuffer>, name: string, type: string, token = admin) => {
      const form = new FormData();
      form.append("photo", new Blob([bytes], { type }), name);
      return fetch(`${server.baseUrl}/api/workorder/${wo.id}/photo`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    };
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const ok = await upload(png, "현장.png", "image/png");
    expect(ok.status).toBe(201);
    expect(ok.body.photos).toHaveLength(1);
    expect(ok.body.photos[0]).toMatchObject({ contentType: "image/png", size: png.length, author: "admin" });
    const svg = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>");
    const bad = await upload(svg, "x.png", "image/png");
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ photo: "bad_type" });
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(png);
    const tooBig = await upload(big, "big.png", "image/png");
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.fields).toEqual({ photo: "too_large" });
    const reader = await member({ read_only: 1 });
    expect((await upload(png, "r.png", "image/png", reader.token)).status).toBe(403);
    expect((await call("GET", `/workorder/${wo.id}`)).body.photos).toHaveLength(1);

    const seq = ok.body.photos[0].seq;
    const got = await fetch(`${server.baseUrl}/api/workorder/${wo.id}/photo/${seq}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(png);
    const blind = await outsider();
    const hidden = await fetch(`${server.baseUrl}/api/workorder/${wo.id}/photo/${seq}`, {
      headers: { authorization: `Bearer ${blind.token}` },
    });
    expect(hidden.status).toBe(404);
    expect((await upload(png, "b.png", "image/png", blind.token)).status).toBe(404);
    expect((await call("GET", `/workorder/${wo.id}/photo/${seq + 100000}`)).status).toBe(404);
  });
});
