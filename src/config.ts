// Configuration: the one reader of process.env (and an optional .env file), validated once at boot.
import type { TheOddsApiSettings } from './feed/upstream/the-odds-api/producer.js';
import { config as loadDotenv } from 'dotenv';
import { parsePlans, type Plan } from './domain/quota.js';

export interface Config {
  port: number;
  host: string;
  /** Base of absolute URLs in payloads (logos); derived from each request's Host when unset. */
  publicUrl: string | null;
  dataDir: string;
  databaseUrl: string | null;
  /** Most connections to PostgreSQL this process opens (with DATABASE_URL). */
  databasePoolSize: number;
  redisUrl: string | null;
  /** Namespace of every Redis key (REDIS_PREFIX), so installations can share one Redis. */
  redisPrefix: string;
  role: 'all' | 'api' | 'pipeline';
  /** ROLE=api: the pipeline nodes (PIPELINE_URL, comma-separated) that this node relays feed requests to. */
  pipelineUrls: string[];
  feed: 'simulator' | 'the-odds-api' | 'none';
  /** FEED=the-odds-api: where and what to poll (docs/upstream.md). */
  upstream: UpstreamConfig;
  simSeed: number;
  simSpeed: number;
  adminKey: string | null;
  demoApiKey: string | null;
  demoPlan: string;
  /** Plans by name: the defaults (free, starter, pro, unlimited) with `PLANS` merged over them. */
  plans: Readonly<Record<string, Plan>>;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (the keyless /v1/status
   * limit is per address): false (default), true (any), a hop count, or addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** Origins of browser apps allowed to call the API (CORS_ORIGINS): `*`, a list, or null (no cross-origin access). */
  corsOrigins: '*' | readonly string[] | null;
  /** One `info` line per answered request (ACCESS_LOG=on, the default; docs/operations.md "Logs"). */
  accessLog: boolean;
  /** How often write-behind flushes live data (odds, scores) to the store. */
  flushIntervalMs: number;
  /** A live event not updated for this long makes the pipeline `stale` (health degraded). */
  pipelineStaleSeconds: number;
  /** How long ended/final events stay in the read model (their results stay in the store forever). */
  endedRetentionHours: number;
  /** Settlement entries keep their market detail this long, then become `score_only`. */
  settlementDetailDays: number;
  /** Settlement entries stay in the feed this long (results stay forever). */
  settlementFeedDays: number;
  /** Days of odds history kept (GET /v1/events/{id}/odds/history); 0 keeps none. */
  oddsHistoryDays: number;
  /** Postponed or suspended events not resumed within this many hours are refunded. */
  voidAfterHours: number;
  /** Markets graded and committed per settlement batch (the entry's counts move batch by batch). */
  settlementBatchSize: number;
  /** Player props without final statistics this many hours after the end are refunded. */
  statsTimeoutHours: number;
  /** Grading policies for unfinished matches (docs/markets.md). */
  tennisRetirementPolicy: 'one_set_completed' | 'first_ball' | 'refund';
  walkoverPolicy: 'refund' | 'award_moneyline';
  esportsForfeitPolicy: 'award_if_map_played' | 'refund';
  /** Largest client request body (bytes). */
  bodyLimitBytes: number;
  /** Largest admin feed body (bytes). */
  feedBodyLimitBytes: number;
  /** How far back `Last-Event-ID` resumes (STREAM_REPLAY_SECONDS), within `streamReplayBytes`. */
  streamReplaySeconds: number;
  /** Bytes the replay window may hold (STREAM_REPLAY_MB): under heavy ticking it is shorter than `streamReplaySeconds`. */
  streamReplayBytes: number;
  /**
   * How much of the window stays in memory (STREAM_REPLAY_MEMORY_MB) where the window is kept in
   * the store (ROLE=all, the pipeline leader): older segments are read back from the store by a
   * resume that reaches them. Never more than `streamReplayBytes`.
   */
  streamReplayMemoryBytes: number;
  /** Seconds between a stream's heartbeats (STREAM_HEARTBEAT_SECONDS, default 15). */
  streamHeartbeatSeconds: number;
  /** Bytes a stream's socket may hold unsent before its odds are conflated (STREAM_BUFFER_KB). */
  streamBufferBytes: number;
  /** Stream odds frames written by a worker thread, off the main thread (STREAM_FRAME_WORKER, default off: see docs/streaming.md). */
  streamFrameWorker: boolean;
  /** Caught-up streams written by a process of their own, off the main event loop (STREAM_PROCESS, default off: docs/streaming.md). */
  streamProcess: boolean;
  /** A live event not updated for this long is reported locked until fresh data arrives (0: never). */
  staleLockSeconds: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookConfig;
}

