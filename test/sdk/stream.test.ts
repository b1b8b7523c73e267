// The SDK's stream client against a real service: resume after a dropped connection, snapshot_required, close, 429 on open.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  backoffDelay,
  seededRandom,
  SportsDataClient,
  SportsDataError,
  type FetchLike,
  type ReconnectInfo,
} from '../../sdk/src/index.js';
import { metric } from '../helpers/codings.js';
import { DEMO_KEY, feedOk, odds, prematchEvent, SEL } from '../helpers/service.js';
import { until } from '../helpers/until.js';
import { keyOn, TEST_PLANS } from '../helpers/usage.js';
import { collect, pricesOf } from './collect.js';
import { startProxy, type CuttableProxy } from './proxy.js';
import { startWorld, type SdkWorld } from './world.js';

const price = (i: number): number => Math.round((2 + i / 100) * 100) / 100;
const priceChange = (i: number) => odds('p1', [{ selection_id: SEL.home, odds: price(i) }]);

describe('stream client', () => {
  let w: SdkWorld;
  before(async () => {
    w = await startWorld(prematchEvent('p1'), { env: { PLANS: TEST_PLANS } });
  });
  after(() => w.svc.close());

  test('a connection dropped mid-way resumes by Last-Event-ID: nothing lost, nothing twice', async () => {
    const proxy: CuttableProxy = await startProxy(w.baseUrl);
    const reconnects: ReconnectInfo[] = [];
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const client = new SportsDataClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY });
    const stream = client.stream({
      query: { event_ids: 'p1', types: 'odds' },
      backoff: { initialMs: 10, random: seededRandom(7) },
      onReconnect: (info) => reconnects.push(info),
      // The reconnection waits until the test has fed what the client misses meanwhile.
      sleep: () => gate,
    });
    const c = collect(stream);
    try {
      // Fed once the service holds the stream (not after a fixed 100 ms: a loaded machine takes longer to connect).
      await until(
        'the stream open at the service',
        async () => (await metric(w.svc, 'stream_connections')) > 0,
        10_000,
      );
      for (let i = 1; i <= 5; i++) await feedOk(w.svc, [priceChange(i)]);
      await c.until((e) => e.length === 5);
      const idBeforeCut = c.events[4]?.id;
      proxy.cut();
      await c.until(() => reconnects.length === 1);
      for (let i = 6; i <= 10; i++) await feedOk(w.svc, [priceChange(i)]);
      openGate();
      await c.until((e) => e.length === 10);
      for (let i = 11; i <= 15; i++) await feedOk(w.svc, [priceChange(i)]);
      await c.until((e) => e.length === 15);
      assert.deepEqual(
        pricesOf(c.events, SEL.home),
        Array.from({ length: 15 }, (_, i) => price(i + 1)),
      );
      const ids = c.events.map((e) => e.id);
      assert.equal(new Set(ids).size, 15, 'no id twice');
      assert.equal(reconnects[0]?.lastEventId, idBeforeCut, 'resumed after the last id received');
      assert.equal(
        reconnects[0]?.delayMs,
        backoffDelay(0, { initialMs: 10, random: seededRandom(7) }),
        'seeded jitter',
      );
      assert.equal(proxy.connections, 2);
      assert.equal(stream.lastEventId, ids[14]);
    } finally {
      stream.close();
      await c.done;
      await proxy.close();
    }
  });

  test('snapshot_required for an unknown id is told to the caller and answered by a snapshot, then changes follow', async () => {
    const requests: Array<{ url: string; lastEventId: string | null }> = [];
    const f: FetchLike = (input, init) => {
      const headers = new Headers(init?.headers);
      if (input.includes('/v1/stream')) requests.push({ url: input, lastEventId: headers.get('last-event-id') });
      return fetch(input, init);
    };
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: DEMO_KEY, fetch: f, oddsFormat: 'fractional' });
    const stream = client.stream({ query: { event_ids: 'p1' }, lastEventId: 'not-one-of-ours' });
    const c = collect(stream);
    try {
      await c.until((e) => e.some((x) => x.event === 'markets'));
      const [first] = c.events;
      assert.equal(first?.event, 'snapshot_required');
      assert.equal(first?.event === 'snapshot_required' ? first.data.reason : null, 'unknown');
      const snapshot = c.events.slice(1);
      assert.ok(snapshot.every((e) => 'snapshot' in e.data && e.data.snapshot === true));
      const markets = snapshot.find((e) => e.event === 'markets');
      const added = markets?.event === 'markets' ? markets.data.added : undefined;
      assert.equal(added?.length, 2);
      const now = await client.getEventOdds('p1');
      const homeNow = now.markets[0]?.outcomes.find((o) => o.selection_id === SEL.home)?.odds;
      assert.equal(typeof homeNow, 'string', 'fractional, the client default');
      assert.equal(added?.[0]?.outcomes.find((o) => o.selection_id === SEL.home)?.odds, homeNow);
      assert.deepEqual(
        requests.map((r) => [new URL(r.url).searchParams.get('snapshot'), r.lastEventId]),
        [
          [null, 'not-one-of-ours'],
          ['true', null],
        ],
        're-opened with snapshot=true and no id',
      );
      await feedOk(w.svc, [odds('p1', [{ selection_id: SEL.home, odds: 4 }])]);
      await c.until((e) => pricesOf(e, SEL.home).includes('3/1'));
    } finally {
      stream.close();
      await c.done;
    }
  });

  test('429 on open (over the plan’s streams) waits Retry-After, then opens', async () => {
    const key = await keyOn(w.svc, 'free');
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: key });
    const holder = client.stream({ query: { event_ids: 'p1' }, heartbeats: true, snapshot: true });
    const held = collect(holder);
    await held.until((e) => e.length > 0);
    const waits: number[] = [];
    const reconnects: ReconnectInfo[] = [];
    const second = client.stream({
      query: { event_ids: 'p1' },
      snapshot: true,
      onReconnect: (i) => reconnects.push(i),
      sleep: async (ms) => {
        waits.push(ms);
        // The first stream closes while the second waits: its slot is free when the second retries.
        holder.close();
        await held.done;
      },
    });
    const c = collect(second);
    try {
      await c.until((e) => e.some((x) => x.event === 'markets'));
      assert.deepEqual(waits, [5000], 'Retry-After: 5');
      const err = reconnects[0]?.error;
      assert.ok(err instanceof SportsDataError);
      assert.deepEqual([err.status, err.code, err.retryAfter], [429, 'rate_limited', 5]);
    } finally {
      second.close();
      await c.done;
    }
  });

  test('an exhausted monthly quota on open is thrown to the caller, not retried', async () => {
    const key = await keyOn(w.svc, 'tiny');
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: key, retry: { maxRetries: 0 } });
    for (let i = 0; i < 10; i++) await client.listSports();
    const waits: number[] = [];
    const stream = client.stream({ sleep: async (ms) => void waits.push(ms) });
    const c = collect(stream);
    const err = await c.done;
    assert.ok(err instanceof SportsDataError);
    assert.equal(err.status, 429);
    assert.ok((err.retryAfter ?? 0) > 60, 'until the month turns');
    assert.deepEqual(waits, []);
  });
  test('close (quota_exhausted) mid-stream is yielded, then thrown as rate_limited: no reconnection', async () => {
    const key = await keyOn(w.svc, 'tiny');
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: key });
    const reconnects: ReconnectInfo[] = [];
    const stream = client.stream({
      query: { event_ids: 'p1' },
      snapshot: true,
      onReconnect: (i) => reconnects.push(i),
    });
    const c = collect(stream);
    await c.until((e) => e.some((x) => x.event === 'markets'));
    // The open counted one request; nine more spend the 10 of the plan; the next period of the stream finds none.
    for (let i = 0; i < 9; i++) await client.listSports();
    w.svc.clock.advance(5 * 60_000);
    const err = await c.done;
    assert.ok(err instanceof SportsDataError);
    assert.deepEqual([err.status, err.code], [429, 'rate_limited']);
    const last = c.events[c.events.length - 1];
    assert.deepEqual(last?.event === 'close' ? last.data.reason : last?.event, 'quota_exhausted');
    assert.deepEqual(reconnects, []);
  });
});

