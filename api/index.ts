/**
 * The /api service: createApi({ store, config }) → an Express router mounted at /api.
 * Public calls (login, token renewal, the contract itself) come first; everything after
 * `authenticate` needs a valid access token and answers 401 {isLogin:false} without one.
 */
import { NameOrder } from "../domain/name-order";
import { compareNames } from "../domain/ordering";
import express, { Router } from "express";
import { DeviceTokens } from "./auth/device-token";
import { authenticate } from "./auth/guards";
import { Sessions } from "./auth/sessions";
import { TokenSigner } from "./auth/tokens";
import type { ApiContext } from "./context";
import { badRequest, errorHandler, notFound } from "./http";
import { markJsonBody, urlProblems, verifyJsonDepth } from "./strict-input";
import type { Clock } from "./clock";
import { docsRoutes } from "./docs";
import { openapiDocument } from "./openapi";
import { commandRoutes } from "./routes/command";
import { auditRoutes } from "./routes/audit";
import { ingestRoutes } from "./routes/ingest";
import { AlarmEngine } from "./telemetry/alarm-engine";
import { CommandService } from "./telemetry/commands";
import { mailTransport } from "./notify/mail";
import { OutboxWorker } from "./notify/outbox";
import { alertRecipientProblem } from "./notify/alerts";
import { webhookTransport } from "./notify/webhook";
import { IngestService } from "./telemetry/ingest";
import { memberRoutes, publicMemberRoutes } from "./routes/member";
import { groupAdminRoutes } from "./routes/groups-admin";
import { memberAdminRoutes } from "./routes/members-admin";
import { apiTokenRoutes } from "./routes/api-tokens";
import { noticeRoutes } from "./routes/notices";
import { crawlingRoutes } from "./routes/crawling";
import { deviceRoutes } from "./routes/device";
import type { FleetOptions } from "./routes/fleet-common";
import { plantRoutes } from "./routes/plant";
import { pvstatusRoutes } from "./routes/pvstatus";
import { rtuRoutes } from "./routes/rtu";
import { settingsRoutes } from "./routes/settings";
import { totalRoutes } from "./routes/total";
import { alarmRoutes } from "./routes/alarm";
import { workOrderRoutes } from "./routes/work-order";
import { detailRoutes } from "./routes/detail";
import { monitorRoutes } from "./routes/monitor";
import { mopRoutes } from "./routes/mop";
import { watchRoutes } from "./routes/watch";
import { customRoutes } from "./routes/custom";
import { diagramRoutes } from "./routes/diagram";
import { helpRoutes } from "./routes/help";
import { statisticsRoutes } from "./routes/statistics";
import type { ClusterNotices } from "./cache/answer-cache";
import { diagnoseRoutes } from "./routes/diagnose";
import { curtailmentRoutes } from "./routes/curtailment";
import { measurementRoutes } from "./routes/measurement";
import { cctvRoutes } from "./routes/cctv";
import { CameraStreams, pinCameraSource } from "./cctv/streams";
import { OutboundAddressRule, type Cidr } from "./net/outbound-address";
import { deriveCctvKey } from "./cctv/sign";
import { recordResolution } from "./store/cameras";
import { createHash } from "node:crypto";
import { deriveSourceKey } from "./crawling/secret-box";
import { geocoderFromKey } from "./geo/geocoder";
import type { Store } from "./store/db";

export interface ApiOptions {
  store: Store;
  clock: Clock;
  jwtSecret: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  assetBase?: string;
  /** Maps service key (MAPS_KEY): plant addresses without coordinates are geocoded when set. */
  mapsKey?: string;
  /** Alerts and report mails: SMTP_URL (mail is held in the outbox without it), MAIL_FROM, first retry delay. */
  notify?: {
    smtpUrl?: string;
    mailFrom?: string;
    retryBaseMs?: number;
    /** The portal's public origin: alarm mails carry a link to the alarm there (PUBLIC_URL's first). */
    portalUrl?: string;
  };
  /** How long a gateway has to answer a command (COMMAND_TIMEOUT_MS). */
  commandTimeoutMs?: number;
  log?: (msg: string, extra?: unknown) => void;
  /**
   * Whether this server runs the alarm engine now (several servers: one at a time, api/cluster).
   * Ingest asks for an evaluation only there. Default: always.
   */
  alarmsOwned?: () => boolean;
  /** How long a batch's alarm pass waits for the batches after it (default 250 ms). */
  alarmDebounceMs?: number;
  /** The cluster's notices (api/cluster/signals.ts, PostgreSQL only): the answer caches (statistics reports, alarm list) share their changes. */
  clusterNotices?: ClusterNotices;
  /** Cameras: the ffmpeg binary (FFMPEG_PATH, default Debian's /usr/bin/ffmpeg) and how long a stream nobody watches lives. */
  cctv?: {
    ffmpegPath?: string;
    idleMs?: number;
    /** CCTV_ALLOWED_NETS: networks camera and webhook addresses may be in (api/net/outbound-address.ts). */
    allowedNets?: Cidr[];
    /** Addresses this server started itself (the demo camera's test pattern), connected to without the check. */
    trusted?: (url: string) => boolean;
  };
}

export interface Api {
  router: Router;
  ctx: ApiContext;
  ingest: IngestService;
  alarms: AlarmEngine;
  commands: CommandService;
  /** Delivers the outbox; server.ts starts and stops it (on one server only when several run). */
  outbox: OutboxWorker;
  /** The camera streams (ffmpeg processes); server.ts stops them at shutdown. */
  cameras: CameraStreams;
}

