// Stale-feed protection over HTTP: a live event the feed stops updating is reported locked everywhere until fresh data arrives.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { JsonEntry, LogEntry } from '../../src/live/log-entry.js';
import type { BatchResponse, EventDetail, EventList, OddsPayload } from '../helpers/payloads.js';
import { SseClient } from '../helpers/sse.js';
import {
  ADMIN_KEY,
  DEMO_KEY,
  feedOk,
  liveEventMessages,
  markets,
  MINUTE,
  odds,
  prematchEvent,
  score,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';

const SECOND = 1000;

/** Every selection's lock in a payload's markets. */
const locks = (ms: Array<{ outcomes: Array<{ is_locked: boolean }> }>): boolean[] =>
  ms.flatMap((m) => m.outcomes.map((o) => o.is_locked));

/** The `status` entries the change log holds for an event, parsed. */
function statusEntries(svc: TestService, eventId: string): Array<Record<string, unknown>> {
  return svc.service.log
    .since(null)
    .filter((e): e is JsonEntry => e.kind === 'status' && e.eventId === eventId)
    .map((e) => JSON.parse(e.json) as Record<string, unknown>);
}

/** The change-log entries appended while `fn` runs. */
async function appended(svc: TestService, fn: () => Promise<unknown>): Promise<LogEntry[]> {
  const seen: LogEntry[] = [];
  const stop = svc.service.log.subscribe((e) => seen.push(e));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}

describe('stale-feed protection (STALE_LOCK_SECONDS=30)', () => {
  // One service; each test has events of its own, fed as it starts (the clock only moves forward).
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { STALE_LOCK_SECONDS: '30' } });
  });
  after(() => svc.close());

  const oddsOf = async (id: string): Promise<OddsPayload> => {
    const res = await svc.get<OddsPayload>(`/v1/events/${id}/odds`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const detailOf = async (id: string): Promise<EventDetail> => {
    const res = await svc.get<EventDetail>(`/v1/events/${id}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const listItem = async (id: string) => {
    const res = await svc.get<EventList>('/v1/events?status=all&limit=100');
    const item = res.body.events.find((e) => e.id === id);
    assert.ok(item !== undefined, `${id} in the list`);
    return item;
  };
  const OPEN = [false, false, false, false, false];
  const LOCKED = [true, true, true, true, true];
  const sweep = (): Promise<number> => svc.service.pipeline.sweepStale();
  /** The entries of one event appended while `fn` runs. */
  const appendedFor = async (id: string, fn: () => Promise<unknown>): Promise<LogEntry[]> =>
    (await appended(svc, fn)).filter((e) => e.eventId === id);

  test('a live event not updated for the limit has every selection locked in odds, detail, batch and list', async () => {
    await feedOk(svc, liveEventMessages('a1'));
    // Read once first: cached payloads must be rebuilt when the lock comes.
    assert.deepEqual(locks((await oddsOf('a1')).markets), OPEN);
    assert.equal((await listItem('a1')).markets_count, 2);

    svc.clock.advance(29 * SECOND);
    await sweep();
    assert.deepEqual(locks((await oddsOf('a1')).markets), OPEN);

    svc.clock.advance(1 * SECOND);
    await sweep();
    const o = await oddsOf('a1');
    assert.equal(o.status, 'live');
    assert.deepEqual(locks(o.markets), LOCKED);
    // Locked selections keep their last odds.
    assert.deepEqual(
      o.markets[0]?.outcomes.map((x) => x.odds),
      [2.5, 3.2, 2.9],
    );
    const d = await detailOf('a1');
    assert.deepEqual(locks(d.markets), LOCKED);
    assert.equal(d.markets_count, 0);
    const b = await svc.inject<BatchResponse>('POST', '/v1/events/batch', { body: { ids: ['a1'] } });
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(locks(b.body.events.a1?.markets ?? []), LOCKED);
    const item = await listItem('a1');
    assert.equal(item.status, 'live');
    assert.equal(item.markets_count, 0);
  });

  test('the lock is one `status` entry in the change log with lock_reason stale_feed', async () => {
    await feedOk(svc, liveEventMessages('b1'));
    const entries = await appendedFor('b1', async () => {
      svc.clock.advance(31 * SECOND);
      await sweep();
      await sweep(); // a second sweep adds nothing
    });
    assert.deepEqual(
      entries.map((e) => e.kind),
      ['status'],
    );
    const data = JSON.parse((entries[0] as JsonEntry).json) as Record<string, unknown>;
    assert.equal(data.event_id, 'b1');
    assert.equal(data.status, 'live');
    assert.equal(data.is_locked, true);
    assert.equal(data.lock_reason, 'stale_feed');
  });

  test('new odds unlock the event: a status entry first (is_locked false), then the odds with current prices', async () => {
    await feedOk(svc, liveEventMessages('c1'));
    svc.clock.advance(40 * SECOND);
    await sweep();
    const entries = await appendedFor('c1', () => feedOk(svc, [odds('c1', [{ selection_id: SEL.home, odds: 2.2 }])]));
    assert.deepEqual(
      entries.map((e) => e.kind),
      ['status', 'odds'],
    );
    const unlock = JSON.parse((entries[0] as JsonEntry).json) as Record<string, unknown>;
    assert.equal(unlock.is_locked, false);
    assert.equal(unlock.lock_reason, null);
    const tick = entries[1];
    assert.ok(tick?.kind === 'odds');
    assert.deepEqual([...tick.changes.locked], [0]);

    const o = await oddsOf('c1');
    assert.deepEqual(locks(o.markets), OPEN);
    assert.equal(o.markets[0]?.outcomes[0]?.odds, 2.2);
    assert.equal((await listItem('c1')).markets_count, 2);
    assert.deepEqual(
      statusEntries(svc, 'c1').map((s) => s.lock_reason),
      [null, 'stale_feed', null],
    );
  });

  test('a message that changes nothing (the same score sent again) is fresh data too', async () => {
    await feedOk(svc, liveEventMessages('d1'));
    svc.clock.advance(35 * SECOND);
    await sweep();
    const entries = await appendedFor('d1', () => feedOk(svc, [score('d1', 1, 0, { period: '1H', clock: '30:00' })]));
    assert.deepEqual(
      entries.map((e) => e.kind),
      ['status'],
    );
    assert.deepEqual(locks((await oddsOf('d1')).markets), OPEN);
    // And the limit counts again from that message.
    svc.clock.advance(29 * SECOND);
    await sweep();
    assert.deepEqual(locks((await oddsOf('d1')).markets), OPEN);
    svc.clock.advance(1 * SECOND);
    await sweep();
    assert.deepEqual(locks((await oddsOf('d1')).markets), LOCKED);
  });

  test('a message about another event, or a refused one, is no fresh data for this event', async () => {
    await feedOk(svc, [...liveEventMessages('e1'), ...liveEventMessages('e2')]);
    svc.clock.advance(20 * SECOND);
    await feedOk(svc, [odds('e2', [{ selection_id: SEL.home, odds: 2.1 }])]);
    const report = await svc.feed([odds('e1', [{ selection_id: 999_999, odds: 2 }])]);
    assert.equal(report.rejected, 1);
    svc.clock.advance(10 * SECOND);
    await sweep();
    assert.deepEqual(locks((await oddsOf('e1')).markets), LOCKED);
    assert.deepEqual(locks((await oddsOf('e2')).markets), OPEN);
  });

  test("a producer's own locks are kept when the stale lock lifts", async () => {
    await feedOk(svc, [...liveEventMessages('f1'), odds('f1', [{ selection_id: SEL.over, is_locked: true }])]);
    svc.clock.advance(30 * SECOND);
    await sweep();
    await feedOk(svc, [odds('f1', [{ selection_id: SEL.home, odds: 2.4 }])]);
    assert.deepEqual(locks((await oddsOf('f1')).markets), [false, false, false, true, false]);
  });

  test('only live events: prematch and suspended events are never stale-locked', async () => {
    await feedOk(svc, [...prematchEvent('g-pre'), ...liveEventMessages('g-susp'), status('g-susp', 'suspended')]);
    svc.clock.advance(10 * MINUTE);
    await sweep();
    assert.deepEqual(locks((await oddsOf('g-pre')).markets), OPEN);
    assert.deepEqual(statusEntries(svc, 'g-pre'), []);
    // A suspended event is locked for its status, and stays so reported.
    assert.deepEqual(
      statusEntries(svc, 'g-susp').map((s) => s.lock_reason),
      [null, 'suspended'],
    );
    // Back to live, it counts from the status message that brought it back.
    await feedOk(svc, [status('g-susp', 'live')]);
    await sweep();
    assert.deepEqual(locks((await oddsOf('g-susp')).markets), OPEN);
  });

  test('an event that kicks off counts from its `live` status, not from its last prematch message', async () => {
    await feedOk(svc, prematchEvent('h1'));
    svc.clock.advance(5 * MINUTE);
    await feedOk(svc, [status('h1', 'live')]);
    svc.clock.advance(29 * SECOND);
    await sweep();
    assert.deepEqual(locks((await oddsOf('h1')).markets), OPEN);
  });

  test('new markets for a stale event unlock it as well', async () => {
    await feedOk(svc, liveEventMessages('i1'));
    svc.clock.advance(30 * SECOND);
    await sweep();
    await feedOk(svc, [markets('i1', { home: 1.8 })]);
    const o = await oddsOf('i1');
    assert.deepEqual(locks(o.markets), OPEN);
    assert.equal(o.markets[0]?.outcomes[0]?.odds, 1.8);
  });

  test('a bet check on a stale-locked event answers as for any live event (pending)', async () => {
    await feedOk(svc, liveEventMessages('j1'));
    svc.clock.advance(30 * SECOND);
    await sweep();
    const res = await svc.inject<{ status: string; legs: Array<{ result: string; reason: string | null }> }>(
      'POST',
      '/v1/bets/check',
      { body: { legs: [{ event_id: 'j1', market_id: 1, selection_id: SEL.home }] } },
    );
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'pending');
    assert.equal(res.body.legs[0]?.reason, 'live');
  });

  test('a producer cannot send the internal stale-lock message', async () => {
    await feedOk(svc, liveEventMessages('k1'));
    const report = await svc.feed([{ type: 'feed_stale', event_id: 'k1', stale: true }]);
    assert.equal(report.rejected, 1);
    assert.deepEqual(locks((await oddsOf('k1')).markets), OPEN);
  });

  test('GET /metrics counts the events stale-locked now', async () => {
    const gauge = async (): Promise<number> => {
      const res = await svc.get('/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } });
      return Number(/^feed_stale_locked_events (\d+)$/m.exec(res.text)?.[1]);
    };
    // Every earlier test's live events are locked by now; then two more.
    svc.clock.advance(30 * SECOND);
    await sweep();
    const before = await gauge();
    assert.equal(before, svc.service.readModel.staleCount());
    await feedOk(svc, [...liveEventMessages('m1'), ...liveEventMessages('m2')]);
    assert.equal(await gauge(), before);
    svc.clock.advance(30 * SECOND);
    await sweep();
    assert.equal(await gauge(), before + 2);
    await feedOk(svc, [score('m1', 2, 0)]);
    assert.equal(await gauge(), before + 1);
  });
});

describe('stale-feed protection on the stream', () => {
  let svc: TestService;
  let base: string;
  after(() => svc.close());

  test('the lock and its lift are `status` events; the odds after the lift carry their own locks; a snapshot shows the lock', async () => {
    svc = await startService({ env: { STALE_LOCK_SECONDS: '30', STREAM_HEARTBEAT_SECONDS: '3600' } });
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(svc.service.app.server.address() as AddressInfo).port}`;
    await feedOk(svc, liveEventMessages('live1'));
    const c = await SseClient.connect(base, '/v1/stream?event_ids=live1&types=status,odds', { 'x-api-key': DEMO_KEY });
    svc.clock.advance(30 * SECOND);
    await svc.service.pipeline.sweepStale();
    await c.until((ev) => ev.some((e) => e.event === 'status'), 5000, 'the lock');
    await feedOk(svc, [odds('live1', [{ selection_id: SEL.home, odds: 2.2 }])]);
    await c.until((ev) => ev.some((e) => e.event === 'odds'), 5000, 'the odds');
    c.close();
    assert.deepEqual(
      c.changes.map((e) => [e.event, e.data.is_locked, e.data.lock_reason]),
      [
        ['status', true, 'stale_feed'],
        ['status', false, null],
        ['odds', undefined, undefined],
      ],
    );
    assert.deepEqual(c.changes[2]?.data.changes, [
      { market_id: 1, selection_id: SEL.home, odds: 2.2, is_locked: false },
    ]);

    svc.clock.advance(30 * SECOND);
    await svc.service.pipeline.sweepStale();
    const snap = await SseClient.connect(base, '/v1/stream?event_ids=live1&types=status,markets&snapshot=true', {
      'x-api-key': DEMO_KEY,
    });
    await snap.untilCount(2);
    snap.close();
    const [st, mk] = snap.changes;
    assert.equal(st?.data.lock_reason, 'stale_feed');
    const added = mk?.data.added as Array<{ outcomes: Array<{ is_locked: boolean }> }>;
    assert.deepEqual(locks(added), [true, true, true, true, true]);
  });
});

