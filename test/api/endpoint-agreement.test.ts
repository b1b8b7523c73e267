// Endpoints that agree: the same field means the same in every payload, envelopes count what matched, and wrong input is a 400.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  at,
  DEMO_KEY,
  feedOk,
  fixture,
  HOUR,
  liveEventMessages,
  markets,
  MINUTE,
  result,
  SEL,
  MARKET,
  score,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';

const ATP = { slug: 'atp-tour', name: 'ATP Tour', country: 'World', tier: 1 };

interface ScoreItem {
  id: string;
  clock: string | null;
  period: string;
}

let svc: TestService;

before(async () => {
  svc = await startService();
  // A live tennis match: the feed gives it no clock (tennis has none).
  await feedOk(svc, [
    fixture('tennis', { sport: 'tennis', league: ATP, start_time: at(-20 * MINUTE) }),
    status('tennis', 'live'),
    score('tennis', 1, 0, { period: 'S2' }),
  ]);
  // Five live soccer games.
  for (let i = 0; i < 5; i++) await feedOk(svc, liveEventMessages(`live${i}`));
  // Two ended games whose settlement entries exist.
  for (const id of ['old1', 'old2']) {
    await feedOk(svc, [...liveEventMessages(id, { start_time: at(-3 * HOUR) }), result(id, 2, 1)]);
  }
  await svc.service.settlement.idle();
});

after(async () => {
  await svc.close();
});

describe('the same field agrees across payloads', () => {
  it("a live tennis match's clock is the same in /v1/scores, /v1/live, /v1/events and the detail", async () => {
    const scores = await svc.get<{ scores: ScoreItem[] }>('/v1/scores?sport=tennis');
    const live = await svc.get<{ events: ScoreItem[] }>('/v1/live?sport=tennis');
    const list = await svc.get<{ events: ScoreItem[] }>('/v1/events?sport=tennis&status=live');
    const detail = await svc.get<ScoreItem>('/v1/events/tennis');
    const clocks = [
      scores.body.scores.find((s) => s.id === 'tennis')?.clock,
      live.body.events.find((s) => s.id === 'tennis')?.clock,
      list.body.events.find((s) => s.id === 'tennis')?.clock,
      detail.body.clock,
    ];
    assert.equal(new Set(clocks).size, 1, `clocks differ: ${JSON.stringify(clocks)}`);
    // interface.md: the Score item's clock is a string; an Event's is null only before the start.
    assert.equal(typeof clocks[0], 'string');
  });
});

describe('envelopes count what matched, not what was returned', () => {
  it('/v1/scores?limit=2 answers total = every live match', async () => {
    const all = await svc.get<{ scores: ScoreItem[]; total: number }>('/v1/scores');
    const page = await svc.get<{ scores: ScoreItem[]; total: number }>('/v1/scores?limit=2');
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.scores.length, 2);
    assert.equal(all.body.total, all.body.scores.length);
    assert.ok(all.body.total >= 6, `total ${all.body.total}`);
    assert.equal(page.body.total, all.body.total);
  });

  it('/v1/settlements?updated_since counts only the entries the filter matched', async () => {
    // A third game ends later: only its entry changed after `since`.
    svc.clock.advance(10 * MINUTE);
    const since = new Date(svc.clock.now()).toISOString();
    svc.clock.advance(MINUTE);
    await feedOk(svc, [...liveEventMessages('late', { start_time: at(-2 * HOUR) }), result('late', 0, 0)]);
    await svc.service.settlement.idle();
    const r = await svc.get<{
      settlements: Array<{ event_id: string }>;
      total: number;
      fully_settled: number;
      score_only: number;
    }>(`/v1/settlements?updated_since=${encodeURIComponent(since)}`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.settlements.map((s) => s.event_id),
      ['late'],
    );
    assert.equal(r.body.total, 1);
    // decisions.md: the counters count the entries the filters matched, as `total` does.
    assert.equal(r.body.fully_settled, 1);
    assert.equal(r.body.score_only, 0);
  });
});

