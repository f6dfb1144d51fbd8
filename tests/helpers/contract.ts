/**
 * Every answer the API suite receives is held to the OpenAPI description (issue 27 point 2): the operation's
 * status is listed (exactly, as `4XX`, or `default`), the content type is one the answer lists, and a JSON body
 * matches the schema given for it (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). A request the description has
 * no operation for may only be answered by the API's shared middleware (400 `invalid_input`, 401/403 of the token
 * check, 404 `no_such_call`), with the one error shape. A mismatch throws, so the test that received the answer fails.
 *
 * Installed for the API project only (vitest.config.ts setupFiles → tests/helpers/contract-setup.ts) by wrapping
 * `fetch`, which tests/helpers/http.ts apiClient and the tests' own calls use: the server is not touched, so
 * production never pays for it.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { openapiDocument } from "../../api/openapi";

// The description is walked by key, untyped (its shape is checked by the Redocly stage).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
interface Resolved {
  value: Json;
  pointer: string;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);
const escape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

let state:
  | {
      doc: Json;
      ajv: Ajv2020;
      routes: Array<{ template: string; re: RegExp; literal: number }>;
      validators: Map<string, ValidateFunction>;
    }
  | undefined;

function load() {
  if (state) return state;
  const doc = openapiDocument() as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: "openapi.json" });
  // Most literal template first, so /rtu/user wins over /rtu/{uid}.
  const routes = Object.keys(doc.paths ?? {})
    .map((template) => ({
      template,
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
      literal: template.split("/").filter((s) => s && !s.startsWith("{")).length,
    }))
    .sort((a, b) => b.literal - a.literal || b.template.length - a.template.length);
  return (state = { doc, ajv, routes, validators: new Map() });
}

/** Follows a local `$ref` chain, keeping the JSON pointer of where the value really is. */
function resolve(doc: Json, value: Json, pointer: string): Resolved {
  let v = value;
  let p = pointer;
  for (let i = 0; i < 10 && typeof v?.$ref === "string" && v.$ref.startsWith("#/"); i++) {
    p = `openapi.json${v.$ref}`;
    v = v.$ref
      .slice(2)
      .split("/")
      .reduce((o: Json, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
  }
  return { value: v, pointer: p };
}

function mediaMatches(documented: string, actual: string): boolean {
  if (documented === "*/*" || documented === actual) return true;
  const [type, sub] = documented.split("/");
  return sub === "*" && actual.startsWith(`${type}/`);
}

export interface Answer {
  method: string;
  /** The URL's path, `/api/...`. */
  path: string;
  status: number;
  contentType: string;
  /** The body as text, or undefined when it was not read (binary, no body). */
  text?: string;
}

/** The problems of one answer (empty when the description allows it). */
export function contractProblems(a: Answer): string[] {
  const { doc, ajv, routes, validators } = load();
  const method = a.method.toLowerCase();
  const apiPath = a.path.replace(/^\/api(?=\/|$)/, "") || "/";
  const actualType = a.contentType.split(";")[0]!.trim().toLowerCase();
  const where = `${a.method.toUpperCase()} ${a.path} → ${a.status}`;
  let decoded: string;
  try {
    decoded = decodeURI(apiPath);
  } catch {
    decoded = apiPath;
  }
  const route = routes.find((r) => r.re.test(apiPath) && doc.paths[r.template][method]) ?? null;
  const op = route ? (doc.paths[route.template][method] as Json) : null;
  if (!route || !op) {
    // Not an operation of the description: only the shared middleware may answer (api/index.ts) — 400 of the URL
    // check, 401/403 of authenticate, 404 `no_such_call` — with the one error shape.
    if ([400, 401, 403, 404].includes(a.status) && actualType === "application/json") {
      return bodyProblems(a, ajv, validators, "openapi.json#/components/schemas/Error", where);
    }
    return [`${where}: no operation ${a.method.toUpperCase()} ${decoded} in the description`];
  }
  const base = `openapi.json#/paths/${escape(route.template)}/${method}/responses`;
  const responses = (op.responses ?? {}) as Json;
  const key = [String(a.status), `${String(a.status)[0]}XX`, "default"].find((k) => k in responses);
  if (!key) {
    const snippet = (a.text ?? "").slice(0, 160);
    return [
      `${where}: status not listed for ${method} ${route.template} (lists ${Object.keys(responses).join(", ")}) ${snippet}`,
    ];
  }
  const response = resolve(doc, responses[key], `${base}/${escape(key)}`);
  const content = response.value.content as Json | undefined;
  if (!content || a.status === 204 || a.status === 304 || method === "head") return [];
  const media = Object.keys(content).find((t) => mediaMatches(t.toLowerCase(), actualType));
  if (!media) return [`${where}: content type ${actualType || "(none)"} is not one of ${Object.keys(content).join(", ")}`];
  if (!content[media]?.schema || !/[/+]json$/.test(actualType)) return [];
  return bodyProblems(a, ajv, validators, `${response.pointer}/content/${escape(media)}/schema`, where);
}

function bodyProblems(a: Answer, ajv: Ajv2020, validators: Map<string, ValidateFunction>, pointer: string, where: string) {
  if (a.text === undefined) return [];
  let body: unknown;
  try {
    body = a.text === "" ? undefined : JSON.parse(a.text);
  } catch {
    return [`${where}: the body is not JSON: ${a.text.slice(0, 120)}`];
  }
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
    validators.set(pointer, validate);
  }
  if (validate(body)) return [];
  return [
    `${where}: the body does not match ${pointer.replace("openapi.json#", "#")}: ${ajv.errorsText(validate.errors, { separator: "; " }).slice(0, 500)}`,
  ];
}

export class ContractViolation extends Error {}

/** `fetch`, with every answer of a test server's /api held to the description (see above). */
export function checkingFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const request = input instanceof Request ? input : null;
    const url = new URL(request?.url ?? String(input instanceof URL ? input.href : input));
    const local = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
    // The description itself and the docs page's scripts (api/docs.ts) are not calls of the API.
    if (
      !local ||
      !url.pathname.startsWith("/api/") ||
      url.pathname === "/api/openapi.json" ||
      url.pathname.startsWith("/api/docs/")
    )
      return res;
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    if (!METHODS.has(method.toLowerCase())) return res;
    const contentType = res.headers.get("content-type") ?? "";
    let text: string | undefined;
    if (/json/i.test(contentType) && res.body) {
      try {
        text = await res.clone().text();
      } catch {
        text = undefined; // the test aborted the answer; its status and type are still checked
      }
    }
    const problems = contractProblems({ method, path: url.pathname, status: res.status, contentType, text });
    if (problems.length) {
      const violation = new ContractViolation(`the answer breaks the OpenAPI description:\n  ${problems.join("\n  ")}`);
      // Said here too: a caller that retries on any error (a readiness probe) would swallow it.
      console.error(violation.message);
      throw violation;
    }
    return res;
  };
}
