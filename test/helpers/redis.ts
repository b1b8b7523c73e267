// Redis for tests: is a server there (skip, or fail under CI), a random key prefix per test, and cleanup of that prefix.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The server the Redis suites use: TEST_REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let availability: Promise<string | false> | null = null;

async function probe(): Promise<string | false> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let cause: Error | null = null;
  client.on('error', (err: Error) => {
    cause = err;
  });
  try {
    await client.connect();
    await client.ping();
    return false;
  } catch (error) {
    const failure: unknown = cause ?? error;
    const reason = `no Redis answers at ${TEST_REDIS_URL} (${failure instanceof Error ? failure.message : String(failure)}); set TEST_REDIS_URL to run these tests`;
    // CI always provides the server: a missing one there is a broken setup, not a reason to skip.
    if (process.env.CI === 'true') throw new Error(`CI=true but ${reason}`);
    return reason;
  } finally {
    client.disconnect();
  }
}

/**
 * `false` when the server answers, else the reason to skip (for node:test's `skip` option).
 * Throws under CI=true when nothing answers.
 */
export function redisSkip(): Promise<string | false> {
  availability ??= probe();
  return availability;
}

/** A client on the test server (close it with quit()). */
export function testRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
}

/** A prefix no other test (or installation) uses: `sdstest-<random>`. */
export function testPrefix(): string {
  return `sdstest-${randomBytes(6).toString('hex')}`;
}

/** Every key under the prefix (inspection). */
export async function keysOf(redis: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

/** Deletes every key under the prefix (a test's cleanup, or "Redis lost everything" for this installation). */
export async function dropPrefix(redis: Redis, prefix: string): Promise<number> {
  const keys = await keysOf(redis, prefix);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  return keys.length;
}

/**
 * A redis-server of one test alone (no persistence: a restart loses everything), answering PING on
 * `port`. The shared server is never stopped; this one a test may kill or stall (`debugCommand`:
 * DEBUG SLEEP allowed, on Redis 7 and later). Throws if our process exits
 * (its port taken by another listener, whose PING would otherwise pass for ours).
 */
export async function startOwnRedis(port: number, opts: { debugCommand?: boolean } = {}): Promise<ChildProcess> {
  // DEBUG (SLEEP: a stalled server) is refused by Redis 7 unless enabled; only loopback clients may use it.
  const debug = opts.debugCommand === true ? ['--enable-debug-command', 'local'] : [];
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...debug],
    {
      stdio: 'ignore',
    },
  );
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    for (let i = 0; i < 100 && alive(); i++) {
      try {
        await client.connect();
        await client.ping();
        // A stranger on the port answers too: ours is the one that is still running after it.
        await new Promise((r) => setTimeout(r, 20));
        if (alive()) return child;
      } catch {
        client.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    client.disconnect();
  }
  if (alive()) child.kill('SIGKILL');
  throw new Error(`redis-server on port ${port} did not start (exit code ${child.exitCode})`);
}

/** Kills a server of startOwnRedis and waits until it is gone. */
export async function stopOwnRedis(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
