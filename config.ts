/**
 * Process configuration, read once from the environment and validated at start.
 * A bad value stops the server with a message naming the variable.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseCidrList } from "./api/net/outbound-address";

const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: (SQLite) or postgres:// (PostgreSQL)")
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  API_URL: z.string().url().optional(),
  /**
   * Portal processes rendering pages (0: the portal runs inside the API process). Default: one per CPU
   * core, so page rendering uses every core while one process keeps the store and the data plane.
   */
  PORTAL_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  DEMO: boolish.optional(),
  SIMULATE: boolish.optional(),
  SIM_SPEED: z.coerce.number().positive().max(10_000).default(1),
  HISTORY_DAYS: z.coerce.number().int().min(0).max(400).default(90),
  ALARM_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(30_000),
  ALARM_SHARDS: z.coerce.number().int().min(1).max(256).default(8),
  MQTT_CLIENT_ID: z.string().min(1).max(64).default("solar-portal-ingest"),
  MQTT_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_/-]+$/, "letters, digits, _ - and / only")
    .default("solar/gw"),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\//, "must start with mqtt:// or mqtts://")
    .optional(),
  /** Shared-subscription group of the servers reading telemetry (`$share/<group>/…`). */
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
    .default("solar-portal"),
  /** How long the broker keeps a server's MQTT session (and the messages queued for it) while it is away. */
  MQTT_SESSION_EXPIRY: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(7 * 86_400),
  /**
   * This server's name among several: its MQTT client id suffix and its name in the singleton leases.
   * Must be unique per server and stable across its restarts. Default: the host name.
   */
  SERVER_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,40}$/, "1-40 letters, digits, _ . and - only")
    .optional(),
  /** Days of raw measurements kept (rollups are kept for ever); unset keeps everything. */
  RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(5).max(86_400).default(900),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(60)
    .max(90 * 86_400)
    .default(14 * 86_400),
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  LOG_REQUESTS: boolish.optional(),
  /**
   * Proxies whose X-Forwarded-For names the client (login throttling per address): a hop count, or a
   * comma-separated list of addresses, subnets and Express's names (loopback, linklocal, uniquelocal).
   * Default none: the address of the connection is the client's.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(none|\d{1,2}|[0-9A-Za-z.:/,\s]+)$/, "a hop count, or addresses/subnets separated by commas, or none")
    .optional(),
  /**
   * The portal's public origins, comma-separated (e.g. https://portal.example.kr): the detail window's
   * host is derived from these, never from the request's Host header. Default: localhost names on PORT.
   */
  PUBLIC_URL: z
    .string()
    .refine(
      (v) => v.split(",").every((u) => /^https?:\/\/[^/\s]+\/?$/i.test(u.trim())),
      "origins like https://portal.example.kr, comma-separated",
    )
    .optional(),
  /** Maps service key for geocoding plant addresses (SPEC §7); without it coordinates are typed in. */
  MAPS_KEY: z.string().min(1).optional(),
  /** SMTP server for alert and report mails (smtp://user:pass@host:587, smtps://…:465); without it mails wait in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).default("Solar Portal <noreply@solar-portal.local>"),
  /** First retry of an undelivered mail or webhook after this long, doubling per attempt (up to an hour). */
  OUTBOX_RETRY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How often the report scheduler looks for due scheduled statistics reports. */
  REPORT_SCHEDULE_MS: z.coerce.number().int().min(200).max(3_600_000).default(60_000),
  /** How long a gateway has to answer a command before it counts as timed out. */
  COMMAND_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
  /** The ffmpeg that turns camera streams into HLS (Debian's by default). */
  FFMPEG_PATH: z.string().min(1).default("/usr/bin/ffmpeg"),
  /** A camera stream nobody has watched for this long is stopped. */
  CCTV_IDLE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(30_000),
  /**
   * Networks camera and webhook addresses may be in although private (a site VPN), as CIDRs, comma-separated;
   * loopback and the rest of api/net/outbound-address.ts's refused ranges only when listed, metadata never.
   */
  CCTV_ALLOWED_NETS: z
    .string()
    .default("")
    .superRefine((v, ctx) => {
      try {
        parseCidrList(v);
      } catch (e) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: (e as Error).message });
      }
    }),
  /** Store pages of the mobile app for the app promotion pop-up (read by the portal from the environment). */
  APP_ANDROID_URL: z
    .string()
    .regex(/^https:\/\//, "must start with https://")
    .optional(),
  APP_IOS_URL: z
    .string()
    .regex(/^https:\/\//, "must start with https://")
    .optional(),
});

export const DEMO_ADMIN_PASSWORD = "admin1234!";

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== "")));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const databaseUrl = e.DATABASE_URL ?? `file:${path.join(dataDir, "portal.db")}`;
  // The embedded default is the demo; a configured database is production unless DEMO says otherwise.
  const demo = e.DEMO ?? !e.DATABASE_URL;
  if (!demo && !e.ADMIN_PASSWORD) {
    throw new Error("Invalid configuration:\n  ADMIN_PASSWORD: required when DEMO is off");
  }
  const secrets = e.JWT_SECRET && e.SESSION_SECRET ? null : loadOrCreateSecrets(dataDir);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl,
    demo,
    simulate: e.SIMULATE ?? demo,
    simSpeed: e.SIM_SPEED,
    historyDays: e.HISTORY_DAYS,
    alarmIntervalMs: e.ALARM_INTERVAL_MS,
    alarmShards: e.ALARM_SHARDS,
    mqttClientId: e.MQTT_CLIENT_ID,
    mqttTopicPrefix: e.MQTT_TOPIC_PREFIX,
    mqttUrl: e.MQTT_URL,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttSessionExpiry: e.MQTT_SESSION_EXPIRY,
    serverId:
      e.SERVER_ID ??
      os
        .hostname()
        .replace(/[^A-Za-z0-9_.-]/g, "-")
        .slice(0, 40),
    rawRetentionDays: e.RAW_RETENTION_DAYS ?? null,
    adminPassword: e.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    adminPasswordIsDefault: !e.ADMIN_PASSWORD,
    /** Where the portal's loaders find the API when it is not this server's own (set explicitly). */
    apiUrl: e.API_URL,
    portalWorkers: e.PORTAL_WORKERS ?? os.availableParallelism(),
    jwtSecret: e.JWT_SECRET ?? secrets!.jwt,
    sessionSecret: e.SESSION_SECRET ?? secrets!.session,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    logRequests: e.LOG_REQUESTS ?? false,
    mapsKey: e.MAPS_KEY,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    outboxRetryMs: e.OUTBOX_RETRY_MS,
    reportScheduleMs: e.REPORT_SCHEDULE_MS,
    commandTimeoutMs: e.COMMAND_TIMEOUT_MS,
    ffmpegPath: e.FFMPEG_PATH,
    cctvIdleMs: e.CCTV_IDLE_MS,
    cctvAllowedNets: parseCidrList(e.CCTV_ALLOWED_NETS),
    nodeEnv: e.NODE_ENV,
  };
}

/** TRUST_PROXY as Express's "trust proxy" setting: false (none), a hop count, or a list of addresses. */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const v = value?.trim() ?? "";
  if (v === "" || v === "none") return false;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Secrets generated on first start and kept beside the data, never in the repository. */
function loadOrCreateSecrets(dataDir: string): { jwt: string; session: string } {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  mkdirSync(dataDir, { recursive: true });
  const secrets = { jwt: randomBytes(48).toString("base64url"), session: randomBytes(48).toString("base64url") };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}
