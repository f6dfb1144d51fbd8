/**
 * Input the schemas alone would let through. The domain's field schemas coerce (query strings and forms
 * are text), so on their own they take `true` or `"10"` where a number is meant; a JSON body has real
 * types, and a number field there must be a JSON number (or null/absent/blank): `"10"` answers 400
 * naming the field. And no text, in a body or a query,
 * may carry a NUL character (PostgreSQL cannot store it; nothing legitimate sends it).
 * `parse` of api/http.ts applies both to every input it validates; the URL itself — its path's segments (a
 * plant's uid in /plant/:id) and every query value, read by `parse` or straight off the request — is held to the
 * same NUL rule by `urlProblems`, before any route reads it.
 */
import { z, type ZodTypeAny } from "zod";

/** Bodies parsed from JSON (marked by `markJsonBody`): their number fields are checked strictly. */
const jsonBodies = new WeakSet<object>();

export function markJsonBody(body: unknown): void {
  if (body && typeof body === "object") jsonBodies.add(body);
}

export function isJsonBody(input: unknown): boolean {
  return !!input && typeof input === "object" && jsonBodies.has(input);
}

type Kind = "number" | "boolean" | "object" | "array" | "other";

interface Shape {
  kind: Kind;
  schema: ZodTypeAny;
}

/** The schema under wrappers (optional, nullable, default, preprocess/refine, pipe, catch, branded). */
function unwrap(schema: ZodTypeAny): Shape {
  let s: ZodTypeAny = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._def as { typeName?: string; innerType?: ZodTypeAny; schema?: ZodTypeAny; in?: ZodTypeAny; type?: ZodTypeAny };
    switch (def.typeName) {
      case "ZodOptional":
      case "ZodNullable":
      case "ZodDefault":
      case "ZodCatch":
      case "ZodReadonly":
        s = def.innerType!;
        continue;
      case "ZodEffects":
        s = def.schema!;
        continue;
      case "ZodPipeline":
        s = def.in!;
        continue;
      case "ZodBranded":
        s = def.type!;
        continue;
      case "ZodNumber":
        return { kind: "number", schema: s };
      case "ZodBoolean":
        return { kind: "boolean", schema: s };
      case "ZodObject":
        return { kind: "object", schema: s };
      case "ZodArray":
        return { kind: "array", schema: s };
      default:
        return { kind: "other", schema: s };
    }
  }
  return { kind: "other", schema: s };
}

/** Field problems (path → reason) of `input` against `schema`; `strict` for JSON bodies. */
export function inputProblems(schema: ZodTypeAny, input: unknown, strict: boolean): Record<string, string> {
  const problems: Record<string, string> = {};
  const walk = (s: ZodTypeAny | null, value: unknown, path: string[]) => {
    const key = path.join(".") || "_";
    if (typeof value === "string") {
      if (value.includes("\u0000")) problems[key] ??= "control_character";
    }
    const shape = s ? unwrap(s) : null;
    if (strict && shape && value !== null && value !== undefined && value !== "") {
      // A JSON body has real types: numeric text ("10") is refused like `true` (the portal converts its
      // forms' text once, in its form schemas, before it calls the API).
      if (shape.kind === "number" && typeof value !== "number") problems[key] ??= "not_a_number";
      if (shape.kind === "boolean" && typeof value !== "boolean") problems[key] ??= "not_a_boolean";
    }
    if (Array.isArray(value)) {
      const element = shape?.kind === "array" ? ((shape.schema._def as { type: ZodTypeAny }).type ?? null) : null;
      value.forEach((v, i) => walk(element, v, [...path, String(i)]));
    } else if (value && typeof value === "object") {
      const fields =
        shape?.kind === "object" ? ((shape.schema as unknown as { shape: Record<string, ZodTypeAny> }).shape ?? {}) : {};
      for (const [k, v] of Object.entries(value)) walk(fields[k] ?? null, v, [...path, k]);
    }
  };
  walk(schema, input, []);
  return problems;
}

/** NUL characters in a request's URL: the path (`_path`) and each query value by its name, as inputProblems names them. */
export function urlProblems(path: string, query: unknown): Record<string, string> {
  const problems = inputProblems(z.unknown(), query, false);
  if (pathHasNul(path)) problems._path = "control_character";
  return problems;
}

/** Whether a request path carries a NUL once decoded, as Express will decode its route parameters (%00). */
export function pathHasNul(path: string): boolean {
  if (!path.includes("%")) return false;
  try {
    return decodeURIComponent(path).includes("\u0000");
  } catch {
    return false; // malformed escapes: Express answers them 400 when it decodes the parameter
  }
}

/**
 * How deep JSON may nest (objects and arrays). No call of the contract needs more than a handful of levels; a body
 * nested thousands deep would overflow the stack of any walker of it (issue 25: 5,000 levels answered 500).
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests deeper than `max`, found by one pass over the raw text before anything parses or walks
 * it (brackets inside strings do not count). Malformed text is left to the parser.
 */
export function jsonTooDeep(text: string | Buffer, max = MAX_JSON_DEPTH): boolean {
  const s = typeof text === "string" ? text : text.toString("utf8");
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A body parser's error for JSON nested too deep: a 400 before the body is parsed or walked. */
export class JsonTooDeep extends Error {
  status = 400;
  expose = true;
  constructor() {
    super("json_too_deep");
  }
}

/** express.json's `verify`: refuses a body nested deeper than MAX_JSON_DEPTH (every JSON body of the API goes through it). */
export function verifyJsonDepth(_req: unknown, _res: unknown, buf: Buffer): void {
  if (jsonTooDeep(buf)) throw new JsonTooDeep();
}