describe('stream client: the service closes the stream', () => {
  test('close (shutting_down) is yielded and the client goes on reconnecting', async () => {
    const w = await startWorld(prematchEvent('p1'));
    const reconnects: ReconnectInfo[] = [];
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: DEMO_KEY });
    const stream = client.stream({
      snapshot: true,
      onReconnect: (i) => reconnects.push(i),
      backoff: { initialMs: 10, random: seededRandom(1) },
      sleep: async () => stream.close(),
    });
    const c = collect(stream);
    await c.until((e) => e.some((x) => x.event === 'markets'));
    await w.svc.close();
    assert.equal(await c.done, null, 'ended by close(), not by an error');
    const last = c.events[c.events.length - 1];
    assert.deepEqual(last?.event === 'close' ? [last.event, last.data.reason] : last?.event, [
      'close',
      'shutting_down',
    ]);
    assert.equal(reconnects.length, 1);
  });
});

describe('stream client: cut before its first event', () => {
  test("resumes after the last heartbeat's position: what changed while it was cut still arrives", async () => {
    const w = await startWorld(prematchEvent('p1'), { env: { STREAM_HEARTBEAT_SECONDS: '1' } });
    const proxy: CuttableProxy = await startProxy(w.baseUrl);
    const reconnects: ReconnectInfo[] = [];
    const heartbeats: string[] = [];
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const client = new SportsDataClient({ baseUrl: proxy.baseUrl, apiKey: DEMO_KEY });
    const stream = client.stream({
      query: { event_ids: 'p1', types: 'odds' },
      heartbeats: true,
      backoff: { initialMs: 10, random: seededRandom(5) },
      onReconnect: (info) => reconnects.push(info),
      sleep: () => gate,
    });
    const c = collect(stream);
    try {
      // Nothing but heartbeats so far: no event id to resume after.
      await c.until((e) => e.some((x) => x.event === 'heartbeat'), 5000);
      for (const e of c.events) if (e.event === 'heartbeat') heartbeats.push((e.data as { position: string }).position);
      assert.equal(
        c.events.some((e) => e.id !== null),
        false,
      );
      proxy.cut();
      await c.until(() => reconnects.length === 1);
      await feedOk(w.svc, [priceChange(1)]);
      openGate();
      await c.until((e) => pricesOf(e, SEL.home).length === 1, 5000);
      assert.deepEqual(pricesOf(c.events, SEL.home), [price(1)]);
      const last = reconnects[0]?.lastEventId;
      assert.ok(last !== null && last !== undefined && heartbeats.length > 0, 'resumed from a position');
    } finally {
      stream.close();
      await c.done;
      await proxy.close();
      await w.svc.close();
    }
  });
});

