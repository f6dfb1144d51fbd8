import { describe, expect, it } from "vitest";
import type { NextFunction, Request, Response } from "express";
import { constraintRefusal, errorHandler, isDatabaseUnavailable } from "./http";

const err = (props: Record<string, unknown>, message = "") => Object.assign(new Error(message), props);

describe("store constraint errors are the client's answer, never a 500 (issue 25)", () => {
  it("maps PostgreSQL's SQLSTATEs, naming the column from the detail", () => {
    const fk = constraintRefusal(err({ code: "23503", detail: 'Key (node_seq)=(99999999) is not present in table "node".' }));
    expect([fk?.status, fk?.message, fk?.extra]).toEqual([400, "invalid_reference", { fields: { node_seq: "not_found" } }]);
    expect(constraintRefusal(err({ code: "23505", detail: "Key (uid)=(P1) already exists." }))?.status).toBe(409);
    expect(constraintRefusal(err({ code: "23502", column: "name" }))?.extra).toEqual({ fields: { name: "required" } });
    expect(constraintRefusal(err({ code: "22003" }))?.status).toBe(400);
    expect(constraintRefusal(err({ code: "08006" }))).toBeNull();
    expect(constraintRefusal(err({ code: "40001" }))).toBeNull();
  });

  it("maps SQLite's constraint codes, naming the column from the message", () => {
    const fk = constraintRefusal(err({ code: "SQLITE_CONSTRAINT_FOREIGNKEY" }, "FOREIGN KEY constraint failed"));
    expect([fk?.status, fk?.message]).toEqual([400, "invalid_reference"]);
    const dup = constraintRefusal(err({ code: "SQLITE_CONSTRAINT_UNIQUE" }, "UNIQUE constraint failed: member.id"));
    expect([dup?.status, dup?.extra]).toEqual([409, { fields: { id: "taken" } }]);
    expect(
      constraintRefusal(err({ code: "SQLITE_CONSTRAINT_NOTNULL" }, "NOT NULL constraint failed: plant.name"))?.extra,
    ).toEqual({
      fields: { name: "required" },
    });
    expect(constraintRefusal(new Error("boom"))).toBeNull();
  });
});

describe("a database that cannot be reached now is a 503, not a 500 (issue 30: the primary fails over)", () => {
  it("recognises connection loss, shutdown, a node that is read-only now, and refused connections", () => {
    // The primary's postmaster killed: its backends end their sessions so.
    expect(isDatabaseUnavailable(err({ code: "57P01" }, "terminating connection due to unexpected postmaster exit"))).toBe(true);
    expect(isDatabaseUnavailable(err({ code: "57P03" }, "the database system is starting up"))).toBe(true);
    expect(isDatabaseUnavailable(err({ code: "08006" }))).toBe(true);
    // The balancer had no leader yet and closed the connection; pg's own wording.
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(err({ code: "ECONNREFUSED" }))).toBe(true);
    // A write on a node that is a replica now.
    expect(isDatabaseUnavailable(err({ code: "25006" }, "cannot execute INSERT in a read-only transaction"))).toBe(true);
    // Not the database's absence: the request's fault or ours.
    expect(isDatabaseUnavailable(err({ code: "25001" }))).toBe(false);
    expect(isDatabaseUnavailable(err({ code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(err({ code: "42P01" }, 'relation "x" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
  });

  it("answers 503 database_unavailable with Retry-After", () => {
    const answer: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const res = {
      setHeader: (k: string, v: string) => (answer.headers[k] = v),
      status(code: number) {
        answer.status = code;
        return this;
      },
      json: (body: unknown) => (answer.body = body),
    } as unknown as Response;
    const logged: string[] = [];
    errorHandler((msg) => logged.push(msg))(
      err({ code: "25006" }, "cannot execute INSERT in a read-only transaction"),
      {} as Request,
      res,
      (() => undefined) as NextFunction,
    );
    expect(answer).toEqual({ status: 503, body: { message: "database_unavailable" }, headers: { "Retry-After": "5" } });
    expect(logged).toEqual(["api: database unavailable"]);
  });
});