describe('bet check', () => {
  it('a lost parlay gives the real combined odds of its legs and a payout of 0', async () => {
    const r = await svc.inject<{ status: string; combined_odds: number; payout: number }>('POST', '/v1/bets/check', {
      body: {
        legs: [
          { event_id: 'old1', market_id: MARKET.oneXTwo, selection_id: SEL.home, odds: 2.5 },
          { event_id: 'old2', market_id: MARKET.oneXTwo, selection_id: SEL.away, odds: 3 },
        ],
        stake: 10,
      },
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'lost');
    assert.equal(r.body.combined_odds, 7.5);
    assert.equal(r.body.payout, 0);
  });

  it('odds given as a string is a 400, as any wrong type', async () => {
    const r = await svc.inject<{ error: string; message: string }>('POST', '/v1/bets/check', {
      body: { legs: [{ event_id: 'old1', market_id: MARKET.oneXTwo, selection_id: SEL.home, odds: '2.1' }] },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'bad_request');
    assert.match(r.body.message, /odds/);
  });
});

describe('wrong input is a 400 with {error, message}', () => {
  it('POST /v1/events/batch with ids as a string', async () => {
    const r = await svc.inject<{ error: string; message: string }>('POST', '/v1/events/batch', {
      body: { ids: 'live0' },
    });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error, 'bad_request');
    assert.match(r.body.message, /ids/);
  });

  it('a 12 MiB body is answered with {error, message} before the connection closes', async () => {
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = svc.service.app.server.address() as AddressInfo;
    const size = 12 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/bets/check',
          headers: { 'content-type': 'application/json', 'content-length': String(size), 'x-api-key': DEMO_KEY },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      // The server may close while we still write: the answer, not the write, is what is checked.
      req.on('error', () => undefined);
      let sent = 0;
      const write = (): void => {
        while (sent < size) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', write);
            return;
          }
        }
        req.end();
      };
      write();
    });
    assert.ok(answer.status === 413 || answer.status === 400, `status ${answer.status}`);
    const body = JSON.parse(answer.body) as { error: string; message: string };
    assert.equal(typeof body.error, 'string');
    assert.equal(typeof body.message, 'string');
  });
});

/** Every payload that carries an event, keyed by where it came from. */
async function carriers(id: string): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  const find = (list: Array<Record<string, unknown>> | undefined): Record<string, unknown> | undefined =>
    list?.find((e) => e['id'] === id);
  const list = await svc.get<{ events: Array<Record<string, unknown>> }>('/v1/events?limit=200&status=all');
  const inList = find(list.body.events);
  if (inList) out['/v1/events'] = inList;
  const detail = await svc.get<Record<string, unknown>>(`/v1/events/${id}`);
  if (detail.status === 200) out['/v1/events/{id}'] = detail.body;
  const batch = await svc.inject<{ events: Record<string, Record<string, unknown>> }>('POST', '/v1/events/batch', {
    body: { ids: [id] },
  });
  const inBatch = batch.body.events[id];
  if (inBatch) out['/v1/events/batch'] = inBatch;
  const live = find((await svc.get<{ events: Array<Record<string, unknown>> }>('/v1/live')).body.events);
  if (live) out['/v1/live'] = live;
  const scores = find((await svc.get<{ scores: Array<Record<string, unknown>> }>('/v1/scores')).body.scores);
  if (scores) out['/v1/scores'] = scores;
  const featured = find((await svc.get<{ events: Array<Record<string, unknown>> }>('/v1/events/featured')).body.events);
  if (featured) out['/v1/events/featured'] = featured;
  const result = await svc.get<Record<string, unknown>>(`/v1/events/${id}/result`);
  if (result.status === 200) {
    // The result's `status` is its own vocabulary (interface.md: not_ended, ended, …): not compared.
    const { status: _resultStatus, ...rest } = result.body;
    out['/v1/events/{id}/result'] = rest;
  }
  return out;
}

describe('every payload that carries an event says the same of it', () => {
  const fields = [
    'status',
    'clock',
    'period',
    'score',
    'start_time',
    'home_team',
    'away_team',
    'home_logo',
    'away_logo',
  ];
  for (const id of ['tennis', 'live0', 'old1', 'soon']) {
    it(`${id}: ${fields.join(', ')} agree wherever they appear`, async () => {
      if (id === 'soon') await feedOk(svc, [fixture('soon', { start_time: at(2 * HOUR) }), markets('soon')]);
      const seen = await carriers(id);
      assert.ok(Object.keys(seen).length >= 3, `found in ${Object.keys(seen).join(', ')}`);
      for (const field of fields) {
        const values = new Map<string, string[]>();
        for (const [where, payload] of Object.entries(seen)) {
          if (!(field in payload)) continue;
          const v = JSON.stringify(payload[field]);
          values.set(v, [...(values.get(v) ?? []), where]);
        }
        assert.ok(values.size <= 1, `${id}.${field} differs: ${JSON.stringify([...values])}`);
      }
    });
  }
});
