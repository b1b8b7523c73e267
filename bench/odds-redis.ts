// Section `odds-redis`: the odds endpoint of an API node (ROLE=api) whose read model came through the Redis change stream, against raw node:http.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { FeedMessage } from '../src/feed/messages.js';
import { freePort, waitForHttp, type Child } from './children.js';
import { measureLoad, medianRun, serverMicrosPerRequest, type LoadRun } from './measure.js';
import { readProcessMemory } from './proc-status.js';
import { startRawBaseline } from './raw-baseline.js';
import { check, type BenchContext, type ResultRow, type Section, type SectionResult } from './section.js';
import { CLI_PATH } from './service-process.js';
import { buildWorld } from './world.js';

/** The servers this section scales out on (a throwaway schema and key prefix, removed after). */
const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function unavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
  } catch (err) {
    return `no PostgreSQL at ${BENCH_DATABASE_URL} (${err instanceof Error ? err.message : String(err)}; set BENCH_DATABASE_URL)`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(BENCH_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    return `no Redis at ${BENCH_REDIS_URL} (${err instanceof Error ? err.message : String(err)}; set BENCH_REDIS_URL)`;
  } finally {
    redis.disconnect();
  }
  return null;
}

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

interface Node {
  child: Child;
  base: string;
}

/** Feeds NDJSON bodies of at most `batchBytes` to `base`; throws on any rejected line. */
async function feed(base: string, adminKey: string, messages: FeedMessage[], batchBytes = 4 * 1024 * 1024) {
  const post = async (lines: string[]): Promise<void> => {
    const res = await fetch(`${base}/admin/v1/feed`, {
      method: 'POST',
      headers: { 'x-admin-key': adminKey, 'content-type': 'application/x-ndjson' },
      body: lines.join('\n'),
    });
    const text = await res.text();
    const report = JSON.parse(text) as { rejected?: number };
    if (!res.ok || report.rejected !== 0) throw new Error(`feed answered ${res.status}: ${text.slice(0, 500)}`);
  };
  let batch: string[] = [];
  let size = 0;
  for (const m of messages) {
    const line = JSON.stringify(m);
    if (batch.length > 0 && size + line.length > batchBytes) {
      await post(batch);
      batch = [];
      size = 0;
    }
    batch.push(line);
    size += line.length + 1;
  }
  if (batch.length > 0) await post(batch);
}

