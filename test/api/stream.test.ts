// GET /v1/stream (decisions.md "Real-time delivery"): events, filters, exact resume, snapshot, snapshot_required, refusals.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import { metric } from '../helpers/codings.js';
import { SseClient, type SseEvent, type SseRefusal } from '../helpers/sse.js';
import { lifeOf, listen } from '../helpers/stream-life.js';
import {
  ADMIN_KEY,
  DEMO_KEY,
  feedOk,
  fixture,
  LA_LIGA,
  markets,
  odds,
  result,
  score,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';
import { until } from '../helpers/until.js';

const key = { 'x-api-key': DEMO_KEY };
const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;

describe('GET /v1/stream', () => {
  let svc: TestService;
  let base: string;
  before(async () => {
    svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600' } });
    base = await listen(svc);
  });
  after(async () => svc.close());

  test('refusals are JSON with their status before any event: no key, bad filters', async () => {
    const cases: Array<[string, Record<string, string>, number, RegExp]> = [
      ['/v1/stream', {}, 401, /X-API-Key header or the api_key= query parameter/],
      ['/v1/stream?api_key=', {}, 401, /api_key=/],
      ['/v1/stream?types=odds,gossip', key, 400, /types.*gossip/],
      ['/v1/stream?sport=curling-on-mars', key, 400, /sport/],
      [`/v1/stream?event_ids=${Array.from({ length: 51 }, (_, i) => `e${i}`).join(',')}`, key, 400, /event_ids.*50/],
      ['/v1/stream?markets=1x2,t%20t', key, 400, /markets/],
      ['/v1/stream?odds_format=roman', key, 400, /odds_format/],
    ];
    for (const [path, headers, code, message] of cases) {
      const r = (await SseClient.open(base, path, headers)) as SseRefusal;
      assert.equal(r.status, code, path);
      assert.match(String(r.headers['content-type']), /application\/json/);
      assert.equal(typeof r.body.error, 'string');
      assert.match(r.body.message, message, path);
    }
  });

  test('every change arrives as its event, with growing ids and the documented data', async () => {
    const c = await SseClient.connect(base, '/v1/stream?event_ids=a1', key);
    await feedOk(svc, [fixture('a1'), markets('a1')]);
    await feedOk(svc, [status('a1', 'live'), score('a1', 1, 0, { period: '1H', clock: '12:00' })]);
    await feedOk(svc, [
      odds('a1', [
        { selection_id: SEL.home, odds: 2.05 },
        { selection_id: SEL.draw, is_locked: true },
      ]),
    ]);
    await feedOk(svc, [result('a1', 1, 0)]);
    await c.until((ev) => ev.some((e) => e.event === 'result'), 5000, 'the result');
    c.close();
    const names = c.changes.map((e) => e.event);
    assert.deepEqual(names.slice(0, 5), ['status', 'markets', 'status', 'score', 'odds'], names.join(' '));
    assert.ok(names.includes('result'));
    const ids = c.changes.map((e) => e.id);
    assert.ok(
      ids.every((id) => id !== null && /^\d+-\d+$/.test(id)),
      ids.join(','),
    );
    for (let i = 1; i < ids.length; i++) {
      const [am, as] = String(ids[i - 1])
        .split('-')
        .map(Number);
      const [bm, bs] = String(ids[i]).split('-').map(Number);
      assert.ok(
        (bm as number) > (am as number) || ((bm as number) === (am as number) && (bs as number) > (as as number)),
      );
    }
    const o = c.changes.find((e) => e.event === 'odds')?.data;
    assert.deepEqual(o, {
      event_id: 'a1',
      changes: [
        { market_id: 1, selection_id: SEL.home, odds: 2.05, is_locked: false },
        { market_id: 1, selection_id: SEL.draw, odds: 3.2, is_locked: true },
      ],
    });
    const m = c.changes.find((e) => e.event === 'markets')?.data as {
      added: Array<{ key: string }>;
      withdrawn: number[];
    };
    assert.deepEqual(
      m.added.map((x) => x.key),
      ['1x2', 'totals:2.5'],
    );
    const live = c.changes.filter((e) => e.event === 'status')[1]?.data;
    assert.equal(live?.status, 'live');
    assert.equal(live?.is_locked, false);
    assert.equal(live?.lock_reason, null);
    const s = c.changes.find((e) => e.event === 'score')?.data;
    assert.deepEqual([s?.event_id, s?.score, s?.period, s?.clock], ['a1', { home: 1, away: 0 }, '1H', '12:00']);
    const r = c.changes.find((e) => e.event === 'result')?.data;
    assert.deepEqual([r?.event_id, r?.status, r?.score], ['a1', 'ended', { home: 1, away: 0 }]);
  });

  test('filters: sport, league, event ids, types, market families and the odds format', async () => {
    const streams = {
      laLiga: await SseClient.connect(base, `/v1/stream?league=${LA_LIGA.slug}`, key),
      basketball: await SseClient.connect(base, '/v1/stream?sport=basketball', key),
      oddsOnly: await SseClient.connect(base, '/v1/stream?types=odds&event_ids=f1,f2', key),
      totals: await SseClient.connect(base, '/v1/stream?event_ids=f1&markets=totals&types=odds,markets', key),
      fractional: await SseClient.connect(base, '/v1/stream?event_ids=f1&types=odds&odds_format=fractional', key),
    };
    await feedOk(svc, [fixture('f1', { league: LA_LIGA }), markets('f1'), fixture('f2'), markets('f2')]);
    await feedOk(svc, [
      odds('f1', [
        { selection_id: SEL.home, odds: 2.75 },
        { selection_id: SEL.over, odds: 1.5 },
      ]),
      odds('f2', [{ selection_id: SEL.home, odds: 4 }]),
    ]);
    await streams.oddsOnly.untilCount(2);
    await streams.fractional.untilCount(1);
    await streams.totals.untilCount(2);
    await streams.laLiga.untilCount(3);
    for (const c of Object.values(streams)) c.close();

    assert.ok(
      streams.laLiga.changes.every((e) => e.data.event_id === 'f1'),
      'league filter',
    );
    assert.equal(streams.basketball.changes.length, 0, 'sport filter');
    assert.deepEqual(
      streams.oddsOnly.changes.map((e) => [e.event, e.data.event_id]),
      [
        ['odds', 'f1'],
        ['odds', 'f2'],
      ],
    );
    const [marketsEv, oddsEv] = streams.totals.changes;
    assert.deepEqual(
      (marketsEv?.data.added as Array<{ key: string }>).map((m) => m.key),
      ['totals:2.5'],
    );
    assert.deepEqual(
      (oddsEv?.data.changes as Array<{ selection_id: number }>).map((c) => c.selection_id),
      [SEL.over],
    );
    const frac = streams.fractional.changes[0]?.data.changes as Array<{ odds: unknown }>;
    assert.deepEqual(
      frac.map((c) => c.odds),
      ['7/4', '1/2'],
    );
  });

  test('a client dropped at random points and resumed with Last-Event-ID sees exactly what a never-dropped client saw', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rng = new Rng(seed);
      const ids = [`r${seed}a`, `r${seed}b`];
      const path = `/v1/stream?event_ids=${ids.join(',')}`;
      const reference = await SseClient.connect(base, path, key);
      const seen: SseEvent[] = [];
      let client = await SseClient.connect(base, path, key);
      let taken = 0;
      const lives = ids.map((id) => lifeOf(id, rng));
      const steps = Math.max(...lives.map((l) => l.length));
      for (let i = 0; i < steps; i++) {
        const batch = lives.flatMap((l) => l[i] ?? []);
        if (batch.length > 0) await feedOk(svc, batch);
        if (rng.next() < 0.3) {
          // Cut off at a random point: keep what arrived, reconnect with the last id received.
          await new Promise((r) => setTimeout(r, rng.uniform(0, 15)));
          seen.push(...client.changes.slice(taken));
          const last = [...seen].reverse().find((e) => e.id !== null)?.id;
          client.close();
          client = await SseClient.connect(
            base,
            path,
            last === undefined || last === null ? key : { ...key, 'last-event-id': last },
          );
          taken = 0;
        }
      }
      const total = reference.changes.length === 0 ? 1 : undefined;
      await reference.until((ev) => ev.filter((e) => e.event === 'result').length === 2, 5000, 'both results');
      await client.until(
        () => seen.length + client.changes.length >= reference.changes.length,
        5000,
        `seed ${seed}: as many events as the reference`,
      );
      seen.push(...client.changes.slice(taken));
      reference.close();
      client.close();
      assert.equal(total, undefined);
      assert.deepEqual(seen.map(view), reference.changes.map(view), `seed ${seed}`);
    }
  });

  test('snapshot=true sends the current state first, flagged, then every change after it with no gap', async () => {
    await feedOk(svc, [fixture('s1'), markets('s1'), status('s1', 'live'), score('s1', 2, 1, { period: '2H' })]);
    await feedOk(svc, [odds('s1', [{ selection_id: SEL.home, odds: 1.4 }])]);
    const c = await SseClient.connect(base, '/v1/stream?event_ids=s1&snapshot=true', key);
    await feedOk(svc, [odds('s1', [{ selection_id: SEL.away, odds: 7.5 }])]);
    await c.untilCount(4);
    c.close();
    const [st, sc, mk, next] = c.changes;
    assert.deepEqual([st?.event, sc?.event, mk?.event], ['status', 'score', 'markets']);
    for (const e of [st, sc, mk]) assert.equal(e?.data.snapshot, true);
    assert.equal(st?.data.status, 'live');
    assert.deepEqual(sc?.data.score, { home: 2, away: 1 });
    const home = (
      mk?.data.added as Array<{ outcomes: Array<{ selection_id: number; odds: number }> }>
    )[0]?.outcomes.find((o) => o.selection_id === SEL.home);
    assert.equal(home?.odds, 1.4, 'the snapshot has the current price');
    assert.equal(next?.event, 'odds');
    assert.equal(next?.data.snapshot, undefined);
    assert.deepEqual((next?.data.changes as Array<{ odds: number }>)[0]?.odds, 7.5);
    // Only the last snapshot event carries a position a client may resume from exactly.
    assert.match(String(st?.id), /~\d+$/);
    assert.match(String(mk?.id), /^\d+-\d+$/);
  });

  test('a resumable Last-Event-ID wins over snapshot=true: an EventSource URL with snapshot=true resumes without a new snapshot', async () => {
    await feedOk(svc, [fixture('s2'), markets('s2'), status('s2', 'live')]);
    const first = await SseClient.connect(base, '/v1/stream?event_ids=s2&snapshot=true', key);
    await first.untilCount(2);
    first.close();
    assert.ok(first.changes.every((e) => e.data.snapshot === true));
    const lastId = first.lastId;
    assert.match(String(lastId), /^\d+-\d+$/);
    // Missed while away.
    await feedOk(svc, [odds('s2', [{ selection_id: SEL.home, odds: 3.3 }])]);
    const again = await SseClient.connect(base, '/v1/stream?event_ids=s2&snapshot=true', {
      ...key,
      'last-event-id': String(lastId),
    });
    await feedOk(svc, [odds('s2', [{ selection_id: SEL.away, odds: 4.4 }])]);
    await again.untilCount(2);
    again.close();
    assert.deepEqual(
      again.changes.map((e) => [e.event, e.data.snapshot, (e.data.changes as Array<{ odds: number }>)[0]?.odds]),
      [
        ['odds', undefined, 3.3],
        ['odds', undefined, 4.4],
      ],
    );
  });

  test('an unknown id, one from an unfinished snapshot or from before the log began is answered with snapshot_required', async () => {
    await feedOk(svc, [fixture('u1')]);
    const cases: Array<[string, string]> = [
      ['not-a-position', 'unknown'],
      ['99999999999999-0', 'unknown'],
      ['1000-0', 'reset'],
      [`${svc.service.log.headId}~3`, 'snapshot_incomplete'],
    ];
    for (const [id, reason] of cases) {
      const c = await SseClient.connect(base, '/v1/stream?event_ids=u1', { ...key, 'last-event-id': id });
      await c.untilCount(1);
      c.close();
      const first = c.changes[0];
      assert.equal(first?.event, 'snapshot_required', id);
      assert.equal(first?.data.reason, reason, id);
      assert.equal(first?.data.last_event_id, id);
      assert.match(String(first?.id), /^\d+-\d+$/, 'it carries the position to resume from');
    }
    // The query parameter works like the header (EventSource cannot set headers).
    const c = await SseClient.connect(base, '/v1/stream?event_ids=u1&last_event_id=nope', key);
    await c.untilCount(1);
    c.close();
    assert.equal(c.changes[0]?.data.reason, 'unknown');
  });

  test('the key may come as api_key= for EventSource', async () => {
    const c = await SseClient.connect(base, `/v1/stream?event_ids=k1&api_key=${DEMO_KEY}`);
    await feedOk(svc, [fixture('k1')]);
    await c.untilCount(1);
    c.close();
    assert.equal(c.changes[0]?.data.event_id, 'k1');
  });
});

