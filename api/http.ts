/** One typed error shape for the API, turned into JSON by one error handler. */
import { createHash } from "node:crypto";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ZodType, ZodTypeAny, ZodTypeDef } from "zod";
import type { ApiErrorBody } from "../domain/contract/errors";
import { inputProblems, isJsonBody } from "./strict-input";

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    public extra: Partial<ApiErrorBody> = {},
    public headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new ApiError(400, message, fields ? { fields } : {});
export const forbidden = (message = "forbidden") => new ApiError(403, message);
export const notFound = (message = "not_found") => new ApiError(404, message);
export const unauthorized = () => new ApiError(401, "unauthorized", { isLogin: false });

/**
 * An answer already serialised (kept by a cache), sent as it is instead of through JSON.stringify.
 * It is kept as bytes, so a cached answer is not encoded again on every send, with an ETag computed once,
 * by which a client can tell an unchanged answer without reading it.
 */
export class JsonText {
  readonly body: Buffer;
  readonly etag: string;
  constructor(text: string) {
    this.body = Buffer.from(text);
    this.etag = `"${createHash("sha1").update(this.body).digest("base64url")}"`;
  }
}

/** Wraps an async handler so a rejection reaches the error handler (Express 4 does not). */
export function handle(fn: (req: Request, res: Response) => Promise<unknown> | unknown): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res))
      .then((body) => {
        if (res.headersSent) return;
        if (body === undefined) res.status(204).end();
        else if (body instanceof JsonText) {
          res.type("json").setHeader("ETag", body.etag);
          res.send(body.body);
        } else res.json(body);
      })
      .catch(next);
  };
}

/** Validates input with a schema; failures become 400 with a message per field. */
// The input type is left open so schemas with z.preprocess/z.coerce (input unknown) infer their output.
export function parse<T>(schema: ZodType<T, ZodTypeDef, any>, input: unknown): T {
  // Strict JSON numbers and no NUL characters (api/strict-input.ts), before the schema's own rules.
  // Every field's problem in one answer: the schema's, with a wrong JSON type named over what the schema said.
  const problems = inputProblems(schema as unknown as ZodTypeAny, input, isJsonBody(input));
  const result = schema.safeParse(input);
  if (result.success && !Object.keys(problems).length) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  throw badRequest("invalid_input", { ...fields, ...problems });
}

export function errorHandler(log: (msg: string, err: unknown) => void) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      const body: ApiErrorBody = { message: err.message, ...err.extra };
      res.status(err.status).json(body);
      return;
    }
    const refusal = constraintRefusal(err);
    if (refusal) {
      // A route let through an id or value the store refused: answered as the client's fault, logged for us.
      log("api: store constraint refused the request", (err as Error).message);
      res.status(refusal.status).json({ message: refusal.message, ...refusal.extra });
      return;
    }
    // Body-parser errors carry a status (400 malformed JSON, 413 too large).
    const status = typeof (err as { status?: unknown })?.status === "number" ? (err as { status: number }).status : 500;
    if (status >= 400 && status < 500) {
      res.status(status).json({ message: (err as Error).message || "bad_request" });
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // The database is away (restarting, failing over): the pool reconnects by itself; say so plainly.
      log("api: database unavailable", (err as Error).message);
      res.setHeader("Retry-After", "5");
      res.status(503).json({ message: "database_unavailable" });
      return;
    }
    log("api error", err);
    res.status(500).json({ message: "internal_error" });
  };
}

const PG_COLUMN = /^Key \(([a-z_]+)(?:,[^)]*)?\)=/;
const SQLITE_COLUMN = /constraint failed: [a-z_]+\.([a-z_]+)/;

/**
 * A store constraint error as the client's answer, or null: a foreign key to nothing is 400 `invalid_reference`,
 * a duplicate 409 `conflict`, a missing or impossible value 400 `invalid_input` — with the column as the field where
 * the store names it (PostgreSQL's detail, SQLite's message). Both dialects; never a 500. Routes check their ids
 * first (naming the field); this is the root that no unchecked path can get past.
 */
export function constraintRefusal(err: unknown): ApiError | null {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== "string") return null;
  const message = err instanceof Error ? err.message : "";
  const detail = String((err as { detail?: unknown }).detail ?? "");
  const column = PG_COLUMN.exec(detail)?.[1] ?? (err as { column?: string }).column ?? SQLITE_COLUMN.exec(message)?.[1] ?? "_";
  const answer = (status: number, msg: string, reason: string) => new ApiError(status, msg, { fields: { [column]: reason } });
  if (code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY") return answer(400, "invalid_reference", "not_found");
  if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY")
    return answer(409, "conflict", "taken");
  if (code === "23502" || code === "SQLITE_CONSTRAINT_NOTNULL") return answer(400, "invalid_input", "required");
  if (/^(23|22)/.test(code) || code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG")
    return answer(400, "invalid_input", "invalid");
  return null;
}

/**
 * PostgreSQL error classes 08 (connection exception) and 57P (operator intervention: shutdown, restart), and 25006
 * (read-only transaction): a write that reached a node which is a replica now — during a Patroni switchover or
 * failover, until the balancer's check moves the connection to the new leader (deploy/haproxy-postgres.cfg cuts it
 * then) — is the tier changing hands, not a fault of the request: 503 and try again, never 500.
 */
const PG_UNAVAILABLE = /^(08|57P0[1-3]|25006$)/;
const NET_UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"]);

/** Whether an error means the database cannot be reached now (rather than a fault of the request or code). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && (PG_UNAVAILABLE.test(code) || NET_UNAVAILABLE.has(code))) return true;
  const message = err instanceof Error ? err.message : "";
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i.test(
    message,
  );
}