describe('stream client: a silent connection', () => {
  test('no byte for idleTimeoutMs (not even a heartbeat) reconnects and resumes', async () => {
    const w = await startWorld(prematchEvent('p1'), { env: { STREAM_HEARTBEAT_SECONDS: '3600' } });
    const reconnects: ReconnectInfo[] = [];
    const client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: DEMO_KEY });
    const stream = client.stream({
      query: { event_ids: 'p1', types: 'odds,markets' },
      snapshot: true,
      idleTimeoutMs: 300,
      backoff: { initialMs: 10, random: seededRandom(3) },
      onReconnect: (i) => reconnects.push(i),
    });
    const c = collect(stream);
    try {
      await c.until((e) => e.some((x) => x.event === 'markets'));
      await feedOk(w.svc, [priceChange(1)]);
      await c.until((e) => pricesOf(e, SEL.home).length === 1);
      await c.until(() => reconnects.length >= 1, 3000);
      assert.equal(reconnects[0]?.lastEventId, c.events[c.events.length - 1]?.id);
      await feedOk(w.svc, [priceChange(2)]);
      await c.until((e) => pricesOf(e, SEL.home).length === 2);
      assert.equal(c.events.filter((x) => x.event === 'markets').length, 1, 'resumed exactly: no second snapshot');
      assert.deepEqual(pricesOf(c.events, SEL.home), [price(1), price(2)]);
    } finally {
      stream.close();
      await c.done;
      await w.svc.close();
    }
  });
});