/** WEBHOOK_* settings (docs/webhooks.md). */
export interface WebhookConfig {
  /** Private, loopback and link-local addresses (and http) allowed (WEBHOOK_ALLOW_PRIVATE; self-hosted networks, tests). */
  allowPrivate: boolean;
  /** Hosts allowed whatever they resolve to, over http too (WEBHOOK_ALLOW_HOSTS, lower case). */
  allowHosts: readonly string[];
  retryBaseMs: number;
  retryMaxMs: number;
  /** A subscription failing this long without a success is disabled. */
  disableAfterMs: number;
  concurrency: number;
  pollMs: number;
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Delivered deliveries stay in the delivery log this long. */
  logDays: number;
  /** After a secret rotation, deliveries are signed with the old secret too for this long. */
  secretOverlapMs: number;
}

/** The Odds API (v4) adapter's settings; only read with FEED=the-odds-api. */
export type UpstreamConfig = TheOddsApiSettings;

export class ConfigError extends Error {}

const DEFAULTS = {
  PORT: '3000',
  HOST: '127.0.0.1',
  DATA_DIR: './data',
  ROLE: 'all',
  DATABASE_POOL_SIZE: '10',
  REDIS_PREFIX: 'sds',
  FEED: 'simulator',
  SIM_SEED: '42',
  SIM_SPEED: '1',
  DEMO_PLAN: 'developer',
  LOG_LEVEL: 'info',
  ACCESS_LOG: 'on',
  FLUSH_INTERVAL_MS: '500',
  PIPELINE_STALE_SECONDS: '120',
  ENDED_RETENTION_HOURS: '72',
  SETTLEMENT_DETAIL_DAYS: '7',
  SETTLEMENT_FEED_DAYS: '30',
  ODDS_HISTORY_DAYS: '30',
  VOID_AFTER_HOURS: '48',
  SETTLEMENT_BATCH_SIZE: '250',
  STATS_TIMEOUT_HOURS: '24',
  TENNIS_RETIREMENT_POLICY: 'one_set_completed',
  WALKOVER_POLICY: 'refund',
  ESPORTS_FORFEIT_POLICY: 'award_if_map_played',
  BODY_LIMIT_BYTES: String(1024 * 1024),
  FEED_BODY_LIMIT_BYTES: String(64 * 1024 * 1024),
  STREAM_REPLAY_SECONDS: '3600',
  STREAM_REPLAY_MB: '256',
  STREAM_REPLAY_MEMORY_MB: '32',
  STREAM_HEARTBEAT_SECONDS: '15',
  STREAM_BUFFER_KB: '1024',
  STREAM_FRAME_WORKER: 'off',
  STREAM_PROCESS: 'off',
  STALE_LOCK_SECONDS: '30',
  UPSTREAM_URL: 'https://api.the-odds-api.com',
  UPSTREAM_REGIONS: 'uk',
  UPSTREAM_BOOKMAKER: 'consensus',
  UPSTREAM_POLL_SECONDS: '60',
  UPSTREAM_MONTHLY_BUDGET: '20000',
  WEBHOOK_ALLOW_PRIVATE: 'false',
  WEBHOOK_RETRY_BASE_MS: '5000',
  WEBHOOK_RETRY_MAX_MS: '3600000',
  WEBHOOK_DISABLE_AFTER_HOURS: '72',
  WEBHOOK_CONCURRENCY: '64',
  WEBHOOK_POLL_MS: '1000',
  WEBHOOK_CONNECT_TIMEOUT_MS: '5000',
  WEBHOOK_RESPONSE_TIMEOUT_MS: '10000',
  WEBHOOK_LOG_DAYS: '7',
  WEBHOOK_SECRET_OVERLAP_HOURS: '24',
} as const;

