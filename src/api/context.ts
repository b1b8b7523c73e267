// What every route plugin is given: the read model, store, pipeline ingress, key checks, clock, config.
import type { Config } from '../config.js';
import type { ReadModel } from '../live/read-model.js';
import type { SettlementIndex } from '../live/settlement-index.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { Store } from '../store/store.js';
import type { KeyAuthenticator } from './keys.js';
import type { ApiMetrics } from './metrics.js';

export const API_VERSION = '1.0.0';

export interface ApiContext {
  config: Config;
  readModel: ReadModel;
  settlementIndex: SettlementIndex;
  store: Store;
  pipeline: Pipeline;
  keys: KeyAuthenticator;
  metrics: ApiMetrics;
  /** Wall clock (uptime, freshness, caches). */
  now: () => number;
  /** World clock: what event times compare with (differs from the wall with an accelerated simulator). */
  worldNow: () => number;
  startedAt: number;
}

/** Who may call a route: anyone, a client key (X-API-Key) or the operator (X-Admin-Key). */
export type RouteAccess = 'public' | 'key' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyRequest {
    apiKeyId?: string;
  }
}
