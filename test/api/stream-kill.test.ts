// The replay window after kill -9: an id inside the stored window resumes exactly, one after it gets snapshot_required `lost`, and a fact committed after the last segment makes every older id `lost` — never a silent gap.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SseClient, type SseEvent } from '../helpers/sse.js';
import { fixture, markets, odds, result, SEL, status } from '../helpers/service.js';
import { startListening, waitReady } from '../helpers/child-service.js';
import { compareLogPositions, parseLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { StoredLogWindow } from '../../src/store/store.js';
import { until } from '../helpers/until.js';

const ADMIN = 'kill-admin';
const KEY = 'kill-demo';
const key = { 'x-api-key': KEY };
const PATH = '/v1/stream?event_ids=k1';
/** Long enough that the test's feed and kill fit between two flushes once one has been seen. */
const FLUSH_MS = 1000;
const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;

/** Starts the service, on `port` (0: the kernel's choice), and waits until it listens. */
function start(dataDir: string, port: number): Promise<{ child: ChildProcess; port: number; base: string }> {
  return startListening(
    dataDir,
    port,
    { admin: ADMIN, demo: KEY },
    { FLUSH_INTERVAL_MS: String(FLUSH_MS), STREAM_HEARTBEAT_SECONDS: '3600' },
  );
}

async function feed(base: string, messages: readonly object[]): Promise<void> {
  const res = await fetch(`${base}/admin/v1/feed`, {
    method: 'POST',
    headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
    body: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
  });
  const report = (await res.json()) as { rejected: number };
  assert.equal(res.status, 200);
  assert.equal(report.rejected, 0, JSON.stringify(report));
}

/** The wall ms of the last position the service has stored (its /metrics). */
async function storedThrough(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { 'x-admin-key': ADMIN } })).text();
  const m = /^stream_replay_stored_through_ms (\S+)$/m.exec(text);
  return m === null ? 0 : Number(m[1]);
}

/** Waits until a flush has stored the window through `id`: the next flush is then about FLUSH_MS away. */
async function untilStored(base: string, id: string): Promise<void> {
  const ms = Number(id.split('-')[0]);
  for (let i = 0; i < 200; i++) {
    if ((await storedThrough(base)) >= ms) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the window was not stored through ${id}`);
}

/** The window stored in `dataDir`, as a process started after the kill reads it. */
async function storedWindow(dataDir: string): Promise<StoredLogWindow> {
  const reader = await openSqliteStore({ dataDir });
  try {
    return await reader.loadLogWindow(0);
  } finally {
    await reader.close();
  }
}

/** Whether the window stored in `dataDir` reaches the change `id` (a flush came before the kill). */
async function storedOnDisk(dataDir: string, id: string): Promise<boolean> {
  const through = (await storedWindow(dataDir)).through;
  return through !== null && compareLogPositions(through, parseLogPosition(id) as LogPosition) >= 0;
}

async function firstEvent(base: string, lastId: string): Promise<SseEvent | undefined> {
  const c = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastId });
  await c.untilCount(1);
  c.close();
  return c.changes[0];
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }
  });
}

describe('GET /v1/stream after kill -9', () => {
  it('an id inside the stored window resumes exactly; one after it is lost; a commit after the last segment makes every older id lost', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-stream-kill-'));
    const first = await start(dataDir, 0);
    const { port, base } = first;
    let child = first.child;
    const restart = async (): Promise<void> => {
      child = (await start(dataDir, port)).child;
      await waitReady(base);
    };
    try {
      await waitReady(base);
      let reference = await SseClient.connect(base, PATH, key);
      await feed(base, [fixture('k1'), markets('k1'), status('k1', 'live')]);
      await feed(base, [odds('k1', [{ selection_id: SEL.home, odds: 2.4 }])]);
      await reference.untilCount(4);
      const inside = String(reference.changes[1]?.id);
      // Between two flushes: this change is streamed, then the process dies before it is stored. A
      // starved machine may flush first (the change is stored): then, restarted, a change is stored
      // and the next one streamed and killed again.
      const seen = [...reference.changes];
      for (let attempt = 1, price = 3.9; ; attempt++, price += 0.1) {
        await untilStored(base, String(seen.at(-1)?.id));
        const before = reference.changes.length;
        await feed(base, [odds('k1', [{ selection_id: SEL.draw, odds: Number(price.toFixed(2)) }])]);
        await reference.untilCount(before + 1);
        await killed(child);
        reference.close();
        seen.push(reference.changes[before] as SseEvent);
        if (!(await storedOnDisk(dataDir, String(seen.at(-1)?.id)))) break;
        assert.ok(attempt < 5, `a flush stored the change before each of ${attempt} kills`);
        await restart();
        reference = await SseClient.connect(base, PATH, { ...key, 'last-event-id': String(seen.at(-1)?.id) });
        await feed(base, [odds('k1', [{ selection_id: SEL.away, odds: Number((price + 5).toFixed(2)) }])]);
        await reference.untilCount(1);
        seen.push(reference.changes[0] as SseEvent);
      }
      const unstored = String(seen.at(-1)?.id);
      const stored = seen.slice(0, -1);
      const lastStored = String(stored.at(-1)?.id);

      await restart();
      const lost = await firstEvent(base, unstored);
      assert.equal(lost?.event, 'snapshot_required', `${unstored} after the stored window`);
      assert.equal(lost?.data.reason, 'lost');
      const resumed = await SseClient.connect(base, PATH, { ...key, 'last-event-id': inside });
      const fromEnd = await SseClient.connect(base, PATH, { ...key, 'last-event-id': lastStored });
      await feed(base, [odds('k1', [{ selection_id: SEL.away, odds: 5.5 }])]);
      await fromEnd.untilCount(1);
      const after = fromEnd.changes;
      assert.equal(after[0]?.event, 'odds', 'the last stored id resumes exactly: the new change, nothing lost between');
      const afterInside = stored.slice(stored.findIndex((e) => e.id === inside) + 1);
      await resumed.untilCount(afterInside.length + after.length);
      await new Promise((r) => setTimeout(r, 100));
      resumed.close();
      fromEnd.close();
      assert.deepEqual(resumed.changes.map(view), [...afterInside, ...after].map(view));

      // A result commits before its entry is appended: killed before the next flush, the store holds
      // a fact no stored entry describes, and no id from before the restart may resume past it. (A
      // flush before the kill covers it: then, restarted, a corrected result is killed again.)
      const head = String(after.at(-1)?.id);
      await untilStored(base, head);
      for (let attempt = 1; ; attempt++) {
        await feed(base, [result('k1', attempt, 0)]);
        await killed(child);
        const window = await storedWindow(dataDir);
        if (window.facts > window.covered) break;
        assert.ok(attempt < 5, `a flush covered the result before each of ${attempt} kills`);
        await restart();
        // Just after a flush again: another event's fixture, stored.
        await feed(base, [fixture(`k-sync-${attempt}`)]);
        await until('a flush', async () => (await storedThrough(base)) > 0, 10_000).catch(() => undefined);
      }
      await restart();
      for (const id of [inside, head]) {
        const first = await firstEvent(base, id);
        assert.equal(first?.event, 'snapshot_required', id);
        assert.equal(first?.data.reason, 'lost', id);
      }
    } finally {
      await killed(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