type Env = Record<string, string | undefined>;

function str(env: Env, name: keyof typeof DEFAULTS): string {
  const v = env[name];
  return v === undefined || v === '' ? DEFAULTS[name] : v;
}

function optional(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v === '' ? null : v;
}

function num(env: Env, name: keyof typeof DEFAULTS, min: number, max: number, integer = true): number {
  const raw = str(env, name);
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    throw new ConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got '${raw}'`);
  }
  return n;
}

function oneOf<T extends string>(env: Env, name: keyof typeof DEFAULTS, allowed: readonly T[]): T {
  const v = str(env, name);
  if (!(allowed as readonly string[]).includes(v)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got '${v}'`);
  }
  return v as T;
}

/** Builds the configuration from an environment (process.env by default, after loading `.env`). */
export function loadConfig(env?: Env): Config {
  if (env === undefined) {
    loadDotenv({ quiet: true });
    env = process.env;
  }
  const publicUrl = optional(env, 'PUBLIC_URL');
  if (publicUrl !== null && !/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(publicUrl)) {
    throw new ConfigError(`PUBLIC_URL must be an http(s) URL, got '${publicUrl}'`);
  }
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres://, got '${databaseUrl}'`);
  }
  const redisUrl = optional(env, 'REDIS_URL');
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError(
      `REDIS_URL must start with redis:// or rediss://, got '${redisUrl.replace(/:[^:@/]*@/, ':***@')}'`,
    );
  }
  const redisPrefix = str(env, 'REDIS_PREFIX');
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(redisPrefix)) {
    throw new ConfigError(`REDIS_PREFIX must be 1-64 letters, digits, '.', '_' or '-', got '${redisPrefix}'`);
  }
  const pipelineUrls = (optional(env, 'PIPELINE_URL') ?? '')
    .split(',')
    .map((u) => u.trim().replace(/\/+$/, ''))
    .filter((u) => u !== '');
  for (const u of pipelineUrls) {
    if (!/^https?:\/\/[^\s/]+$/.test(u)) {
      throw new ConfigError(`PIPELINE_URL must be http(s) base URLs separated by commas, got '${u}'`);
    }
  }
  let plans: Record<string, Plan>;
  try {
    plans = parsePlans(optional(env, 'PLANS'));
  } catch (err) {
    throw new ConfigError(`PLANS ${err instanceof Error ? err.message : String(err)}`);
  }
  const demoPlan = str(env, 'DEMO_PLAN');
  if (plans[demoPlan] === undefined) {
    throw new ConfigError(`DEMO_PLAN must be a configured plan (${Object.keys(plans).join(', ')}), got '${demoPlan}'`);
  }
  const corsOrigins = parseCorsOrigins(optional(env, 'CORS_ORIGINS'));
  const trustProxyText = optional(env, 'TRUST_PROXY');
  const trustProxy =
    trustProxyText === null || trustProxyText === 'false'
      ? false
      : trustProxyText === 'true'
        ? true
        : /^\d{1,2}$/.test(trustProxyText)
          ? Number(trustProxyText)
          : trustProxyText;
  const feed = oneOf(env, 'FEED', ['simulator', 'the-odds-api', 'none'] as const);
  return {
    port: num(env, 'PORT', 0, 65535),
    host: str(env, 'HOST'),
    publicUrl: publicUrl === null ? null : publicUrl.replace(/\/+$/, ''),
    dataDir: str(env, 'DATA_DIR'),
    databaseUrl,
    databasePoolSize: num(env, 'DATABASE_POOL_SIZE', 1, 1000),
    redisUrl,
    redisPrefix,
    role: oneOf(env, 'ROLE', ['all', 'api', 'pipeline'] as const),
    pipelineUrls,
    feed,
    upstream: parseUpstream(env, feed),
    simSeed: num(env, 'SIM_SEED', 0, 2 ** 31 - 1),
    simSpeed: num(env, 'SIM_SPEED', 0.01, 100000, false),
    adminKey: optional(env, 'ADMIN_KEY'),
    demoApiKey: optional(env, 'DEMO_API_KEY'),
    demoPlan,
    plans,
    trustProxy,
    corsOrigins,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    accessLog: ['on', 'true'].includes(oneOf(env, 'ACCESS_LOG', ['on', 'off', 'true', 'false'] as const)),
    flushIntervalMs: num(env, 'FLUSH_INTERVAL_MS', 10, 1000),
    pipelineStaleSeconds: num(env, 'PIPELINE_STALE_SECONDS', 1, 86400),
    endedRetentionHours: num(env, 'ENDED_RETENTION_HOURS', 0, 24 * 365 * 100),
    settlementDetailDays: num(env, 'SETTLEMENT_DETAIL_DAYS', 0, 3650, false),
    settlementFeedDays: num(env, 'SETTLEMENT_FEED_DAYS', 0, 3650, false),
    oddsHistoryDays: num(env, 'ODDS_HISTORY_DAYS', 0, 3650, false),
    voidAfterHours: num(env, 'VOID_AFTER_HOURS', 0, 24 * 365, false),
    settlementBatchSize: num(env, 'SETTLEMENT_BATCH_SIZE', 1, 100_000),
    statsTimeoutHours: num(env, 'STATS_TIMEOUT_HOURS', 0, 24 * 365, false),
    tennisRetirementPolicy: oneOf(env, 'TENNIS_RETIREMENT_POLICY', [
      'one_set_completed',
      'first_ball',
      'refund',
    ] as const),
    walkoverPolicy: oneOf(env, 'WALKOVER_POLICY', ['refund', 'award_moneyline'] as const),
    esportsForfeitPolicy: oneOf(env, 'ESPORTS_FORFEIT_POLICY', ['award_if_map_played', 'refund'] as const),
    bodyLimitBytes: num(env, 'BODY_LIMIT_BYTES', 1024, 1024 ** 3),
    feedBodyLimitBytes: num(env, 'FEED_BODY_LIMIT_BYTES', 1024, 1024 ** 3),
    streamReplaySeconds: num(env, 'STREAM_REPLAY_SECONDS', 0, 7 * 86400),
    streamReplayBytes: num(env, 'STREAM_REPLAY_MB', 1, 64 * 1024) * 1024 * 1024,
    streamReplayMemoryBytes: num(env, 'STREAM_REPLAY_MEMORY_MB', 0, 64 * 1024) * 1024 * 1024,
    streamHeartbeatSeconds: num(env, 'STREAM_HEARTBEAT_SECONDS', 1, 3600, false),
    streamBufferBytes: num(env, 'STREAM_BUFFER_KB', 16, 1024 * 1024) * 1024,
    streamFrameWorker: ['on', 'true'].includes(
      oneOf(env, 'STREAM_FRAME_WORKER', ['on', 'off', 'true', 'false'] as const),
    ),
    streamProcess: ['on', 'true'].includes(oneOf(env, 'STREAM_PROCESS', ['on', 'off', 'true', 'false'] as const)),
    staleLockSeconds: num(env, 'STALE_LOCK_SECONDS', 0, 86400, false),
    webhooks: parseWebhooks(env),
  };
}

