/**
 * The /api service: createApi({ store, config }) → an Express router mounted at /api.
 * Public calls (login, token renewal, the contract itself) come first; everything after
 * `authenticate` needs a valid access token and answers 401 {isLogin:false} without one.
 */
import express, { Router } from "express";
import { authenticate } from "./auth/guards";
import { Sessions } from "./auth/sessions";
import { TokenSigner } from "./auth/tokens";
import type { ApiContext } from "./context";
import { errorHandler, notFound } from "./http";
import { openapiDocument } from "./openapi";
import { memberRoutes, publicMemberRoutes } from "./routes/member";
import type { Store } from "./store/db";

export interface ApiOptions {
  store: Store;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  assetBase?: string;
  log?: (msg: string, extra?: unknown) => void;
}

export function createApi(opts: ApiOptions): { router: Router; ctx: ApiContext } {
  const signer = new TokenSigner(opts.jwtSecret);
  const sessions = new Sessions(opts.store, signer, {
    accessTokenTtl: opts.accessTokenTtl,
    refreshTokenTtl: opts.refreshTokenTtl,
    assetBase: opts.assetBase ?? "/uploads",
  });
  const log = opts.log ?? ((msg, extra) => console.error(msg, extra ?? ""));
  const ctx: ApiContext = { store: opts.store, signer, sessions, log };

  const router = Router();
  router.use(express.json({ limit: "2mb" }));
  router.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  router.get("/openapi.json", (_req, res) => res.json(openapiDocument()));
  router.use(publicMemberRoutes(ctx));
  router.use(authenticate(signer, sessions));
  router.use(memberRoutes(ctx));
  router.use((_req, _res, next) => next(notFound("no_such_call")));
  router.use(errorHandler(log));
  return { router, ctx };
}