describe('stale-feed protection across a restart', () => {
  let svc: TestService | null = null;
  const dirs: string[] = [];
  after(async () => {
    await svc?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  test('an event locked for a stale feed is still locked after a restart, until fresh data arrives', async () => {
    const first = await startService({ env: { STALE_LOCK_SECONDS: '30' } });
    dirs.push(first.dataDir);
    await feedOk(first, liveEventMessages('live1'));
    first.clock.advance(30 * SECOND);
    await first.service.pipeline.sweepStale();
    const t = first.clock.now();
    await first.close({ keepDir: true });

    svc = await startService({ dataDir: first.dataDir, now: t, env: { STALE_LOCK_SECONDS: '30' } });
    const before = await svc.get<OddsPayload>('/v1/events/live1/odds');
    assert.deepEqual(locks(before.body.markets), [true, true, true, true, true]);
    await feedOk(svc, [odds('live1', [{ selection_id: SEL.draw, odds: 3.4 }])]);
    const afterFresh = await svc.get<OddsPayload>('/v1/events/live1/odds');
    assert.deepEqual(locks(afterFresh.body.markets), [false, false, false, false, false]);
  });

  test('after a restart a live event gets the whole limit before it is locked', async () => {
    const first = await startService({ env: { STALE_LOCK_SECONDS: '30' } });
    dirs.push(first.dataDir);
    await feedOk(first, liveEventMessages('live1'));
    const t = first.clock.now() + 10 * MINUTE;
    await first.close({ keepDir: true });
    const again = await startService({ dataDir: first.dataDir, now: t, env: { STALE_LOCK_SECONDS: '30' } });
    try {
      again.clock.advance(29 * SECOND);
      assert.equal(await again.service.pipeline.sweepStale(), 0);
      again.clock.advance(1 * SECOND);
      assert.equal(await again.service.pipeline.sweepStale(), 1);
    } finally {
      await again.close();
    }
  });
});

describe('STALE_LOCK_SECONDS=0', () => {
  let svc: TestService;
  after(() => svc.close());

  test('turns the protection off: a quiet live event stays open', async () => {
    svc = await startService({ env: { STALE_LOCK_SECONDS: '0' } });
    await feedOk(svc, liveEventMessages('live1'));
    svc.clock.advance(60 * MINUTE);
    assert.equal(await svc.service.pipeline.sweepStale(), 0);
    const o = await svc.get<OddsPayload>('/v1/events/live1/odds');
    assert.deepEqual(locks(o.body.markets), [false, false, false, false, false]);
  });
});
