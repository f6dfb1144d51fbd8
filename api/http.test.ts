import { describe, expect, it } from "vitest";
import { constraintRefusal } from "./http";

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