async function run(ctx: BenchContext): Promise<SectionResult> {
  const why = await unavailable();
  if (why !== null) return { rows: [], checks: [], notes: [`odds-redis skipped: ${why}`] };

  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const prefix = `bench-${randomBytes(6).toString('hex')}`;
  await sql(`create schema ${schema}`);
  const url = new URL(BENCH_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const apiKey = `sk_bench_${randomBytes(12).toString('hex')}`;
  const adminKey = `admin_bench_${randomBytes(12).toString('hex')}`;
  const [pipelinePort, apiPort] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    DATABASE_URL: url.toString(),
    REDIS_URL: BENCH_REDIS_URL,
    REDIS_PREFIX: prefix,
    FEED: 'none',
    ADMIN_KEY: adminKey,
    DEMO_API_KEY: apiKey,
    DEMO_PLAN: 'unlimited',
    HOST: '127.0.0.1',
    PUBLIC_URL: '',
    LOG_LEVEL: 'warn',
    PIPELINE_URL: `http://127.0.0.1:${pipelinePort}`,
  };
  const start = async (role: 'pipeline' | 'api', port: number): Promise<Node> => {
    const child = ctx.children.spawn(
      `${role} node`,
      process.execPath,
      [...ctx.settings.serviceNodeArgs, CLI_PATH, 'serve'],
      {
        env: { ...env, ROLE: role, PORT: String(port) },
      },
    );
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/readyz`, child);
    return { child, base };
  };
  const nodes: Node[] = [];
  try {
    const pipelineNode = await start('pipeline', pipelinePort);
    nodes.push(pipelineNode);
    const apiNode = await start('api', apiPort);
    nodes.push(apiNode);

    const world = buildWorld({ now: Date.now() });
    // Through the API node: it relays each body to the leader and answers once it has applied the
    // leader's change-stream entries, so this is the world's trip through Redis, end to end.
    const fedAt = Date.now();
    await feed(apiNode.base, adminKey, world.messages);
    const throughStreamMs = Date.now() - fedAt;
    ctx.log(
      `[odds-redis] ${world.messages.length} messages through the leader and the stream in ${throughStreamMs} ms`,
    );

    const path = `/v1/events/${encodeURIComponent(world.deepEventId)}/odds`;
    const res = await fetch(`${apiNode.base}${path}`, { headers: { 'x-api-key': apiKey } });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`GET ${path} on the API node answered ${res.status}`);
    const endpoint = { path, contentType: res.headers.get('content-type') ?? '', body };
    const dir = join(ctx.tempDir, 'odds-redis');
    await mkdir(dir, { recursive: true });
    const raw = await startRawBaseline(ctx.children, dir, [endpoint]);

    const runs: Record<'raw' | 'api node', LoadRun[]> = { raw: [], 'api node': [] };
    const targets = {
      raw: { base: raw.baseUrl, pid: raw.child.process.pid },
      'api node': { base: apiNode.base, pid: apiNode.child.process.pid },
    };
    const s = ctx.settings;
    for (let i = 1; i <= s.runs; i++) {
      for (const target of ['raw', 'api node'] as const) {
        const r = await measureLoad({
          url: `${targets[target].base}${path}`,
          headers: { 'x-api-key': apiKey },
          connections: s.connections,
          pipelining: s.pipelining,
          warmupSeconds: s.warmupSeconds,
          durationSeconds: s.durationSeconds,
          ...(targets[target].pid !== undefined ? { serverPid: targets[target].pid } : {}),
        });
        ctx.log(
          `[odds-redis] ${target.padEnd(8)} run ${i}/${s.runs}: ${r.requestsPerSec.toFixed(1)} req/s, p50 ${r.latencyP50Ms} ms, p99 ${r.latencyP99Ms} ms, CPU server ${r.serverCpuPercent?.toFixed(0) ?? '?'}%`,
        );
        runs[target].push(r);
      }
    }
    const row = (target: 'raw' | 'api node'): ResultRow => ({
      section: 'odds-redis',
      target,
      median: medianRun(runs[target]),
      runs: runs[target],
    });
    const rawRow = row('raw');
    const apiRow = row('api node');
    const ratio = apiRow.median.requestsPerSec / rawRow.median.requestsPerSec;
    const memory = apiNode.child.process.pid !== undefined ? await readProcessMemory(apiNode.child.process.pid) : null;
    const notes = [
      `odds-redis payload: GET ${path} = ${body.length.toLocaleString('en-US')} bytes, served by a ROLE=api node fed through the change stream`,
      `odds-redis: ${world.stats.events} events / ${world.stats.totalSelections.toLocaleString('en-US')} selections fed through the leader and the stream in ${throughStreamMs} ms` +
        (memory !== null
          ? `; API node RSS ${(memory.rssBytes / 1048576).toFixed(0)} MB (peak ${(memory.peakRssBytes / 1048576).toFixed(0)} MB)`
          : ''),
    ];
    const rawCost = serverMicrosPerRequest(rawRow.median);
    const apiCost = serverMicrosPerRequest(apiRow.median);
    if (rawCost !== null && apiCost !== null) {
      notes.push(`odds-redis server CPU per request: API node ${apiCost.toFixed(0)} µs, raw ${rawCost.toFixed(0)} µs`);
    }
    return {
      rows: [rawRow, apiRow],
      checks: [check('odds-redis', 'odds-redis: API node/raw', ratio, '>=', 0.8)],
      notes,
      data: { path, payloadBytes: body.length, throughStreamMs, world: world.stats, apiNodeMemory: memory },
    };
  } finally {
    for (const n of nodes.reverse()) await ctx.children.stop(n.child);
    await sql(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    const redis = new Redis(BENCH_REDIS_URL, { maxRetriesPerRequest: 1 });
    const keys = await redis.keys(`${prefix}:*`).catch(() => [] as string[]);
    if (keys.length > 0) await redis.del(...keys).catch(() => undefined);
    redis.disconnect();
  }
}

export const oddsRedisSection: Section = {
  name: 'odds-redis',
  description:
    'GET /v1/events/{id}/odds of the 1,000-market event on a ROLE=api node fed through Redis (BENCH_DATABASE_URL, BENCH_REDIS_URL), vs raw node:http',
  run,
};
