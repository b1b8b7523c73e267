// Webhooks under kill -9: the delivering process (ROLE=all, embedded store) killed twice mid-delivery to a slow, sometimes failing receiver loses nothing; each subscription gets every change in order, a repeat only with the same webhook-id.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startListening, waitReady } from '../../helpers/child-service.js';
import { fixture, status } from '../../helpers/service.js';
import { specVerify, startReceiver, until, type Receiver } from './receiver.js';

const ADMIN = 'kill-admin';
const KEY = 'kill-demo';
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
};

function start(dataDir: string, port: number): Promise<{ child: ChildProcess; port: number; base: string }> {
  return startListening(dataDir, port, { admin: ADMIN, demo: KEY }, ENV);
}

async function call<T>(base: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'x-api-key': KEY, 'x-admin-key': ADMIN, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status}`);
  return (await res.json()) as T;
}

async function feed(base: string, messages: readonly object[]): Promise<void> {
  const res = await fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
    body: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
  });
  assert.equal(res.status, 200);
  assert.equal(((await res.json()) as { rejected: number }).rejected, 0);
}

/** The wall ms of the last change-log position the service has stored (write-behind). */
async function storedThrough(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { 'x-admin-key': ADMIN } })).text();
  const m = /^stream_replay_stored_through_ms (\S+)$/m.exec(text);
  return m === null ? 0 : Number(m[1]);
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('webhooks and kill -9', () => {
  let rx: Receiver;
  let dataDir: string;
  let child: ChildProcess | null = null;
  before(async () => {
    rx = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'sds-webhook-kill-'));
  });
  after(async () => {
    if (child !== null && child.exitCode === null) await kill(child);
    await rx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('killed twice mid-delivery, restarted: every change arrives, in order per subscription, repeats only with the same id', async () => {
    const first = await start(dataDir, 0);
    child = first.child;
    const { port, base } = first;
    await waitReady(base);
    const origin = new URL(rx.url).origin;
    const eventsA = ['e1', 'e2', 'e3', 'e4', 'e5', 'e6'];
    const eventsB = ['e4', 'e5', 'e6', 'e7', 'e8', 'e9'];
    const a = await call<{ id: string; secret: string }>(base, 'POST', '/v1/webhooks', {
      url: `${origin}/a`,
      types: ['status'],
      event_ids: eventsA,
    });
    const b = await call<{ id: string; secret: string }>(base, 'POST', '/v1/webhooks', {
      url: `${origin}/b`,
      types: ['status'],
      event_ids: eventsB,
    });
    const all = [...new Set([...eventsA, ...eventsB])];
    const startTime = new Date(Date.now() - 3_600_000).toISOString();
    await feed(
      base,
      all.map((id) => fixture(id, { start_time: startTime })),
    );

    // Slow (40 ms an answer) and failing one request in four: deliveries take seconds.
    rx.answer = ({ n }) => ({ status: n % 4 === 3 ? 500 : 200, delayMs: 40 });
    const rounds = ['live', 'interrupted', 'live'];
    const lastFeed = Date.now();
    for (const s of rounds) for (const id of all) await feed(base, [status(id, s)]);
    // The changes are in the stored log (the write-behind flushed): what a kill can lose from
    // here on is only the outbox's and the worker's own progress.
    await until(async () => (await storedThrough(base)) >= lastFeed, { timeoutMs: 10_000 });

    const accepted = () => rx.received.filter((r) => r.answered === 200);
    const expected = (events: string[]) => rounds.flatMap((s) => events.map((id) => `${id}:${s}`));
    const total = expected(eventsA).length + expected(eventsB).length;
    for (const share of [1 / 4, 1 / 2]) {
      await until(() => accepted().length >= total * share, { timeoutMs: 20_000 });
      assert.ok(accepted().length < total, 'killed before everything was delivered');
      await kill(child);
      child = (await start(dataDir, port)).child;
      await waitReady(base);
    }

    const distinct = (path: string) => {
      const seen = new Map<string, string>();
      for (const r of accepted()) {
        if (r.path !== path) continue;
        const id = String(r.headers['webhook-id']);
        const prior = seen.get(id);
        if (prior === undefined) seen.set(id, r.body);
        else assert.equal(r.body, prior, 'a repeat carries the same body');
      }
      return [...seen.values()].map((body) => {
        const d = JSON.parse(body) as { data: { event_id: string; status: string } };
        return `${d.data.event_id}:${d.data.status}`;
      });
    };
    await until(() => distinct('/a').length + distinct('/b').length >= total, { timeoutMs: 30_000 });
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(distinct('/a'), expected(eventsA));
    assert.deepEqual(distinct('/b'), expected(eventsB));
    for (const r of rx.received) {
      const secret = r.path === '/a' ? a.secret : b.secret;
      assert.ok(specVerify(secret, r.headers, r.body), 'every attempt is signed');
    }
    // Every refused attempt was tried again under its webhook-id until accepted.
    const acceptedIds = new Set(accepted().map((r) => r.headers['webhook-id']));
    for (const r of rx.received.filter((x) => x.answered === 500)) assert.ok(acceptedIds.has(r.headers['webhook-id']));
  });
});