/** The WEBHOOK_* variables. */
function parseWebhooks(env: Env): WebhookConfig {
  // WEBHOOK_ALLOWED_HOSTS is read too: both spellings are in circulation.
  const hostsText = optional(env, 'WEBHOOK_ALLOW_HOSTS') ?? optional(env, 'WEBHOOK_ALLOWED_HOSTS') ?? '';
  const allowHosts = hostsText
    .split(',')
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter((h) => h !== '');
  for (const h of allowHosts) {
    if (!/^[a-z0-9._:-]+$/.test(h)) {
      throw new ConfigError(`WEBHOOK_ALLOW_HOSTS must be host names or addresses separated by commas, got '${h}'`);
    }
  }
  return {
    allowPrivate: ['on', 'true'].includes(oneOf(env, 'WEBHOOK_ALLOW_PRIVATE', ['on', 'off', 'true', 'false'] as const)),
    allowHosts,
    retryBaseMs: num(env, 'WEBHOOK_RETRY_BASE_MS', 1, 86_400_000),
    retryMaxMs: num(env, 'WEBHOOK_RETRY_MAX_MS', 1, 86_400_000),
    disableAfterMs: num(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 0.001, 24 * 365, false) * 3_600_000,
    concurrency: num(env, 'WEBHOOK_CONCURRENCY', 1, 10_000),
    pollMs: num(env, 'WEBHOOK_POLL_MS', 10, 60_000),
    connectTimeoutMs: num(env, 'WEBHOOK_CONNECT_TIMEOUT_MS', 100, 60_000),
    responseTimeoutMs: num(env, 'WEBHOOK_RESPONSE_TIMEOUT_MS', 100, 120_000),
    logDays: num(env, 'WEBHOOK_LOG_DAYS', 0, 3650, false),
    secretOverlapMs: num(env, 'WEBHOOK_SECRET_OVERLAP_HOURS', 0, 24 * 30, false) * 3_600_000,
  };
}

