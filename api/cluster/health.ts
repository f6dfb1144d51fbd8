/**
 * GET /api/health: this server's name, the singleton jobs it runs and whether it reaches its database.
 * Answers 200 while the process serves requests (a load balancer's health check), whatever the
 * database says: while the database is away every server is equally affected, and the portal answers
 * its own 503 page rather than the balancer's.
 */
import type { RequestHandler } from "express";
import { sql } from "kysely";
import type { Store } from "../store/db";
import type { Singletons } from "./singletons";

export interface HealthAnswer {
  server: string;
  pid: number;
  singletons: string[];
  database: "ok" | "unavailable";
}

export function healthHandler(store: Store, singletons: Singletons): RequestHandler {
  return async (_req, res) => {
    let database: HealthAnswer["database"] = "ok";
    try {
      await Promise.race([
        sql`select 1`.execute(store.db),
        new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2_000).unref()),
      ]);
    } catch {
      database = "unavailable";
    }
    const body: HealthAnswer = { server: singletons.serverId, pid: process.pid, singletons: singletons.held(), database };
    res.setHeader("Cache-Control", "no-store");
    res.json(body);
  };
}
