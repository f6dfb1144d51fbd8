/**
 * GET /api/health: whether this server is ready, its name, the singleton jobs it runs, whether it reaches its
 * database, its event-loop delay and the demo's history replay while one runs. 503 until the server has finished
 * starting (a load balancer and the test helper wait for 200), then 200 while the process serves requests,
 * whatever the database says: while the database is away every server is equally affected, and the portal answers
 * its own 503 page rather than the balancer's.
 */
import type { RequestHandler } from "express";
import { sql } from "kysely";
import type { HealthAnswer } from "../../domain/contract/health";
import type { Store } from "../store/db";
import type { EventLoopMonitor } from "./event-loop";
import type { Singletons } from "./singletons";

export interface HealthSources {
  ready(): boolean;
  eventLoop: EventLoopMonitor;
  replay(): HealthAnswer["replay"];
  alarmEngine(): HealthAnswer["alarmEngine"];
}

export function healthHandler(store: Store, singletons: Singletons, sources: HealthSources): RequestHandler {
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
    const ready = sources.ready();
    const body: HealthAnswer = {
      server: singletons.serverId,
      pid: process.pid,
      ready,
      singletons: singletons.held(),
      database,
      eventLoop: sources.eventLoop.delay(),
      alarmEngine: sources.alarmEngine(),
      replay: sources.replay(),
    };
    res.setHeader("Cache-Control", "no-store");
    res.status(ready ? 200 : 503).json(body);
  };
}