describe('GET /v1/stream: odds frames written by a worker thread (STREAM_FRAME_WORKER)', () => {
  test('a client sees the same events with the worker as without, and /metrics says who wrote the frames', async () => {
    const on = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600', STREAM_FRAME_WORKER: 'on' } });
    const off = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '3600', STREAM_FRAME_WORKER: 'off' } });
    try {
      const paths = [
        '/v1/stream',
        '/v1/stream?markets=totals&odds_format=american',
        '/v1/stream?event_ids=x2&types=odds&odds_format=fractional',
        '/v1/stream?markets=1x2,totals&odds_format=fractional_exact',
      ];
      const seen: string[][][] = [];
      for (const svc of [on, off]) {
        const base = await listen(svc);
        const clients = await Promise.all(paths.map((p) => SseClient.connect(base, p, key)));
        const rng = new Rng(7);
        const lives = ['x1', 'x2', 'x3'].map((id) => lifeOf(id, rng));
        for (let t = 0; t < Math.max(...lives.map((l) => l.length)); t++) {
          await feedOk(
            svc,
            lives.flatMap((l) => l[t] ?? []),
          );
        }
        // Results, then each event's settlement (written after its result, by a later batch).
        for (const c of clients)
          await c.until(
            (ev) =>
              ev.filter((e) => e.event === 'result').length === (c === clients[2] ? 0 : 3) &&
              ev.filter((e) => e.event === 'settlement' && e.text.includes('"settled":true')).length ===
                (c === clients[2] ? 0 : 3) &&
              ev.length > 0,
            5000,
            'the results and settlements',
          );
        // The x2 odds stream has no results: wait for its last odds event instead.
        await clients[2]!.until((ev) => ev.filter((e) => e.event === 'odds').length >= 12, 5000, 'x2 odds');
        for (const c of clients) c.close();
        // Ids are positions on each service's own clock: compare names and data.
        seen.push(clients.map((c) => c.changes.map((e) => `${e.event} ${e.text}`)));
        const text = (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
        const worker = Number(/stream_flushes_total\{frames="worker"\} (\d+)/.exec(text)?.[1] ?? 0);
        const main = Number(/stream_flushes_total\{frames="main"\} (\d+)/.exec(text)?.[1] ?? 0);
        if (svc === on)
          assert.ok(worker > 0, `the worker wrote frames (${worker} flushes; ${main} on the main thread)`);
        else assert.equal(worker, 0);
      }
      assert.ok((seen[0]?.[0]?.length ?? 0) > 40, 'every kind of change was streamed');
      assert.deepEqual(seen[0], seen[1]);
    } finally {
      await on.close();
      await off.close();
    }
  });
});