export function createApi(opts: ApiOptions): Api {
  const signer = new TokenSigner(opts.jwtSecret);
  const sessions = new Sessions(
    opts.store,
    signer,
    {
      accessTokenTtl: opts.accessTokenTtl,
      refreshTokenTtl: opts.refreshTokenTtl,
      assetBase: opts.assetBase ?? "/uploads",
    },
    opts.clusterNotices,
  );
  const log = opts.log ?? ((msg, extra) => console.error(msg, extra ?? ""));
  const outbound = new OutboundAddressRule(opts.cctv?.allowedNets ?? []);
  const ctx: ApiContext = {
    store: opts.store,
    signer,
    sessions,
    devices: new DeviceTokens(opts.jwtSecret),
    log,
    outbound,
    plantNames: new NameOrder(compareNames),
  };
  const ingest = new IngestService(opts.store, opts.clock);
  const alarms = new AlarmEngine(opts.store, opts.clock, log, opts.alarmDebounceMs, opts.notify?.portalUrl);
  const commands = new CommandService(opts.store, opts.clock, opts.commandTimeoutMs);
  const outbox = new OutboxWorker(opts.store, {
    transports: {
      webhook: webhookTransport(outbound),
      ...(opts.notify?.smtpUrl
        ? { mail: mailTransport(opts.notify.smtpUrl, opts.notify.mailFrom ?? "noreply@solar-portal.local") }
        : {}),
    },
    retryBaseMs: opts.notify?.retryBaseMs,
    log: (m, e) => log(m, e),
    recipientProblem: (plantUid, memberId) => alertRecipientProblem(opts.store.db, plantUid, memberId),
  });
  const alarmsOwned = opts.alarmsOwned ?? (() => true);
  // The engine's owner judges the plants a batch carried, not the fleet (its timer's pass is the fleet-wide one).
  ingest.onIngest(({ plants }) => {
    if (!alarmsOwned()) return alarms.noteBatch();
    alarms.noteBatch(plants);
    alarms.evaluateSoon();
  });

  const cameras = new CameraStreams({
    ffmpegPath: opts.cctv?.ffmpegPath ?? "/usr/bin/ffmpeg",
    idleMs: opts.cctv?.idleMs ?? 30_000,
    log: (m) => log(m),
    onProbe: (uid, w, h) => void recordResolution(opts.store.db, uid, w, h).catch(() => undefined),
    pin: (source) => (opts.cctv?.trusted?.(source.url) ? Promise.resolve(source) : pinCameraSource(outbound, source)),
  });
  const cctv = cctvRoutes(ctx, {
    streams: cameras,
    urlKey: deriveCctvKey(opts.jwtSecret),
    passwordKey: createHash("sha256").update(`camera-password:${opts.jwtSecret}`).digest(),
  });

  const router = Router();
  // No NUL anywhere in the URL either (api/strict-input.ts), whether a route parses it or reads it straight off the
  // request: PostgreSQL cannot compare with it and would fail the call.
  router.use((req, _res, next) => {
    const problems = urlProblems(req.path, req.query);
    next(Object.keys(problems).length ? badRequest("invalid_input", problems) : undefined);
  });
  // Gateways authenticate with their own credential, not a member token, and send larger bodies.
  router.use(ingestRoutes(opts.store, ingest));
  router.use(express.json({ limit: "2mb", verify: verifyJsonDepth }));
  // Bodies that came as JSON: parse() holds their number fields to JSON numbers (api/strict-input.ts).
  router.use((req, _res, next) => {
    if (req.is("application/json")) markJsonBody(req.body);
    next();
  });
  router.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  router.get("/openapi.json", (_req, res) => res.json(openapiDocument()));
  router.use(docsRoutes());
  router.use(publicMemberRoutes(ctx));
  const detail = detailRoutes(ctx, opts.clock);
  router.use(detail.publicRoutes);
  router.use(cctv.publicRoutes);
  router.use(authenticate(signer, sessions, opts.store));
  router.use(memberRoutes(ctx));
  router.use(detail.routes);
  router.use(alarmRoutes(ctx, opts.clock, outbox, opts.clusterNotices));
  router.use(workOrderRoutes(ctx, { portalUrl: opts.notify?.portalUrl }));
  router.use(monitorRoutes(ctx, opts.clock));
  router.use(mopRoutes(ctx, opts.clock));
  router.use(watchRoutes(ctx, opts.clock));
  router.use(diagnoseRoutes(ctx, opts.clock));
  router.use(curtailmentRoutes(ctx, opts.clock));
  router.use(measurementRoutes(ctx, opts.clock));
  router.use(pvstatusRoutes(ctx, { clock: opts.clock, ingest, alarms, notices: opts.clusterNotices }));
  const fleet: FleetOptions = { geocoder: geocoderFromKey(opts.mapsKey), sourceKey: deriveSourceKey(opts.jwtSecret) };
  router.use(plantRoutes(ctx, fleet));
  router.use(deviceRoutes(ctx));
  router.use(rtuRoutes(ctx));
  router.use(totalRoutes(ctx));
  router.use(settingsRoutes(ctx));
  router.use(crawlingRoutes(ctx, fleet));
  router.use(commandRoutes(ctx, commands));
  router.use(auditRoutes(ctx, opts.clock));
  router.use(memberAdminRoutes(ctx));
  router.use(apiTokenRoutes(ctx));
  router.use(noticeRoutes(ctx, opts.clusterNotices));
  router.use(groupAdminRoutes(ctx));
  router.use(diagramRoutes(ctx, opts.clock));
  router.use(customRoutes(ctx, opts.clock));
  router.use(helpRoutes());
  router.use(statisticsRoutes(ctx, opts.clock, { ingest, notices: opts.clusterNotices }));
  router.use(cctv.routes);
  router.use((_req, _res, next) => next(notFound("no_such_call")));
  router.use(errorHandler(log));
  return { router, ctx, ingest, alarms, commands, outbox, cameras };
}
