// What every route plugin is given: narrow ports (reads, results, freshness, feed ingress, store reads), key checks, quotas, clocks, settings.
import type { WorldClock } from '../domain/clock.js';
import type { PlanBook } from '../domain/quota.js';
import type { EventResult } from '../domain/types.js';
import type { OutrightBook } from '../live/outright-book.js';
import type { ReadModel } from '../live/read-model.js';
import type { SettlementIndex } from '../live/settlement-index.js';
import type { FeedIngress } from '../pipeline/ingress.js';
import type { ApiKeyRecord, Store } from '../store/store.js';
import type { KeyAdmin } from './key-admin.js';
import type { KeyAuthenticator } from './keys.js';
import type { CallerLimiter, UsageCounter } from './quota/counter.js';
import type { ApiMetrics } from './metrics.js';
import type { ApiSettings } from './settings.js';
import type { WebhookAdmin } from './webhook-admin.js';

export const API_VERSION = '1.0.0';

/**
 * What the routes ask the store: the settlement facts they page through, and its probes (health,
 * readiness). No route writes a fact: every change enters as a feed message through the pipeline.
 */
export type StoreReads = Pick<
  Store,
  | 'health'
  | 'ping'
  | 'checkWrites'
  | 'getSettlement'
  | 'getPlayerStats'
  | 'listSettlements'
  | 'listSettlementChanges'
  | 'countSettlementChanges'
  | 'listOutrightSettlements'
  | 'countOutrightSettlements'
>;

/** An event's archived result: in memory while recent, else from the store. */
export interface ResultArchive {
  result(eventId: string): Promise<EventResult | null>;
}

/** Where a history page ends: the next starts after `skip` changes at exactly `at` (world ms). */
export interface HistoryCursorValue {
  at: number;
  skip: number;
}

/** The odds history (every price and lock change kept), as routes read it. */
export interface OddsHistoryPort {
  page(q: {
    eventId: string;
    fromAt: number;
    toAt: number;
    marketId: number | null;
    selectionId: number | null;
    cursor: HistoryCursorValue | null;
    limit: number;
  }): Promise<{
    changes: Array<{ marketId: number; selectionId: number; odds: number; locked: boolean; at: number }>;
    next: HistoryCursorValue | null;
  }>;
  /** Each selection's last price and lock at or before `at`. */
  at(eventId: string, at: number): Promise<Map<number, { odds: number; locked: boolean; at: number }>>;
  /** Whether any history is kept for the event. */
  known(eventId: string): Promise<boolean>;
}

/** How current the read model is: when the feed last changed something. */
export interface Freshness {
  /** Wall-clock epoch ms of the last message that changed something; null before the first. */
  lastChangeAt(): number | null;
}

/** /v1/health `data_pipeline.upstream` (docs/upstream.md). */
export interface UpstreamHealth {
  provider: string;
  state: 'starting' | 'ok' | 'backing_off' | 'unauthorized' | 'budget_exhausted';
  last_success_seconds_ago: number | null;
  next_poll_seconds: number | null;
  monthly_budget: number;
  credits_used_this_month: number;
  credits_left: number;
  provider_remaining: number | null;
}

export interface ApiContext {
  settings: ApiSettings;
  readModel: ReadModel;
  settlementIndex: SettlementIndex;
  /** Outright tournaments and markets (the pipeline's book). */
  outrights: OutrightBook;
  results: ResultArchive;
  freshness: Freshness;
  history: OddsHistoryPort;
  /** Applies POST /admin/v1/feed on the node that takes the feed (ROLE=all, a leading pipeline node). */
  ingress: FeedIngress;
  store: StoreReads;
  keys: KeyAuthenticator;
  /** Creates, revokes and re-plans keys, effective at once on this node. */
  keyAdmin: KeyAdmin;
  /** The configured plans. */
  plans: PlanBook;
  /** Webhook subscriptions of the calling key (/v1/webhooks); absent: no webhook routes. */
  webhooks?: WebhookAdmin;
  /** Monthly quotas and per-second rates per key (src/api/quota/). */
  usage: UsageCounter;
  /** The per-caller limits of /v1/health and /v1/status. */
  callerLimits: CallerLimiter;
  metrics: ApiMetrics;
  /** Wall clock: real time (quota and rate windows, Retry-After, uptime, freshness, caches, sessions). */
  now: () => number;
  /**
   * World clock: every client's "now" (event times, health `timestamp`, X-World-Time); differs from
   * the wall with an accelerated simulator. `worldClock.now` itself.
   */
  worldNow: () => number;
  worldClock: WorldClock;
  startedAt: number;
  /** Streams each key holds open on this node (set by the stream routes; metering refuses one too many). */
  openStreams?: (keyId: string) => number;
  /** Scaled out (ROLE=pipeline or api): who applies POST /admin/v1/feed. Absent (ROLE=all): this node. */
  feedRole?: FeedRole;
  /**
   * True while the node's built-in feed still sends the world it starts with: /readyz answers 503
   * `loading` and /v1/status `starting` (a client must not take 1 sport and 0 live events for the world).
   */
  loading?: () => boolean;
  /** FEED=the-odds-api: the upstream's freshness and budget, shown in /v1/health's data_pipeline. */
  upstream?: () => UpstreamHealth | null;
  /**
   * Scaled out (ROLE=api): how long a stream resuming from a position this node has not applied yet
   * waits for it (the client came from a node a few milliseconds ahead). Absent: not at all.
   */
  streamCatchUpMs?: number;
}

/**
 * `candidate` (ROLE=pipeline): this node applies feed while it leads, and a standby answers 503;
 * the answer carries the change-stream position of what was applied. `relay` (ROLE=api): the body
 * goes on to the pipeline nodes, and the answer waits until this node's read model has it.
 */
export type FeedRole =
  | { kind: 'candidate'; leading(): boolean; position(): string }
  | {
      kind: 'relay';
      pipelineUrls: readonly string[];
      waitFor(position: string, timeoutMs: number): Promise<boolean>;
    };

/** Who may call a route: anyone, a client key (X-API-Key) or the operator (X-Admin-Key). */
export type RouteAccess = 'public' | 'key' | 'admin';

/** A route's access: as configured, else a key under /v1/, the admin key under /admin/, public otherwise. */
export function accessOf(url: string, configured: RouteAccess | undefined): RouteAccess {
  if (configured !== undefined) return configured;
  if (url.startsWith('/v1/')) return 'key';
  if (url.startsWith('/admin/')) return 'admin';
  return 'public';
}

/**
 * How a route is metered (docs/quotas.md). Key routes default to `counted` (monthly quota and
 * per-second rate); `uncounted` takes only the per-second rate; `caller` applies the fixed
 * health/status limits per caller; `stream` is `counted` once the key has a stream left in its
 * plan (one too many is refused 429 and counts nothing). Public and admin routes are not metered
 * unless they say so.
 */
export type RouteMetering = 'counted' | 'uncounted' | 'caller' | 'stream';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    metering?: RouteMetering;
  }
  interface FastifyRequest {
    apiKeyId?: string;
    /** The authenticated key (key routes). */
    apiKey?: ApiKeyRecord;
    /** The request was counted toward its key's quota (its 4xx/5xx answer counts as an error). */
    usageCounted?: boolean;
  }
}