describe('GET /v1/stream: replay window', () => {
  test('an id older than the window gets snapshot_required expired', async () => {
    const svc = await startService({ env: { STREAM_REPLAY_SECONDS: '60' } });
    try {
      const base = await listen(svc);
      await feedOk(svc, [fixture('w1')]);
      const old = svc.service.log.headId;
      await feedOk(svc, [markets('w1')]);
      svc.clock.advance(75_000);
      await feedOk(svc, [status('w1', 'live')]);
      const c = await SseClient.connect(base, '/v1/stream', { ...key, 'last-event-id': old });
      await c.untilCount(1);
      c.close();
      assert.equal(c.changes[0]?.event, 'snapshot_required');
      assert.equal(c.changes[0]?.data.reason, 'expired');
    } finally {
      await svc.close();
    }
  });
});

describe('GET /v1/stream: the replay window in memory', () => {
  test('the window holds no more than STREAM_REPLAY_MB, says so in /metrics, and ids that left it expire', async () => {
    const svc = await startService({ env: { STREAM_REPLAY_MB: '1' } });
    try {
      const base = await listen(svc);
      const gauge = async (name: string): Promise<number> => {
        const text = (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
        const line = text.split('\n').find((l) => l.startsWith(`${name} `));
        assert.ok(line !== undefined, `${name} is exported`);
        return Number(line.split(' ').pop());
      };
      await feedOk(svc, [fixture('m0')]);
      const first = svc.service.log.headId;
      // 40 events of 200 markets each: about twice the budget once encoded.
      for (let e = 0; e < 40; e++) {
        const lines = Array.from({ length: 200 }, (_, i) => ({
          market_id: 1000 + i,
          key: `totals:${i}.5`,
          name: `Total Goals ${i}.5`,
          outcomes: [
            { selection_id: 10_000 + 2 * i, code: 'over', label: `Over ${i}.5`, odds: 1.5 + i / 100 },
            { selection_id: 10_001 + 2 * i, code: 'under', label: `Under ${i}.5`, odds: 2.5 + i / 100 },
          ],
        }));
        await feedOk(svc, [fixture(`m${e}`), { type: 'markets', event_id: `m${e}`, markets: lines }]);
        svc.clock.advance(1500); // each event's entries seal into their own segment
      }
      await feedOk(svc, [status('m39', 'live')]);
      const bytes = await gauge('stream_replay_window_bytes');
      assert.ok(bytes <= 1024 * 1024, `${bytes} bytes held`);
      assert.ok(bytes > 512 * 1024, `${bytes} bytes held: the budget is used, not an estimate of it`);
      assert.ok((await gauge('stream_replay_window_entries')) > 0);
      const span = await gauge('stream_replay_window_seconds');
      assert.ok(span > 0 && span < 60, `${span} s: the byte budget binds before the hour`);
      const c = await SseClient.connect(base, '/v1/stream', { ...key, 'last-event-id': first });
      await c.untilCount(1);
      c.close();
      assert.equal(c.changes[0]?.data.reason, 'expired');
    } finally {
      await svc.close();
    }
  });
});

describe('GET /v1/stream: quota, concurrency and heartbeats', () => {
  test('a free key holds one stream; a second is refused 429 and counts nothing; opening counts one request', async () => {
    const svc = await startService({ env: { DEMO_PLAN: 'free', STREAM_HEARTBEAT_SECONDS: '1' } });
    try {
      const base = await listen(svc);
      const usage = async (): Promise<number> =>
        ((await svc.get('/v1/usage')).body as { current: { this_month: number } }).current.this_month;
      const before = await usage();
      const first = await SseClient.connect(base, '/v1/stream', key);
      assert.equal((await usage()) - before, 2, 'the stream and the usage call');
      const second = (await SseClient.open(base, '/v1/stream', key)) as SseRefusal;
      assert.equal(second.status, 429);
      assert.match(second.body.message, /1 open stream/);
      svc.clock.advance(1000); // the free plan's 5 requests per second
      assert.equal((await usage()) - before, 3, 'the refused stream counted nothing (one more usage call)');
      await first.until((ev) => ev.some((e) => e.event === 'heartbeat'), 5000, 'a heartbeat');
      const hb = first.events.find((e) => e.event === 'heartbeat');
      assert.equal(hb?.id, null, 'heartbeats carry no id');
      assert.match(String(hb?.data.position), /^\d+-\d+$/);
      first.close();
      // Once closed, the key may open another (the close waited for, not assumed after 100 ms).
      await until('the first stream closed', async () => (await metric(svc, 'stream_connections')) === 0, 10_000);
      const third = await SseClient.connect(base, '/v1/stream', key);
      third.close();
    } finally {
      await svc.close();
    }
  });

  test('each started 5 minutes of an open stream counts one more request', async () => {
    const svc = await startService({ env: { DEMO_PLAN: 'free' } });
    try {
      const base = await listen(svc);
      const usage = async (): Promise<number> =>
        ((await svc.get('/v1/usage')).body as { current: { this_month: number } }).current.this_month;
      // What the counters hold, read without counting (the usage endpoint counts its own call).
      const [demo] = await svc.service.store.listApiKeys(); // the only key
      const counted = async (): Promise<number> =>
        (await svc.service.usage.snapshot(demo!.id, svc.clock.now())).thisMonth;
      const c = await SseClient.connect(base, '/v1/stream', key);
      const opened = await usage();
      svc.clock.advance(5 * 60_000 + 1);
      // Charged when the streams are next metered (every second of wall time, against the test's clock).
      await until('the second period charged', async () => (await counted()) >= opened + 1);
      assert.equal((await usage()) - opened, 2, 'a second period started (and one usage call)');
      svc.clock.advance(10 * 60_000);
      await until('two more periods charged', async () => (await counted()) >= opened + 4);
      assert.equal((await usage()) - opened, 5, 'two more periods started (and two usage calls)');
      c.close();
    } finally {
      await svc.close();
    }
  });

  test('shutting down closes every stream with a close event carrying the id to resume from', async () => {
    const svc = await startService();
    const base = await listen(svc);
    const c = await SseClient.connect(base, '/v1/stream', key);
    await feedOk(svc, [fixture('z1')]);
    await c.untilCount(1);
    await svc.close();
    await c.until((ev) => ev.some((e) => e.event === 'close'), 5000, 'the close event');
    const close = c.events.find((e) => e.event === 'close');
    assert.equal(close?.data.reason, 'shutting_down');
    assert.equal(close?.id, c.changes[0]?.id);
  });
});
