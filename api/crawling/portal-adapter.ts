/**
 * Source adapter for another instance of this portal: logs in with an account there (POST
 * /api/member/login) and reads GET /api/plant, /api/rtu/user, /api/device/list_user and the plant
 * history export GET /api/plant/{uid}/history. Any account that can see the plants will do; nothing
 * is written on the other side.
 */
import type { CrawlAdapter, HistoryPage, SourceOffer } from "./adapter";
import { SourceError, validateOffer } from "./adapter";
import type { SourceBudget } from "./budget";

const TIMEOUT_MS = 15_000;
const MAX_BYTES = 20 * 1024 * 1024;

export class PortalAdapter implements CrawlAdapter {
  readonly site = "portal";
  private token: string | null = null;
  private readonly base: URL;
  private readonly key: string;

  constructor(
    baseUrl: string,
    private id: string,
    private password: string,
    private budget: SourceBudget,
  ) {
    this.base = new URL(baseUrl);
    this.key = `portal:${this.base.origin}:${id}`;
  }

  private async fetchJson(path: string, init: { method?: string; body?: unknown; query?: Record<string, string | number> } = {}) {
    return this.budget.run(this.key, async () => {
      const url = new URL(`/api${path}`, this.base.origin);
      for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { accept: "application/json" };
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      let res: Response;
      try {
        res = await fetch(url, {
          method: init.method ?? "GET",
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          redirect: "error",
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        throw new SourceError("unreachable", (error as Error).message);
      }
      const length = Number(res.headers.get("content-length") ?? 0);
      if (length > MAX_BYTES) throw new SourceError("too_large");
      const text = await res.text();
      if (text.length > MAX_BYTES) throw new SourceError("too_large");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        throw new SourceError("bad_answer", "not JSON");
      }
      return { status: res.status, body: body as Record<string, unknown> | undefined };
    });
  }

  private async login(): Promise<void> {
    this.token = null;
    const res = await this.fetchJson("/member/login", { method: "POST", body: { id: this.id, password: this.password } });
    const token = res.body?.accessToken;
    if (res.status !== 200 || typeof token !== "string") throw new SourceError("login_failed", String(res.status));
    if (res.body?.pwd_yn === 1) throw new SourceError("login_failed", "password change pending on the source");
    this.token = token;
  }

  private async get(path: string, query?: Record<string, string | number>): Promise<Record<string, unknown>> {
    if (!this.token) await this.login();
    let res = await this.fetchJson(path, { query });
    if (res.status === 401) {
      await this.login();
      res = await this.fetchJson(path, { query });
    }
    if (res.status === 403) throw new SourceError("forbidden", path);
    if (res.status === 404) throw new SourceError("not_found", path);
    if (res.status !== 200 || !res.body || typeof res.body !== "object")
      throw new SourceError("bad_answer", `${path} ${res.status}`);
    return res.body;
  }

  private static list(body: Record<string, unknown>, key: string): unknown[] {
    const v = body[key];
    if (!Array.isArray(v)) throw new SourceError("bad_answer", `missing ${key}`);
    return v;
  }

  async list(): Promise<SourceOffer> {
    const plants = PortalAdapter.list(await this.get("/plant"), "plantList");
    const rtus = PortalAdapter.list(await this.get("/rtu/user"), "rtuList");
    const devices = PortalAdapter.list(await this.get("/device/list_user"), "deviceList");
    return validateOffer({ plants, rtus, devices });
  }

  async plant(plantUid: string): Promise<SourceOffer> {
    const plant = (await this.get(`/plant/${encodeURIComponent(plantUid)}`)).plant;
    const rtus = PortalAdapter.list(await this.get("/rtu/user", { plant: plantUid }), "rtuList");
    const devices = PortalAdapter.list(await this.get("/device/list_user", { plant: plantUid }), "deviceList");
    return validateOffer({
      plants: plant ? [plant] : [],
      rtus: rtus.filter((r) => (r as { plant_uid?: unknown }).plant_uid === plantUid),
      devices: devices.filter((d) => (d as { plant_uid?: unknown }).plant_uid === plantUid),
    });
  }

  async history(plantUid: string, start: number, end: number): Promise<HistoryPage> {
    const body = await this.get(`/plant/${encodeURIComponent(plantUid)}/history`, { start, end });
    const devices = Array.isArray(body.devices) ? (body.devices as HistoryPage["devices"]) : [];
    const tables = body.tables && typeof body.tables === "object" ? (body.tables as HistoryPage["tables"]) : {};
    return { devices, tables };
  }
}
