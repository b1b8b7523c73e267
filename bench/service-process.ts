// The real service as a child process (`node dist/src/cli.js serve`), fed through its admin feed like any producer.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { FeedMessage } from '../src/feed/messages.js';
import { freePort, waitForHttp, type Child, type Children } from './children.js';
import { rawGet, type RawAnswer } from './http-get.js';

export interface ServiceHandle {
  baseUrl: string;
  apiKey: string;
  adminKey: string;
  child: Child;
  /** Posts messages as NDJSON in bodies of at most `batchBytes`; throws on any rejected line. */
  feed(messages: FeedMessage[], batchBytes?: number): Promise<number>;
  /** Posts one NDJSON body as it is; resolves with the accepted count once the service has applied it, throws on any rejected line. */
  postNdjson(body: string | Uint8Array): Promise<number>;
  /** Pending write-behind items (`store_write_behind_backlog` on GET /metrics). */
  backlog(): Promise<number>;
  /** The unlabelled samples of GET /metrics (admin key), by name. */
  metrics(): Promise<Map<string, number>>;
  /** Waits until write-behind has flushed everything to the store, so no flush runs under load. */
  settle(timeoutMs?: number): Promise<void>;
  /** GET with the client key (and any other headers): status, content type and coding, and the exact body bytes. */
  get(path: string, headers?: Record<string, string>): Promise<RawAnswer>;
}

export interface ServiceStartOptions {
  /** Where the service keeps its embedded store (removed by the caller). */
  dataDir: string;
  /** Extra environment, e.g. FLUSH_INTERVAL_MS for a future section. */
  env?: Record<string, string>;
  /** Node flags for the service process (e.g. `--cpu-prof` to see where its time goes). */
  nodeArgs?: string[];
  /**
   * A file that receives the service's stdout (its pino log) instead of the pipe to the bench,
   * so writing the log costs what it costs in production and nothing in the bench process.
   */
  stdoutFile?: string;
  /** How long the service may take to listen (a restart on a big store loads it first); default 30 s. */
  listenTimeoutMs?: number;
}

export const CLI_PATH = join(import.meta.dirname, '..', 'src', 'cli.js');

export async function startService(children: Children, opts: ServiceStartOptions): Promise<ServiceHandle> {
  const port = await freePort();
  const apiKey = `sk_bench_${randomBytes(12).toString('hex')}`;
  const adminKey = `admin_bench_${randomBytes(12).toString('hex')}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const stdoutFd = opts.stdoutFile === undefined ? null : openSync(opts.stdoutFile, 'w');
  const child = children.spawn('service', process.execPath, [...(opts.nodeArgs ?? []), CLI_PATH, 'serve'], {
    ...(stdoutFd !== null ? { stdio: ['ignore', stdoutFd, 'pipe'] } : {}),
    env: {
      // PATH etc. stay; anything a developer's .env sets is overridden by what the benchmark needs.
      ...process.env,
      FEED: 'none',
      ADMIN_KEY: adminKey,
      DEMO_API_KEY: apiKey,
      DEMO_PLAN: 'unlimited',
      DATA_DIR: opts.dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: '',
      LOG_LEVEL: process.env.BENCH_SERVICE_LOG_LEVEL ?? 'warn',
      ...opts.env,
    },
  });
  if (stdoutFd !== null) closeSync(stdoutFd); // the child holds its own copy
  await waitForHttp(`${baseUrl}/livez`, child, opts.listenTimeoutMs);

  const adminHeaders = { 'x-admin-key': adminKey };

  async function postFeed(body: string | Uint8Array): Promise<number> {
    const res = await fetch(`${baseUrl}/admin/v1/feed`, {
      method: 'POST',
      headers: { ...adminHeaders, 'content-type': 'application/x-ndjson' },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`feed POST answered ${res.status}: ${text.slice(0, 500)}`);
    const report = JSON.parse(text) as {
      accepted: number;
      rejected: number;
      errors: Array<{ line: number; message: string }>;
    };
    if (report.rejected > 0) {
      const first = report.errors
        .slice(0, 5)
        .map((e) => `  line ${e.line}: ${e.message}`)
        .join('\n');
      throw new Error(`the service rejected ${report.rejected} feed line(s):\n${first}`);
    }
    return report.accepted;
  }

  async function metrics(): Promise<Map<string, number>> {
    const res = await fetch(`${baseUrl}/metrics`, { headers: adminHeaders });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET /metrics answered ${res.status}: ${text.slice(0, 300)}`);
    const out = new Map<string, number>();
    for (const m of text.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*) (\S+)$/gm)) out.set(m[1]!, Number(m[2]));
    return out;
  }

  async function backlog(): Promise<number> {
    const value = (await metrics()).get('store_write_behind_backlog');
    if (value === undefined) throw new Error('GET /metrics has no store_write_behind_backlog gauge');
    return value;
  }

  return {
    baseUrl,
    apiKey,
    adminKey,
    child,
    async feed(messages, batchBytes = 4 * 1024 * 1024) {
      let accepted = 0;
      let batch: string[] = [];
      let size = 0;
      for (const m of messages) {
        const line = JSON.stringify(m);
        if (batch.length > 0 && size + line.length > batchBytes) {
          accepted += await postFeed(batch.join('\n'));
          batch = [];
          size = 0;
        }
        batch.push(line);
        size += line.length + 1;
      }
      if (batch.length > 0) accepted += await postFeed(batch.join('\n'));
      return accepted;
    },
    postNdjson: postFeed,
    backlog,
    metrics,
    async settle(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const pending = await backlog();
        if (pending === 0) return;
        if (Date.now() > deadline) throw new Error(`write-behind backlog still ${pending} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    get(path, headers = {}) {
      return rawGet(`${baseUrl}${path}`, { ...headers, 'x-api-key': apiKey });
    },
  };
}
