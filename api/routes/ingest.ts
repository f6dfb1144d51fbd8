/**
 * POST /api/ingest — a gateway (RTU) pushes a batch of readings, authenticated with its own
 * credential (`Authorization: Basic base64(rtuUid:secret)`). The answer comes after commit and
 * says per reading what was kept: accepted, duplicate (already stored) or rejected with a reason.
 */
import express, { Router } from "express";
import { z } from "zod";
import { authenticateGateway, parseGatewayAuthorization } from "../auth/gateway-credential";
import { ApiError, handle, parse } from "../http";
import { verifyJsonDepth } from "../strict-input";
import type { Store } from "../store/db";
import type { IngestService } from "../telemetry/ingest";

export const MAX_BATCH = 5_000;

export const IngestBody = z.object({
  batchId: z.string().max(100).optional(),
  readings: z.array(z.unknown()).min(1, "empty_batch").max(MAX_BATCH, `at_most_${MAX_BATCH}`),
});

export function ingestRoutes(store: Store, ingest: IngestService): Router {
  const r = Router();
  r.post(
    "/ingest",
    express.json({ limit: "8mb", verify: verifyJsonDepth }),
    handle(async (req) => {
      const cred = parseGatewayAuthorization(req.get("authorization"));
      if (!cred || !(await authenticateGateway(store, cred.rtuUid, cred.secret))) {
        throw new ApiError(401, "gateway_unauthorized", {}, { "WWW-Authenticate": 'Basic realm="gateway"' });
      }
      const body = parse(IngestBody, req.body);
      const result = await ingest.ingest(cred.rtuUid, body.readings as never[]);
      return { batchId: body.batchId ?? null, ...result };
    }),
  );
  return r;
}
