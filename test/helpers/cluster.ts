// A scaled-out deployment on loopback for tests: API nodes and pipeline candidates as child processes on one PostgreSQL schema and Redis prefix.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { cpuTicks, listeningPort } from './child-service.js';
import { createTestSchema, postgresSkip, type TestSchema } from './postgres.js';
import { dropPrefix, redisSkip, testPrefix, TEST_REDIS_URL } from './redis.js';
import { untilProgress } from './until.js';

const CLI = join(process.cwd(), 'dist/src/cli.js');
export const CLUSTER_ADMIN_KEY = 'cluster-admin';
export const CLUSTER_DEMO_KEY = 'cluster-demo';

/** Why a cluster cannot run here (no PostgreSQL or no Redis), or false. Throws under CI=true. */
export async function clusterSkip(): Promise<string | false> {
  return (await postgresSkip()) || (await redisSkip());
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ClusterNode {
  role: 'api' | 'pipeline';
  port: number;
  base: string;
  child: ChildProcess;
  /** The last lines the process wrote (shown when a test fails). */
  output: string[];
  exited: Promise<number | null>;
}

export interface Cluster {
  schema: TestSchema;
  prefix: string;
  api: ClusterNode[];
  pipeline: ClusterNode[];
  /** Environment shared by every node (DATABASE_URL, REDIS_URL, keys…). */
  env: Record<string, string>;
  /** Starts one more node (a restart, a late joiner), with `extraEnv` on top of the shared environment. */
  startNode(role: 'api' | 'pipeline', port?: number, extraEnv?: Record<string, string>): Promise<ClusterNode>;
  /** The pipeline node that answers /readyz 200 (the leader), waiting up to `timeoutMs`. */
  leader(timeoutMs?: number): Promise<ClusterNode>;
  /** The last output lines of every node. */
  logs(): string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  apiNodes?: number;
  pipelineNodes?: number;
  /** Extra environment for every node. */
  env?: Record<string, string>;
  /** A schema to run on (a fault test's own database); default a new schema in the test database. */
  schema?: TestSchema;
  /** Another Redis (a fault test's own server); default TEST_REDIS_URL. */
  redisUrl?: string;
}

/**
 * Waits for `check` while `nodes` work: a node loading a store (the whole simulated world: two weeks
 * of fixtures, full books a week ahead) takes what the machine gives it, seconds on a quiet one and
 * much longer beside other work. Fails when for `stallMs` none used a second of CPU, or after 10 minutes.
 */
function whileWorking(
  what: string,
  nodes: () => ClusterNode[],
  check: () => Promise<boolean>,
  stallMs: number,
): Promise<number> {
  const t0 = Date.now();
  return untilProgress(what, check, {
    progress: () => Math.floor(nodes().reduce((sum, n) => sum + cpuTicks(n.child.pid), 0) / 100),
    stallMs,
    exhausted: () => (Date.now() - t0 > 600_000 ? 'still not after 10 minutes' : null),
    pollMs: 25,
  });
}

async function waitFor(url: string, ok: (status: number) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (ok(res.status)) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/** Starts the nodes (pipeline candidates first) and waits until every one listens and a leader is elected. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const schema = opts.schema ?? (await createTestSchema());
  const prefix = testPrefix();
  const redisUrl = opts.redisUrl ?? TEST_REDIS_URL;
  const env: Record<string, string> = {
    DATABASE_URL: schema.url,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    FEED: 'none',
    ADMIN_KEY: CLUSTER_ADMIN_KEY,
    DEMO_API_KEY: CLUSTER_DEMO_KEY,
    DEMO_PLAN: 'unlimited',
    LOG_LEVEL: 'warn',
    ...opts.env,
  };
  const nodes: ClusterNode[] = [];

  const startNode = async (
    role: 'api' | 'pipeline',
    port?: number,
    extraEnv: Record<string, string> = {},
  ): Promise<ClusterNode> => {
    // Without a port the node binds port 0 and says which one the kernel gave it: a port picked
    // here and bound later could be taken meanwhile by another test file's node, whose /livez would
    // then answer for ours (CI saw it: "listen EADDRINUSE", and the test went on against a stranger).
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...process.env, ...env, ...extraEnv, ROLE: role, PORT: String(port ?? 0), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (chunk: Buffer): void => {
      output.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      if (output.length > 40) output.splice(0, output.length - 40);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const early = exited.then((code) => {
      throw new Error(`the ${role} node exited with code ${code}: ${output.slice(-5).join(' | ')}`);
    });
    early.catch(() => undefined);
    let p: number;
    try {
      p = await listeningPort(child);
    } catch (err) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      throw new Error(`the ${role} node: ${(err as Error).message}: ${output.slice(-5).join(' | ')}`);
    }
    const node: ClusterNode = { role, port: p, base: `http://127.0.0.1:${p}`, child, output, exited };
    nodes.push(node);
    // A standby answers /readyz 503 but /livez 200: listening is what "started" means here.
    await Promise.race([waitFor(`${node.base}/livez`, (s) => s === 200, 20_000), early]);
    return node;
  };

  /** The pipeline node answering /readyz 200 now, or null. */
  const readyLeader = async (): Promise<ClusterNode | null> => {
    for (const n of cluster.pipeline) {
      if (n.child.exitCode !== null || n.child.signalCode !== null) continue;
      try {
        const res = await fetch(`${n.base}/readyz`);
        await res.body?.cancel();
        if (res.status === 200) return n;
      } catch {
        // down
      }
    }
    return null;
  };

  const cluster: Cluster = {
    schema,
    prefix,
    api: [],
    pipeline: [],
    env,
    startNode,
    async leader(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const n = await readyLeader();
        if (n !== null) return n;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no pipeline leader within ${timeoutMs} ms\n${cluster.logs()}`);
    },
    logs() {
      return nodes.map((n) => `--- ${n.role} :${n.port}\n${n.output.join('\n')}`).join('\n');
    },
    async stop() {
      for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGTERM');
      await Promise.all(
        nodes.map((n) =>
          Promise.race([n.exited, new Promise((r) => setTimeout(r, 10_000).unref())]).then(() => {
            if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
          }),
        ),
      );
      if (opts.schema === undefined) await schema.drop().catch(() => undefined);
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => null });
      redis.on('error', () => undefined);
      await dropPrefix(redis, prefix).catch(() => undefined);
      redis.disconnect();
    },
  };
  try {
    for (let i = 0; i < (opts.pipelineNodes ?? 2); i++) cluster.pipeline.push(await startNode('pipeline'));
    // API nodes relay feed requests to the candidates, on the ports they were given.
    env.PIPELINE_URL = cluster.pipeline.map((n) => n.base).join(',');
    // The first leader loads the store (with FEED=simulator, the simulator's whole world) before it
    // is ready, and an API node loads it too: waits as long as they work, not a failover's 10 s.
    await whileWorking(
      'a pipeline leader',
      () => cluster.pipeline,
      async () => (await readyLeader()) !== null,
      30_000,
    );
    for (let i = 0; i < (opts.apiNodes ?? 2); i++) {
      const node = await startNode('api');
      await whileWorking(
        `API node ${node.base} ready`,
        () => [node],
        () => isReady(node),
        20_000,
      );
      cluster.api.push(node);
    }
  } catch (err) {
    const logs = cluster.logs();
    await cluster.stop();
    throw new Error(`the cluster did not start: ${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
  return cluster;
}

async function isReady(node: { base: string }): Promise<boolean> {
  try {
    const res = await fetch(`${node.base}/readyz`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Waits for a node's /readyz to answer 200 (an API node has loaded its read model) while it works: fails when it stalls `stallMs`. */
export async function nodeReady(node: ClusterNode, stallMs = 20_000): Promise<void> {
  // As at the cluster's start: an API node loads its read model first, as fast as the machine lets it.
  await whileWorking(
    `${node.base} ready`,
    () => [node],
    () => isReady(node),
    stallMs,
  );
}

/** POSTs NDJSON lines to a node's feed ingress: the status and the parsed answer. */
export async function feedNode(
  base: string,
  lines: readonly object[],
): Promise<{ status: number; body: { accepted?: number; rejected?: number; error?: string } }> {
  const res = await fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': CLUSTER_ADMIN_KEY, 'content-type': 'application/x-ndjson' },
    body: lines.map((l) => JSON.stringify(l)).join('\n'),
  });
  const text = await res.text();
  let body: { accepted?: number; rejected?: number; error?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, body };
}

/** GET with the cluster's demo key: the status and the parsed body (null when not JSON or unreachable). */
export async function getJson<T>(base: string, path: string): Promise<{ status: number; body: T | null }> {
  try {
    const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': CLUSTER_DEMO_KEY } });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as T };
    } catch {
      return { status: res.status, body: null };
    }
  } catch {
    return { status: 0, body: null };
  }
}

/** A soccer fixture starting `startOffsetMs` from now. */
export function clusterFixture(id: string, startOffsetMs: number): object {
  return {
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'faults', name: 'Fault League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(Date.now() + startOffsetMs).toISOString(),
  };
}

/** A 1x2 market and `totals` markets: `count` markets in all. */
export function clusterMarkets(id: string, count: number): object {
  const out = [];
  let sel = 0;
  for (let m = 1; m <= count; m++) {
    out.push({
      market_id: m,
      key: m === 1 ? '1x2' : `totals:${(m % 40) / 4 + 0.5}`,
      name: `Market ${m}`,
      outcomes:
        m === 1
          ? [
              { selection_id: ++sel, code: 'home', label: 'Home', odds: 2.1 },
              { selection_id: ++sel, code: 'draw', label: 'Draw', odds: 3.3 },
              { selection_id: ++sel, code: 'away', label: 'Away', odds: 3.6 },
            ]
          : [
              { selection_id: ++sel, code: 'over', label: 'Over', odds: 1.9 },
              { selection_id: ++sel, code: 'under', label: 'Under', odds: 1.9 },
            ],
    });
  }
  return { type: 'markets', event_id: id, markets: out };
}

/** An event's whole life up to its result: fixture, markets, live, ended 2-1. */
export function endedEvent(id: string, marketCount: number): object[] {
  return [
    clusterFixture(id, -2 * 3_600_000),
    clusterMarkets(id, marketCount),
    { type: 'status', event_id: id, status: 'live' },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home: 2, away: 1 },
      period_scores: [
        { period: '1H', home: 1, away: 0 },
        { period: '2H', home: 1, away: 1 },
      ],
    },
  ];
}

/** The median of some figures. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
