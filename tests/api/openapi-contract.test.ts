/**
 * The contract document cannot drift from the API (issue 12): a real server with the simulated demo fleet answers
 * every documented GET call that needs only what a fleet has (path and query parameters filled from the document's
 * examples, defaults and enums, or from the fleet itself), signed in as the admin, and each JSON answer is validated
 * against its documented schema with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). A call the document describes
 * but the server does not answer as described fails the test; the calls it could not make are listed by reason and
 * their share is bounded, so the document cannot grow calls nobody checks.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/http";
import { ADMIN_PASSWORD, startServer, type TestServer } from "../helpers/server";

interface Param {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema?: { default?: unknown; enum?: unknown[]; example?: unknown; type?: unknown };
}
interface Operation {
  parameters?: Param[];
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation & { parameters?: Param[] }>> };

/** How many answers had a JSON schema to be checked against when this test was written. */
const MIN_SCHEMA_CHECKED = 27;

const TODAY = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);

describe("the OpenAPI document describes the real answers", () => {
  let server: TestServer;
  let auth: Record<string, string>;
  let doc: Doc;
  const fleet: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer({ store: "sqlite", env: { SIMULATE: "1", HISTORY_DAYS: "2" }, timeoutMs: 180_000 });
    const client = apiClient(server.baseUrl);
    const tokens = await client.session("admin", ADMIN_PASSWORD);
    auth = { authorization: `Bearer ${tokens.accessToken}`, "x-forwarded-for": client.ip };
    doc = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as Doc;
    // What a fleet has, to fill path and query parameters with real ids.
    const get = async (p: string) =>
      (await fetch(`${server.baseUrl}/api${p}`, { headers: auth })).json() as Promise<Record<string, unknown>>;
    const devices = (await get("/device/list_user/admin")) as {
      deviceList?: Array<{ uid: string; kind: number; rtu_uid?: string; plant_uid?: string }>;
    };
    const list = devices.deviceList ?? [];
    const inverter = list.find((d) => d.kind === 1);
    fleet.device = inverter?.uid ?? "";
    fleet.rtu = inverter?.rtu_uid ?? "";
    fleet.plant = inverter?.plant_uid ?? "";
    if (!fleet.device || !fleet.rtu || !fleet.plant)
      throw new Error(`the demo fleet has no inverter on an RTU of a plant: ${JSON.stringify(devices).slice(0, 300)}`);
  }, 240_000);
  afterAll(async () => server?.stop());

  it("validates every documented GET call it can make, and makes most of them", async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" } as object);
    const byName: Record<string, string> = {
      plantUid: fleet.plant!,
      plant: fleet.plant!,
      plantName: fleet.plant!,
      uid: fleet.plant!,
      deviceUid: fleet.device!,
      device: fleet.device!,
      rtuUid: fleet.rtu!,
      rtu: fleet.rtu!,
      id: "admin",
      start: `${TODAY} 00:00:00`,
      end: `${TODAY} 23:59:59`,
      kind: "gen",
    };
    const pathValue: Record<string, string> = {
      "/member/{id}": "admin",
      "/plant/{id}": fleet.plant!,
      "/plant/{id}/history": fleet.plant!,
      "/device/{uid}": fleet.device!,
      "/rtu/{uid}": fleet.rtu!,
      "/monitor/{kind}": "gen",
      "/mop/detail/{id}": fleet.plant!,
      "/curtailment/{plantUid}": fleet.plant!,
    };
    const checked: string[] = [];
    const statusOnly: string[] = [];
    const skipped: string[] = [];
    const failures: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const op = item.get;
      if (!op) continue;
      // The one GET that changes something: it would end the session the other calls use.
      if (path === "/member/logout") {
        skipped.push(`GET ${path}: ends the session`);
        continue;
      }
      const params = [...((item as { parameters?: Param[] }).parameters ?? []), ...(op.parameters ?? [])];
      let url = path;
      let missing: string | null = null;
      // Every {name} of the path (declared as a parameter or not).
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        const v = pathValue[path] ?? (params.find((x) => x.in === "path" && x.name === name)?.example as string | undefined);
        if (v === undefined) missing = `path {${name}}`;
        else url = url.replace(`{${name}}`, encodeURIComponent(String(v)));
      }
      const query = new URLSearchParams();
      for (const p of params.filter((x) => x.in === "query" && x.required)) {
        const v = p.example ?? p.schema?.example ?? p.schema?.default ?? p.schema?.enum?.[0] ?? byName[p.name];
        if (v === undefined || v === "") missing = `query ${p.name}`;
        else query.set(p.name, String(v));
      }
      if (missing) {
        skipped.push(`GET ${path}: ${missing}`);
        continue;
      }
      const res = await fetch(`${server.baseUrl}/api${url}${query.size ? `?${query}` : ""}`, { headers: auth });
      const type = res.headers.get("content-type") ?? "";
      const body = type.includes("json") ? await res.json() : await res.arrayBuffer();
      const documented =
        op.responses?.[String(res.status)] ?? op.responses?.[`${String(res.status)[0]}XX`] ?? op.responses?.default;
      if (!documented) {
        failures.push(`GET ${path} → ${res.status}, a status the document does not list (${JSON.stringify(body).slice(0, 160)})`);
        continue;
      }
      const json = Object.entries(documented.content ?? {}).find(([t]) => t.includes("json"));
      if (!json?.[1].schema || !type.includes("json")) {
        statusOnly.push(`GET ${path} → ${res.status}`);
        continue;
      }
      const pointer = `openapi.json#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/get/responses/${documented === op.responses?.default ? "default" : res.status}/content/${json[0].replace(/~/g, "~0").replace(/\//g, "~1")}/schema`;
      const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
      if (!validate(body))
        failures.push(`GET ${path} → ${res.status}: ${ajv.errorsText(validate.errors, { separator: "; " }).slice(0, 400)}`);
      else checked.push(`GET ${path} → ${res.status}`);
    }
    console.log(
      `openapi contract: ${checked.length} answers checked against their schema, ${statusOnly.length} against their documented status only ` +
        `(the document describes the body in words):\n  ${statusOnly.join("\n  ")}\n${skipped.length} calls not made:\n  ${skipped.join("\n  ")}`,
    );
    expect(failures, failures.join("\n")).toEqual([]);
    const made = checked.length + statusOnly.length;
    expect(made).toBeGreaterThanOrEqual(Math.ceil(0.8 * (made + skipped.length)));
    // A ratchet: answers with a schema only grow in number (raise it when a part of the document gains schemas).
    expect(checked.length).toBeGreaterThanOrEqual(MIN_SCHEMA_CHECKED);
  }, 180_000);
});
