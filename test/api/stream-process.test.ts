// STREAM_PROCESS=on: streams move to a process of their own once caught up; clients see exactly what they would have seen without it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import { SseClient, type SseEvent } from '../helpers/sse.js';
import { lifeOf, listen } from '../helpers/stream-life.js';
import { ADMIN_KEY, DEMO_KEY, feedOk, startService, type TestService } from '../helpers/service.js';
import { until } from '../helpers/until.js';

const key = { 'x-api-key': DEMO_KEY };
const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;

async function metric(svc: TestService, name: string): Promise<number> {
  const text = (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.split(' ')[1]);
}

/** Waits until the stream process writes `n` streams. */
async function moved(svc: TestService, n: number): Promise<void> {
  // A hand-over through the child's pipe: 30 s, room for a machine busy with other work (5 s was tight).
  const deadline = Date.now() + 30_000;
  let held = 0;
  while ((held = await metric(svc, 'stream_process_connections')) !== n) {
    if (Date.now() > deadline) throw new Error(`the stream process held ${held} streams, never ${n}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The demo key's requests counted this month, read from the counters (reading them counts nothing). */
async function counted(svc: TestService): Promise<number> {
  const [demo] = await svc.service.store.listApiKeys(); // the only key
  return (await svc.service.usage.snapshot(demo!.id, svc.clock.now())).thisMonth;
}

/** The stream processes this test's services started (children of this process). */
function streamProcesses(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (ppid === process.pid && cmd.includes('stream-process-main.js')) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const PATHS = ['/v1/stream', '/v1/stream?markets=totals', '/v1/stream?event_ids=p2&odds_format=american'];

/** Opens the paths' streams, waits for `ready`, feeds two events' lives in turn, and returns what each saw. */
async function run(svc: TestService, ready: () => Promise<void>, seed: number): Promise<string[][]> {
  const base = await listen(svc);
  const clients = await Promise.all(PATHS.map((p) => SseClient.connect(base, p, key)));
  await ready();
  const rng = new Rng(seed);
  const a = lifeOf('p1', rng);
  const b = lifeOf('p2', rng);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== undefined) await feedOk(svc, a[i] as object[]);
    if (b[i] !== undefined) await feedOk(svc, b[i] as object[]);
  }
  for (const c of clients) await c.until((ev) => ev.some((e) => e.event === 'result' && e.data.event_id === 'p2'));
  // The firehose saw p1's result too; give any straggler a moment, then compare everything.
  await new Promise((r) => setTimeout(r, 200));
  for (const c of clients) c.close();
  return clients.map((c) => c.changes.map(view));
}

describe('GET /v1/stream with STREAM_PROCESS=on', () => {
  test('moved streams receive exactly what streams of the service receive (filters, formats, ids)', async () => {
    const env = { STREAM_HEARTBEAT_SECONDS: '3600' };
    const on = await startService({ env: { ...env, STREAM_PROCESS: 'on' } });
    const off = await startService({ env: { ...env, STREAM_PROCESS: 'off' } });
    try {
      const seen = await run(on, () => moved(on, PATHS.length), 5);
      const expected = await run(off, async () => undefined, 5);
      for (let i = 0; i < PATHS.length; i++) {
        assert.ok((expected[i] as string[]).length > 10, `${PATHS[i]}: ${(expected[i] as string[]).length} events`);
        assert.deepEqual(seen[i], expected[i], PATHS[i]);
      }
      assert.ok((await metric(on, 'stream_process_connections')) <= PATHS.length);
      // The stream process reports what it wrote: /metrics counts it (at its next one-second report).
      const sentOff = await metric(off, 'stream_bytes_sent_total{encoding="identity"}');
      let sent = 0;
      await until('the stream process reporting its bytes', async () => {
        sent = await metric(on, 'stream_bytes_sent_total{encoding="identity"}');
        return sent >= sentOff * 0.99;
      }).catch(() => undefined);
      assert.ok(sent >= sentOff * 0.99, `bytes counted ${sent} against ${sentOff} without the process`);
    } finally {
      await on.close();
      await off.close();
    }
  });

  test('a client dropped after its stream moved resumes exactly with Last-Event-ID', async () => {
    const svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600', STREAM_PROCESS: 'on' } });
    try {
      const base = await listen(svc);
      const steady = await SseClient.connect(base, '/v1/stream', key);
      const dropped = await SseClient.connect(base, '/v1/stream', key);
      await moved(svc, 2);
      const ticks = lifeOf('r1', new Rng(9));
      const half = Math.floor(ticks.length / 2);
      for (const t of ticks.slice(0, half)) await feedOk(svc, t);
      await dropped.untilCount(steady.changes.length > 0 ? 3 : 3);
      dropped.close();
      const lastId = dropped.lastId;
      assert.notEqual(lastId, null);
      for (const t of ticks.slice(half)) await feedOk(svc, t);
      const again = await SseClient.connect(base, '/v1/stream', { ...key, 'last-event-id': lastId as string });
      await steady.until((ev) => ev.some((e) => e.event === 'result'));
      // The result, then its settlement (written by a later batch).
      const settled = (ev: Array<{ event: string; text: string }>): boolean =>
        ev.some((e) => e.event === 'settlement' && e.text.includes('"settled":true'));
      await again.until(settled);
      const joined = [...dropped.changes, ...again.changes].map(view);
      assert.deepEqual(joined, steady.changes.map(view));
      // The resumed stream was served here, then moved too.
      await moved(svc, 2);
      steady.close();
      again.close();
    } finally {
      await svc.close();
    }
  });

  test('moved streams count against the plan, are charged each started 5 minutes, and get heartbeats', async () => {
    const svc = await startService({ env: { DEMO_PLAN: 'free', STREAM_HEARTBEAT_SECONDS: '1', STREAM_PROCESS: 'on' } });
    try {
      const base = await listen(svc);
      const usage = async (): Promise<number> =>
        ((await svc.get('/v1/usage')).body as { current: { this_month: number } }).current.this_month;
      const first = await SseClient.connect(base, '/v1/stream', key);
      await moved(svc, 1);
      const second = await SseClient.open(base, '/v1/stream', key);
      assert.ok(!(second instanceof SseClient));
      assert.equal(second.status, 429, 'the free plan holds one stream, wherever it is written');
      await first.until((ev) => ev.some((e) => e.event === 'heartbeat'), 5000, 'a heartbeat from the stream process');
      const hb = first.events.find((e) => e.event === 'heartbeat');
      assert.match(String(hb?.data.position), /^\d+-\d+$/);
      svc.clock.advance(1000);
      const opened = await usage();
      svc.clock.advance(5 * 60_000 + 1);
      // Charged when the stream process next reads the clock (its sample comes every second).
      await until('the second period charged', async () => (await counted(svc)) >= opened + 1);
      assert.equal((await usage()) - opened, 2, 'a second period started (and one usage call)');
      first.close();
    } finally {
      await svc.close();
    }
  });

  test('shutting down closes moved streams with a reason; a killed stream process is replaced and clients resume exactly', async () => {
    const svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600', STREAM_PROCESS: 'on' } });
    let closed = false;
    try {
      const base = await listen(svc);
      const steady = await SseClient.connect(base, '/v1/stream', key);
      await moved(svc, 1);
      const ticks = lifeOf('k1', new Rng(4));
      for (const t of ticks.slice(0, 4)) await feedOk(svc, t);
      await steady.untilCount(4);
      const children = streamProcesses();
      assert.equal(children.length, 1, 'one stream process');
      process.kill(children[0] as number, 'SIGKILL');
      await steady.until(() => steady.ended, 5000, 'the end of the stream');
      const again = await SseClient.connect(base, '/v1/stream', { ...key, 'last-event-id': steady.lastId as string });
      for (const t of ticks.slice(4)) await feedOk(svc, t);
      // The result, then its settlement (written by a later batch).
      const settled = (ev: Array<{ event: string; text: string }>): boolean =>
        ev.some((e) => e.event === 'settlement' && e.text.includes('"settled":true'));
      await again.until(settled);
      await moved(svc, 1); // a new stream process took it
      const all = [...steady.changes, ...again.changes].map((e) => e.id);
      assert.equal(new Set(all).size, all.length, 'nothing twice');
      assert.ok(again.changes.some((e) => e.event === 'result'));
      closed = true;
      await svc.close();
      await again.until(() => again.ended, 5000, 'the end');
      const last = again.events.at(-1);
      assert.equal(last?.event, 'close');
      assert.equal(last?.data.reason, 'shutting_down');
    } finally {
      if (!closed) await svc.close();
    }
  });

  test('a stream process that falls behind sheds its streams (overloaded); they resume here exactly and stay', async () => {
    const svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600', STREAM_PROCESS: 'on' } });
    const [pid] = streamProcesses();
    try {
      const base = await listen(svc);
      const c = await SseClient.connect(base, '/v1/stream', key);
      await moved(svc, 1);
      const ticks = lifeOf('o1', new Rng(12));
      for (const t of ticks.slice(0, 3)) await feedOk(svc, t);
      await c.untilCount(3);
      // Frozen: it acknowledges nothing while the feed goes on.
      process.kill(pid as number, 'SIGSTOP');
      for (const t of ticks.slice(3, 8)) await feedOk(svc, t);
      await new Promise((r) => setTimeout(r, 5600));
      process.kill(pid as number, 'SIGCONT');
      await c.until(() => c.ended, 5000, 'the end of the stream');
      const close = c.events.at(-1);
      assert.equal(close?.event, 'close');
      assert.equal(close?.data.reason, 'overloaded');
      const again = await SseClient.connect(base, '/v1/stream', { ...key, 'last-event-id': c.lastId as string });
      for (const t of ticks.slice(8)) await feedOk(svc, t);
      // The result, then its settlement (written by a later batch).
      const settled = (ev: Array<{ event: string; text: string }>): boolean =>
        ev.some((e) => e.event === 'settlement' && e.text.includes('"settled":true'));
      await again.until(settled);
      // Exactly the life of the event, once: what the service would have sent one client.
      const got = [...c.changes, ...again.changes].filter((e) => e.event !== 'close');
      const ids = got.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'nothing twice');
      const off = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600' } });
      try {
        const ref = await SseClient.connect(await listen(off), '/v1/stream', key);
        for (const t of ticks) await feedOk(off, t);
        await ref.until(settled);
        await new Promise((r) => setTimeout(r, 100));
        assert.deepEqual(
          got.map((e) => `${e.event} ${e.text}`),
          ref.changes.map((e) => `${e.event} ${e.text}`),
        );
        ref.close();
      } finally {
        await off.close();
      }
      // It does not move straight back (the backoff).
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(await metric(svc, 'stream_process_connections'), 0);
      again.close();
    } finally {
      try {
        process.kill(pid as number, 'SIGCONT');
      } catch {
        // gone
      }
      await svc.close();
    }
  });
});
