/**
 * The process layout of server.ts: a primary that owns the store and the data plane, and portal
 * processes (PORTAL_WORKERS) that render pages and pass /api on. A portal process that dies is
 * replaced while the others keep serving; the primary's end takes its portal processes along.
 */
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { waitFor } from "../helpers/wait";

/** The portal processes of a primary: its children running the server bundle (not, say, an esbuild helper). */
function children(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid), "-f", "build/server\\.mjs"], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("server processes", () => {
  const running: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()));
  });

  it("serves pages and /api from portal processes and replaces one that dies", async () => {
    const server = await startServer({ env: { PORTAL_WORKERS: "2" } });
    running.push(server);
    const first = children(server.pid);
    expect(first).toHaveLength(2);
    expect((await fetch(`${server.baseUrl}/login`)).status).toBe(200);
    // /api reached through a portal process answers as the API itself does.
    const res = await fetch(`${server.baseUrl}/api/member/isAuth`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ isLogin: false });

    process.kill(first[0]!, "SIGKILL");
    const next = await waitFor(
      () => {
        const now = children(server.pid);
        return now.length === 2 && !now.includes(first[0]!) ? now : undefined;
      },
      {
        ms: 20_000,
        every: 200,
        failure: () =>
          `no replacement portal process in time: children ${children(server.pid).join(", ")} (killed ${first[0]})\n${server.output().slice(-1500)}`,
      },
    );
    expect(next).toContain(first[1]!);
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.baseUrl}/login`)).status).toBe(200);
    expect(server.output()).toMatch(/portal process \d+ ended \(SIGKILL\); starting another/);
  });

  it("takes its portal processes along when the primary is killed", async () => {
    const server = await startServer({ env: { PORTAL_WORKERS: "2" } });
    running.push(server);
    const portals = children(server.pid);
    expect(portals).toHaveLength(2);
    await server.kill("SIGKILL");
    await waitFor(() => !portals.some(alive), { ms: 20_000, every: 200, failure: () => "the portal processes did not end" });
  });

  it("runs in one process with PORTAL_WORKERS=0", async () => {
    const server = await startServer({ env: { PORTAL_WORKERS: "0" } });
    running.push(server);
    expect(children(server.pid)).toEqual([]);
    expect((await fetch(`${server.baseUrl}/login`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/api/member/isAuth`)).status).toBe(401);
  });
});
