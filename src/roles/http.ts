// The node's HTTP app: quota counters, key checks and administration, the API context's ports, the portal's ports (with the explorer's samples), and the Fastify app.
import { OddsHistoryReads } from '../pipeline/history-reads.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/app.js';
import type { ApiContext, FeedRole, UpstreamHealth } from '../api/context.js';
import { KeyAdmin } from '../api/key-admin.js';
import { KeyAuthenticator } from '../api/keys.js';
import { teamLogoSource } from '../api/logo-source.js';
import type { ApiMetrics } from '../api/metrics.js';
import type { UsageCounter } from '../api/quota/counter.js';
import { openQuotaCounters, type QuotaCounters } from '../api/quota/counters.js';
import type { ApiSettings } from '../api/settings.js';
import { WebhookAdmin } from '../api/webhook-admin.js';
import type { Config } from '../config.js';
import { PlanBook } from '../domain/quota.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import { portalPlugin } from '../portal/plugin.js';
import { explorerSamples } from './explorer-samples.js';
import type { NodeParts } from './node.js';
import { webhookPolicy } from './webhooks.js';

/** The plain values the HTTP app reads, from the configuration. */
export function apiSettings(config: Config): ApiSettings {
  return {
    publicUrl: config.publicUrl,
    host: config.host,
    port: config.port,
    servesReads: config.role !== 'pipeline',
    adminKey: config.adminKey,
    accessLog: config.accessLog,
    bodyLimitBytes: config.bodyLimitBytes,
    feedBodyLimitBytes: config.feedBodyLimitBytes,
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    pipelineStaleSeconds: config.pipelineStaleSeconds,
    settlementFeedDays: config.settlementFeedDays,
    settlementDetailDays: config.settlementDetailDays,
    streamHeartbeatSeconds: config.streamHeartbeatSeconds,
    streamBufferBytes: config.streamBufferBytes,
    streamFrameWorker: config.streamFrameWorker,
    streamProcess: config.streamProcess,
    gradingPolicy: {
      tennisRetirement: config.tennisRetirementPolicy,
      walkover: config.walkoverPolicy,
      esportsForfeit: config.esportsForfeitPolicy,
    },
  };
}

export interface HttpParts {
  pipeline: Pipeline;
  metrics: ApiMetrics;
  /** Scaled out: who applies POST /admin/v1/feed (absent with ROLE=all: this node). */
  feedRole?: FeedRole;
  /** ROLE=api: how long a stream resuming from a position another node served waits for this node to reach it. */
  streamCatchUpMs?: number;
  /** True while the built-in feed still sends the world it starts with (not ready yet). */
  loading?: () => boolean;
  /** FEED=the-odds-api: the upstream's state for /v1/health. */
  upstream?: () => UpstreamHealth | null;
  /** Told when a webhook subscription or queue changes here (the node delivering webhooks, when it is this one). */
  webhookChanged?: () => void;
}

export interface NodeHttp {
  app: FastifyInstance;
  keyAdmin: KeyAdmin;
  usage: UsageCounter;
  /** Written every second and on close. */
  counters: QuotaCounters;
}

export async function openHttp(
  node: NodeParts,
  { pipeline, metrics, feedRole, streamCatchUpMs, loading, upstream, webhookChanged }: HttpParts,
): Promise<NodeHttp> {
  const { config, store, now, logger } = node;
  // Quota counters (in memory, or in Redis with REDIS_URL): this month's counts come back from the store.
  const counters = await openQuotaCounters({
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
    store,
    ...(logger ? { log: logger } : {}),
    now: now(),
  });
  try {
    const usage = counters.usage;
    const plans = new PlanBook(config.plans);
    const keys = new KeyAuthenticator(store, now);
    const keyAdmin = new KeyAdmin({ store, keys, plans, now });
    const settings = apiSettings(config);
    const webhooks = new WebhookAdmin({
      store,
      plans,
      policy: webhookPolicy(node),
      now,
      secretOverlapMs: config.webhooks.secretOverlapMs,
      ...(webhookChanged !== undefined ? { onChange: webhookChanged } : {}),
    });
    const ctx: ApiContext = {
      settings,
      readModel: node.readModel,
      settlementIndex: node.settlementIndex,
      outrights: pipeline.outrights,
      results: { result: (id) => pipeline.result(id) },
      freshness: { lastChangeAt: () => pipeline.lastChangeAt },
      history: new OddsHistoryReads(store, pipeline.history),
      ingress: pipeline,
      store,
      keys,
      keyAdmin,
      plans,
      webhooks,
      usage,
      callerLimits: counters.callerLimits,
      metrics,
      now,
      worldNow: node.worldClock.now,
      worldClock: node.worldClock,
      startedAt: node.startedAt,
      ...(feedRole !== undefined ? { feedRole } : {}),
      ...(streamCatchUpMs !== undefined ? { streamCatchUpMs } : {}),
      ...(loading !== undefined ? { loading } : {}),
      ...(upstream !== undefined ? { upstream } : {}),
    };
    const app = await buildApp(ctx, {
      ...(logger ? { loggerInstance: logger } : {}),
      logos: teamLogoSource(node.readModel),
      portal: portalPlugin({
        store,
        keyAdmin,
        webhooks,
        plans,
        usage,
        now,
        site: settings,
        samples: explorerSamples(node.readModel),
      }),
    });
    return { app, keyAdmin, usage, counters };
  } catch (err) {
    await counters.close();
    throw err;
  }
}
