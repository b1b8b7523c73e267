// GET /v1/events/{id}/result: not_ended before the end, the archived final score after, non-final statuses, 404s.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  markets,
  MINUTE,
  result,
  score,
  startService,
  status,
  T0,
  type TestService,
} from '../helpers/service.js';
import type { ErrorBody, EventResult } from '../helpers/payloads.js';

describe('GET /v1/events/{id}/result', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  const get = async (id: string): Promise<EventResult> => {
    const res = await svc.get<EventResult>(`/v1/events/${id}/result`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };

  test('a prematch event is not_ended with 0-0 and no ended_at', async () => {
    await feedOk(svc, [fixture('pre'), markets('pre')]);
    const r = await get('pre');
    assert.equal(r.id, 'pre');
    assert.equal(r.status, 'not_ended');
    assert.deepEqual(r.score, { home: 0, away: 0 });
    assert.equal(r.ended_at, null);
  });

  test('a live event is not_ended with its current score', async () => {
    await feedOk(svc, [fixture('live', { start_time: at(-HOUR) }), status('live', 'live'), score('live', 1, 2)]);
    const r = await get('live');
    assert.equal(r.status, 'not_ended');
    assert.deepEqual(r.score, { home: 1, away: 2 });
  });

  test('an ended event: status ended, the final score, ended_at and period scores, no market resolutions', async () => {
    const periods = [
      { period: '1H', home: 0, away: 1 },
      { period: '2H', home: 3, away: 0 },
    ];
    await feedOk(svc, [result('live', 3, 1, { ended_at: at(-5 * MINUTE), period_scores: periods })]);
    const r = await get('live');
    assert.equal(r.status, 'ended');
    assert.deepEqual(r.score, { home: 3, away: 1 });
    assert.equal(r.ended_at, at(-5 * MINUTE));
    assert.deepEqual(r.period_scores, periods);
    // Who won is explicit even where the score tells: the home side, in regulation.
    assert.equal(r.winner, 'home');
    assert.equal(r.decided_by, 'regulation');
    for (const key of Object.keys(r)) assert.ok(!/market|resolution|settle/.test(key), key);
  });

  test('a result without ended_at is stamped with the time it arrived', async () => {
    await feedOk(svc, [fixture('stamp', { start_time: at(-2 * HOUR) }), status('stamp', 'live')]);
    svc.clock.advance(MINUTE);
    await feedOk(svc, [result('stamp', 0, 0)]);
    const r = await get('stamp');
    assert.equal(r.ended_at, new Date(svc.clock.now()).toISOString());
    assert.deepEqual(r.score, { home: 0, away: 0 });
  });

  test('a corrected result replaces the score', async () => {
    await feedOk(svc, [result('live', 3, 2, { ended_at: at(-5 * MINUTE) })]);
    assert.deepEqual((await get('live')).score, { home: 3, away: 2 });
  });

  test('disrupted statuses are reported as such', async () => {
    await feedOk(svc, [
      fixture('postp', { start_time: at(HOUR) }),
      status('postp', 'postponed'),
      fixture('delay', { start_time: at(HOUR) }),
      status('delay', 'delayed'),
      fixture('susp', { start_time: at(-HOUR) }),
      status('susp', 'live'),
      score('susp', 1, 0),
      status('susp', 'suspended'),
      fixture('intr', { start_time: at(-HOUR) }),
      status('intr', 'live'),
      status('intr', 'interrupted'),
      fixture('canc', { start_time: at(HOUR) }),
      status('canc', 'cancelled'),
    ]);
    const table: Array<[string, string]> = [
      ['postp', 'postponed'],
      ['delay', 'delayed'],
      ['susp', 'suspended'],
      ['intr', 'interrupted'],
      ['canc', 'cancelled'],
    ];
    for (const [id, expected] of table) {
      const r = await get(id);
      assert.equal(r.status, expected, id);
    }
    assert.deepEqual((await get('susp')).score, { home: 1, away: 0 });
  });

  test('final non-ended results: cancelled, abandoned, retired, walkover with its winner', async () => {
    await feedOk(svc, [
      fixture('res-canc', { start_time: at(HOUR) }),
      { type: 'result', event_id: 'res-canc', status: 'cancelled', score: { home: 0, away: 0 } },
      fixture('aband', { start_time: at(-HOUR) }),
      status('aband', 'live'),
      {
        type: 'result',
        event_id: 'aband',
        status: 'abandoned',
        score: { home: 1, away: 1 },
        ended_at: at(-10 * MINUTE),
      },
      fixture('ret', {
        sport: 'tennis',
        league: { slug: 'atp-miami', name: 'ATP Miami', country: 'United States' },
        start_time: at(-HOUR),
      }),
      status('ret', 'live'),
      { type: 'result', event_id: 'ret', status: 'retired', score: { home: 1, away: 0 }, winner: 'home' },
      fixture('wo', { sport: 'tennis', league: { slug: 'atp-miami', name: 'ATP Miami', country: 'United States' } }),
      { type: 'result', event_id: 'wo', status: 'walkover', score: { home: 0, away: 0 }, winner: 'away' },
    ]);
    const table: Array<[string, string, { home: number; away: number }, string | null]> = [
      ['res-canc', 'cancelled', { home: 0, away: 0 }, null],
      ['aband', 'abandoned', { home: 1, away: 1 }, null],
      ['ret', 'retired', { home: 1, away: 0 }, 'home'],
      ['wo', 'walkover', { home: 0, away: 0 }, 'away'],
    ];
    for (const [id, st, sc, winner] of table) {
      const r = await get(id);
      assert.equal(r.status, st, id);
      assert.deepEqual(r.score, sc, id);
      assert.equal(r.winner, winner, id);
      assert.equal(typeof r.ended_at, 'string', id);
    }
    assert.equal((await get('aband')).ended_at, at(-10 * MINUTE));
  });

  test('an unknown event is 404 not_found pointing to the settlement feed', async () => {
    const res = await svc.get<ErrorBody>('/v1/events/never-seen/result');
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
    assert.match(res.body.message, /settlement/i);
  });
});

describe('results are permanent', () => {
  test('the result stays available after the event has left the live data (restart past the retention window)', async () => {
    const first = await startService({ env: { ENDED_RETENTION_HOURS: '1' } });
    try {
      await feedOk(first, [
        fixture('old', { start_time: at(-2 * HOUR) }),
        markets('old'),
        status('old', 'live'),
        result('old', 4, 0, { ended_at: at(-MINUTE) }),
      ]);
      await first.close({ keepDir: true });
      const later = await startService({
        dataDir: first.dataDir,
        now: T0 + 3 * HOUR,
        env: { ENDED_RETENTION_HOURS: '1' },
      });
      try {
        // The event itself is gone from the live data…
        assert.equal((await later.get('/v1/events/old')).status, 404);
        // …its result is not.
        const res = await later.get<EventResult>('/v1/events/old/result');
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.status, 'ended');
        assert.deepEqual(res.body.score, { home: 4, away: 0 });
        assert.equal(res.body.ended_at, at(-MINUTE));
      } finally {
        await later.close();
      }
    } finally {
      await first.close();
      await rm(first.dataDir, { recursive: true, force: true });
    }
  });
});
