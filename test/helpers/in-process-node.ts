// Nodes of a scaled-out deployment started in the test's own process (PostgreSQL and Redis shared, one world clock), and the admin feed driven on them.
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { TEST_REDIS_URL } from './redis.js';

export interface NodeSet {
  /** Every node started, in order (close them in reverse). */
  readonly services: Service[];
  /** Starts an `api` or `pipeline` node on the shared schema and prefix, reading the set's clock. */
  start(role: 'api' | 'pipeline'): Promise<Service>;
  /** POSTs NDJSON to a node's admin feed; fails the test unless every line was applied. */
  feed(s: Service, lines: readonly object[]): Promise<void>;
  /** Closes every node, the last started first. */
  closeAll(): Promise<void>;
}

export interface NodeSetOptions {
  databaseUrl: string;
  redisPrefix: string;
  adminKey: string;
  apiKey: string;
  /** The world clock every node reads. */
  now: () => number;
  /** Extra environment (e.g. ENDED_RETENTION_HOURS). */
  env?: Record<string, string>;
}

export function nodeSet(o: NodeSetOptions): NodeSet {
  const services: Service[] = [];
  return {
    services,
    async start(role) {
      const config = loadConfig({
        ROLE: role,
        DATABASE_URL: o.databaseUrl,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: o.redisPrefix,
        FEED: 'none',
        ADMIN_KEY: o.adminKey,
        DEMO_API_KEY: o.apiKey,
        DEMO_PLAN: 'unlimited',
        LOG_LEVEL: 'silent',
        FLUSH_INTERVAL_MS: '100',
        STALE_LOCK_SECONDS: '0',
        ...o.env,
      });
      const service = await createService(config, { now: o.now });
      services.push(service);
      return service;
    },
    async feed(s, lines) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/admin/v1/feed',
        headers: { 'x-admin-key': o.adminKey, 'content-type': 'application/x-ndjson' },
        payload: lines.map((l) => JSON.stringify(l)).join('\n'),
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json<{ rejected: number }>().rejected, 0, res.body);
    },
    async closeAll() {
      for (const s of [...services].reverse()) await s.close().catch(() => undefined);
    },
  };
}