/** The UPSTREAM_* variables; with FEED=the-odds-api a key and at least one sport are required. */
function parseUpstream(env: Env, feed: string): UpstreamConfig {
  const csv = (text: string): string[] =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const url = str(env, 'UPSTREAM_URL').replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url)) {
    throw new ConfigError(`UPSTREAM_URL must be an http(s) URL like https://api.the-odds-api.com, got '${url}'`);
  }
  const sports = csv(optional(env, 'UPSTREAM_SPORTS') ?? '');
  for (const s of sports) {
    if (!/^[a-z0-9_]+$/.test(s)) {
      throw new ConfigError(
        `UPSTREAM_SPORTS must be the provider's sport keys (like soccer_epl) separated by commas, got '${s}'`,
      );
    }
  }
  const regions = csv(str(env, 'UPSTREAM_REGIONS'));
  if (regions.length === 0 || regions.some((r) => !/^[a-z]{2,4}$/.test(r))) {
    throw new ConfigError(
      `UPSTREAM_REGIONS must be region codes (uk, us, us2, eu, au) separated by commas, got '${str(env, 'UPSTREAM_REGIONS')}'`,
    );
  }
  const bookmaker = str(env, 'UPSTREAM_BOOKMAKER');
  if (!/^[a-z0-9_]+$/.test(bookmaker)) {
    throw new ConfigError(
      `UPSTREAM_BOOKMAKER must be a bookmaker key (like williamhill) or 'consensus', got '${bookmaker}'`,
    );
  }
  const apiKey = optional(env, 'UPSTREAM_API_KEY');
  if (feed === 'the-odds-api') {
    if (apiKey === null)
      throw new ConfigError('FEED=the-odds-api needs UPSTREAM_API_KEY (the key the provider emailed you)');
    if (sports.length === 0) {
      throw new ConfigError(
        "FEED=the-odds-api needs UPSTREAM_SPORTS (the provider's sport keys, e.g. soccer_epl,basketball_nba)",
      );
    }
  }
  return {
    url,
    apiKey,
    sports,
    regions,
    bookmaker,
    pollSeconds: num(env, 'UPSTREAM_POLL_SECONDS', 1, 86400, false),
    monthlyBudget: num(env, 'UPSTREAM_MONTHLY_BUDGET', 1, 1e9),
  };
}

/**
 * `CORS_ORIGINS`: unset or empty, no cross-origin access; `*`, any origin; else origins
 * (`scheme://host[:port]`) separated by commas, kept as a browser serializes its `Origin`: scheme
 * and host in lower case, no default port (`HTTPS://App.Example.com:443` is `https://app.example.com`),
 * since they are compared with that header as they are.
 */
function parseCorsOrigins(text: string | null): '*' | readonly string[] | null {
  if (text === null || text.trim() === '') return null;
  if (text.trim() === '*') return '*';
  return text.split(',').map((o) => corsOrigin(o.trim()));
}

function corsOrigin(o: string): string {
  // A path, a trailing slash or credentials never equal a browser's Origin header: refuse them rather than match nothing.
  let url: URL | null = null;
  try {
    if (/^https?:\/\/[^\s/?#@]+$/i.test(o)) url = new URL(o);
  } catch {
    // Not a URL (a port out of range, an empty host): refused below.
  }
  if (url === null) {
    throw new ConfigError(
      `CORS_ORIGINS must be '*' or origins like https://app.example.com (scheme and host, optional port, no path) separated by commas, got '${o}'`,
    );
  }
  return url.origin;
}
