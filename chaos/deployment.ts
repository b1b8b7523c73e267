// The scaled-out deployment a chaos campaign runs on: its own PostgreSQL database, its own redis-server, API nodes and pipeline candidates as child processes on fixed loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

export const ADMIN_KEY = 'chaos-admin';
export const DEMO_KEY = 'chaos-demo';
const CLI = join(import.meta.dirname, '..', 'src', 'cli.js');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

/** Whether a GET answers `status` (any status when undefined) within `timeoutMs`. */
export async function answers(url: string, status?: number, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return status === undefined || res.status === status;
  } catch {
    return false;
  }
}

export interface Node {
  role: 'api' | 'pipeline';
  name: string;
  port: number;
  base: string;
  child: ChildProcess | null;
  /** The last lines the process wrote. */
  output: string[];
  /** Set while the campaign itself stops the process (a kill -9 fault, the end). */
  stopping: boolean;
}

const alive = (c: ChildProcess | null): c is ChildProcess => c !== null && c.exitCode === null && c.signalCode === null;

/** An admin connection to PostgreSQL's maintenance database (given by --database-url). */
async function adminQuery(adminUrl: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface DeploymentOptions {
  adminDatabaseUrl: string;
  apiNodes: number;
  pipelines: number;
  /** Extra environment for every node. */
  env: Record<string, string>;
  /** A node's process ended without the campaign stopping it (a crash): its code or signal and last lines. */
  onCrash: (n: Node, how: string, lastLines: string[]) => void;
  /** Where each node's whole output is appended (`<name>.log`, every run of it), or null. */
  logDir: string | null;
}

export class Deployment {
  readonly database = `chaos_${randomBytes(5).toString('hex')}`;
  readonly prefix = `chaos-${randomBytes(5).toString('hex')}`;
  readonly api: Node[] = [];
  readonly pipeline: Node[] = [];
  redisPort = 0;
  private redis: ChildProcess | null = null;
  private databaseCreated = false;
  private connectionsRefused = false;

  constructor(private readonly opts: DeploymentOptions) {}

  get databaseUrl(): string {
    const url = new URL(this.opts.adminDatabaseUrl);
    url.pathname = `/${this.database}`;
    return url.toString();
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.redisPort}`;
  }

  /** Every child's pid (what cleanup ends, and nothing else). */
  pids(): number[] {
    return [this.redis, ...this.api.map((n) => n.child), ...this.pipeline.map((n) => n.child)]
      .filter(alive)
      .map((c) => c.pid as number);
  }

  async start(log: (s: string) => void): Promise<void> {
    await adminQuery(this.opts.adminDatabaseUrl, `create database ${this.database}`);
    this.databaseCreated = true;
    this.redisPort = await freePort();
    await this.startRedis();
    for (let i = 0; i < this.opts.pipelines; i++) {
      this.pipeline.push(this.newNode('pipeline', `pipeline-${i + 1}`, await freePort()));
    }
    for (let i = 0; i < this.opts.apiNodes; i++) this.api.push(this.newNode('api', `api-${i + 1}`, await freePort()));
    for (const n of this.pipeline) await this.startNode(n);
    log(`pipeline candidates on ${this.pipeline.map((n) => n.port).join(', ')}; waiting for a leader`);
    if ((await this.leader(120_000)) === null) throw new Error(`no pipeline leader within 120 s\n${this.logs()}`);
    for (const n of this.api) {
      await this.startNode(n);
      await this.ready(n, 120_000);
    }
    log(
      `API nodes on ${this.api.map((n) => n.port).join(', ')}; Redis on ${this.redisPort}; database ${this.database}`,
    );
  }

  private newNode(role: 'api' | 'pipeline', name: string, port: number): Node {
    return { role, name, port, base: `http://127.0.0.1:${port}`, child: null, output: [], stopping: false };
  }

  private nodeEnv(n: Node): Record<string, string> {
    return {
      ...process.env,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redisUrl,
      REDIS_PREFIX: this.prefix,
      FEED: 'none',
      ADMIN_KEY,
      DEMO_API_KEY: DEMO_KEY,
      DEMO_PLAN: 'unlimited',
      LOG_LEVEL: 'warn',
      ACCESS_LOG: 'off',
      PIPELINE_URL: this.pipeline.map((p) => p.base).join(','),
      ...this.opts.env,
      ROLE: n.role,
      PORT: String(n.port),
      HOST: '127.0.0.1',
    } as Record<string, string>;
  }

  /** Starts (or restarts) a node on its port and waits until it listens (a few tries if the port is still held). */
  async startNode(n: Node): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const child = spawn(process.execPath, [CLI, 'serve'], {
        env: this.nodeEnv(n),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      n.child = child;
      n.stopping = false;
      child.once('exit', (code, signal) => {
        if (!n.stopping && n.child === child) this.opts.onCrash(n, signal ?? `code ${code}`, n.output.slice(-8));
      });
      const keep = (chunk: Buffer): void => {
        n.output.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((l) => l !== ''),
        );
        if (n.output.length > 60) n.output.splice(0, n.output.length - 60);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      if (this.opts.logDir !== null) {
        mkdirSync(this.opts.logDir, { recursive: true });
        const file = createWriteStream(join(this.opts.logDir, `${n.name}.log`), { flags: 'a' });
        file.write(`--- ${new Date().toISOString()} started (pid ${child.pid})\n`);
        child.stdout?.pipe(file, { end: false });
        child.stderr?.pipe(file, { end: false });
        child.once('exit', (code, signal) => file.end(`--- ${new Date().toISOString()} exited (${signal ?? code})\n`));
      }
      const t0 = Date.now();
      while (alive(child) && Date.now() - t0 < 60_000) {
        if (await answers(`${n.base}/livez`, 200, 1000)) return;
        await sleep(50);
      }
      n.stopping = true;
      if (alive(child)) child.kill('SIGKILL');
      await sleep(500);
    }
    throw new Error(`${n.name} did not start on port ${n.port}: ${n.output.slice(-5).join(' | ')}`);
  }

  /** kill -9, and waits until the process is gone. */
  async kill(n: Node): Promise<void> {
    const c = n.child;
    if (!alive(c)) return;
    n.stopping = true;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await exited;
  }

  isAlive(n: Node): boolean {
    return alive(n.child);
  }

  async ready(n: Node, timeoutMs: number): Promise<boolean> {
    const t0 = Date.now();
    while (Date.now() - t0 < timeoutMs) {
      if (await answers(`${n.base}/readyz`, 200, 1000)) return true;
      await sleep(100);
    }
    return false;
  }

  /** The candidate answering /readyz 200 (the leader), waiting up to `timeoutMs`; null if none. */
  async leader(timeoutMs: number): Promise<Node | null> {
    const t0 = Date.now();
    do {
      for (const n of this.pipeline) if (alive(n.child) && (await answers(`${n.base}/readyz`, 200, 1000))) return n;
      await sleep(50);
    } while (Date.now() - t0 < timeoutMs);
    return null;
  }

  // --- Redis ---

  async startRedis(): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(this.redisPort),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--enable-debug-command',
          'local',
        ],
        { stdio: 'ignore' },
      );
      this.redis = child;
      for (let i = 0; i < 100 && alive(child); i++) {
        if (await this.redisPing()) return;
        await sleep(50);
      }
      if (alive(child)) child.kill('SIGKILL');
      await sleep(300);
    }
    throw new Error(`redis-server did not start on port ${this.redisPort}`);
  }

  async redisPing(): Promise<boolean> {
    const c = this.redisClient();
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      c.disconnect();
    }
  }

  /** A one-off client on the campaign's redis-server (no retries, no offline queue). */
  redisClient(): Redis {
    const c = new Redis({
      port: this.redisPort,
      host: '127.0.0.1',
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      connectTimeout: 2000,
    });
    c.on('error', () => undefined);
    return c;
  }

  /** Stops redis-server (`signal`: SIGKILL for a crash, SIGTERM for a restart) and waits until it is gone. */
  async stopRedis(signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const c = this.redis;
    if (!alive(c)) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await Promise.race([exited, sleep(10_000)]);
    if (alive(c)) {
      c.kill('SIGKILL');
      await exited;
    }
  }

  // --- PostgreSQL ---

  /** Runs SQL on the maintenance database (never on the campaign's own, which may be refusing). */
  admin(sql: string): Promise<pg.QueryResult> {
    return adminQuery(this.opts.adminDatabaseUrl, sql);
  }

  /** Ends every session of the campaign's database: the number ended. */
  async terminateSessions(): Promise<number> {
    const r = await this.admin(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${this.database}' and pid <> pg_backend_pid()`,
    );
    return r.rowCount ?? 0;
  }

  async refuseConnections(): Promise<number> {
    this.connectionsRefused = true;
    await this.admin(`alter database ${this.database} allow_connections false`);
    return this.terminateSessions();
  }

  async allowConnections(): Promise<void> {
    await this.admin(`alter database ${this.database} allow_connections true`);
    this.connectionsRefused = false;
  }

  logs(): string {
    return [...this.pipeline, ...this.api].map((n) => `--- ${n.name} :${n.port}\n${n.output.join('\n')}`).join('\n');
  }

  /** Stops every child by pid (SIGTERM, SIGKILL after 10 s), undoes a refusal, drops the database. */
  async stop(): Promise<void> {
    const nodes = [...this.api, ...this.pipeline];
    for (const n of nodes) n.stopping = true;
    for (const n of nodes) if (alive(n.child)) n.child.kill('SIGTERM');
    await Promise.all(
      nodes.map(async (n) => {
        const c = n.child;
        if (!alive(c)) return;
        const exited = new Promise((r) => c.once('exit', r));
        await Promise.race([exited, sleep(10_000)]);
        if (alive(c)) {
          c.kill('SIGKILL');
          await exited;
        }
      }),
    );
    await this.stopRedis('SIGKILL');
    if (this.databaseCreated) {
      if (this.connectionsRefused) await this.allowConnections().catch(() => undefined);
      await this.admin(`drop database if exists ${this.database} with (force)`).catch(() => undefined);
      this.databaseCreated = false;
    }
  }

  /** The last resort of an `exit` handler: SIGKILL every child now (nothing async runs there). */
  killNow(): void {
    for (const n of [...this.api, ...this.pipeline]) n.stopping = true;
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
