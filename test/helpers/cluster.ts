// A scaled-out deployment on loopback for tests: API nodes and pipeline candidates as child processes on one PostgreSQL schema and Redis prefix.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createTestSchema, postgresSkip, type TestSchema } from './postgres.js';
import { dropPrefix, redisSkip, testPrefix, TEST_REDIS_URL } from './redis.js';

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
  /** Starts one more node (a restart, a late joiner). */
  startNode(role: 'api' | 'pipeline', port?: number): Promise<ClusterNode>;
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
  const schema = await createTestSchema();
  const prefix = testPrefix();
  const pipelinePorts = await Promise.all(Array.from({ length: opts.pipelineNodes ?? 2 }, () => freePort()));
  const env: Record<string, string> = {
    DATABASE_URL: schema.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    FEED: 'none',
    ADMIN_KEY: CLUSTER_ADMIN_KEY,
    DEMO_API_KEY: CLUSTER_DEMO_KEY,
    DEMO_PLAN: 'unlimited',
    LOG_LEVEL: 'warn',
    PIPELINE_URL: pipelinePorts.map((p) => `http://127.0.0.1:${p}`).join(','),
    ...opts.env,
  };
  const nodes: ClusterNode[] = [];

  const startNode = async (role: 'api' | 'pipeline', port?: number): Promise<ClusterNode> => {
    const p = port ?? (await freePort());
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...process.env, ...env, ROLE: role, PORT: String(p), HOST: '127.0.0.1' },
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
    const node: ClusterNode = { role, port: p, base: `http://127.0.0.1:${p}`, child, output, exited };
    nodes.push(node);
    // A standby answers /readyz 503 but /livez 200: listening is what "started" means here.
    await waitFor(`${node.base}/livez`, (s) => s === 200, 20_000);
    return node;
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
      await schema.drop().catch(() => undefined);
      const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
      await dropPrefix(redis, prefix).catch(() => undefined);
      redis.disconnect();
    },
  };
  try {
    for (const port of pipelinePorts) cluster.pipeline.push(await startNode('pipeline', port));
    await cluster.leader();
    for (let i = 0; i < (opts.apiNodes ?? 2); i++) {
      const node = await startNode('api');
      await waitFor(`${node.base}/readyz`, (s) => s === 200, 20_000);
      cluster.api.push(node);
    }
  } catch (err) {
    const logs = cluster.logs();
    await cluster.stop();
    throw new Error(`the cluster did not start: ${err instanceof Error ? err.message : String(err)}\n${logs}`);
  }
  return cluster;
}
