// Every payload the service writes (most are pre-serialized bytes, not Fastify's serializer) matches /openapi.json, strictly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ContractValidator } from '../helpers/contract.js';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import { SseClient, type SseEvent } from '../helpers/sse.js';
import {
  ADMIN_KEY,
  at,
  DAY,
  DEMO_KEY,
  feedOk,
  fixture,
  HOUR,
  liveEventMessages,
  MINUTE,
  odds,
  prematchEvent,
  result,
  score,
  SEL,
  startService,
  status,
  type InjectOptions,
  type TestService,
} from '../helpers/service.js';

const FORMATS = ['decimal', 'american', 'fractional'] as const;
const ATP = { slug: 'atp-tour', name: 'ATP Tour', country: 'World', tier: 1 };
const key = { 'x-api-key': DEMO_KEY };

/** A soccer game with markets that settle every way (won, lost, half-lost, pending), played to `score`. */
function endedGame(id: string, home: number, away: number): object[] {
  const start = -3 * HOUR;
  let sel = 100;
  const market = (marketId: number, k: string, codes: Array<[string, number]>) => ({
    market_id: marketId,
    key: k,
    name: k,
    outcomes: codes.map(([code, price]) => ({ selection_id: ++sel, code, label: code, odds: price })),
  });
  return [
    fixture(id, { start_time: at(start), ts: at(start - DAY) }),
    {
      type: 'markets',
      event_id: id,
      ts: at(start - DAY),
      markets: [
        market(1, '1x2', [
          ['home', 2.1],
          ['draw', 3.4],
          ['away', 3.6],
        ]),
        market(2, 'asian_handicap:-0.25', [
          ['home', 1.95],
          ['away', 1.95],
        ]),
        market(3, 'player_goals_p9:0.5', [
          ['over', 2.5],
          ['under', 1.5],
        ]),
      ],
    },
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home, away },
      period_scores: [
        { period: '1H', home: 0, away: 0 },
        { period: '2H', home, away },
      ],
      ended_at: at(start + 115 * MINUTE),
      ts: at(start + 115 * MINUTE),
    },
  ];
}

/** The world of the test: prematch, live (with and without a clock), suspended, ended and outright. */
async function feedWorld(svc: TestService): Promise<void> {
  await feedOk(svc, [
    ...prematchEvent('pre1', { start_time: at(2 * HOUR) }),
    odds('pre1', [{ selection_id: SEL.home, odds: 2.4 }]),
    ...liveEventMessages('live1'),
    odds('live1', [
      { selection_id: SEL.home, odds: 1.8 },
      { selection_id: SEL.over, is_locked: true },
    ]),
    score('live1', 2, 0, { period: '2H', clock: '61:00', period_scores: [{ period: '1H', home: 1, away: 0 }] }),
    fixture('tennis1', { sport: 'tennis', league: ATP, start_time: at(-20 * MINUTE) }),
    {
      type: 'markets',
      event_id: 'tennis1',
      markets: [
        {
          market_id: 1,
          key: 'moneyline',
          name: 'Match Winner',
          outcomes: [
            { selection_id: 1, code: 'home', label: 'Home', odds: 1.5, team_side: 'home' },
            { selection_id: 2, code: 'away', label: 'Away', odds: 2.6, team_side: 'away' },
          ],
        },
      ],
    },
    status('tennis1', 'live'),
    score('tennis1', 1, 0, { period: 'S2' }),
    ...liveEventMessages('susp1'),
    status('susp1', 'suspended'),
    ...endedGame('end1', 1, 1),
    ...liveEventMessages('end2', { start_time: at(-3 * HOUR) }),
    result('end2', 2, 1),
    tournament('tour1', 'tennis', 'Wimbledon'),
    outrightMarket('tour1', 1, [
      [1, 'Player A', 2.5],
      [2, 'Player B', 3.75],
      [3, 'Player C', 8],
    ]),
    outrightMarket('tour1', 2, [
      [4, 'Player D', 4],
      [5, 'Player E', 5],
    ]),
    outrightMarket(
      'tour1',
      3,
      [
        [6, 'Player F', 6],
        [7, 'Player G', 7],
      ],
      'Top Seed',
    ),
    outrightResult('tour1', 2, [
      [4, 0.5],
      [5, 0.5],
    ]),
    outrightResult('tour1', 3, 'void'),
  ]);
  await svc.service.settlement.idle();
  await svc.service.pipeline.flush();
}

describe('every payload matches the OpenAPI document (no undeclared field)', () => {
  let svc: TestService;
  let base: string;
  let contract: ContractValidator;
  let live: SseClient;

  /** Calls the service and validates the answer against `path` (as documented) and the status it gave. */
  async function call(method: string, url: string, path: string, expect: number, opts: InjectOptions = {}) {
    const res = await svc.inject(method, url, opts);
    assert.equal(res.status, expect, `${method} ${url}: ${res.text.slice(0, 300)}`);
    contract.response(method, path, res.status, res.body);
    return res.body as Record<string, unknown>;
  }

  before(async () => {
    svc = await startService({ env: { STREAM_HEARTBEAT_SECONDS: '1' } });
    await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const address = svc.service.app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    base = `http://127.0.0.1:${address.port}`;
    contract = new ContractValidator((await svc.get('/openapi.json', { key: null })).body as never);
    // Opened before the world arrives: it sees every change as it is applied.
    live = await SseClient.connect(base, '/v1/stream', key);
    await feedWorld(svc);
  });
  after(async () => {
    live.close();
    await svc.close();
  });

  test('events, detail, odds (now, at an instant, history), batch and live, in every odds format', async () => {
    const ids = ['pre1', 'live1', 'tennis1', 'susp1', 'end1', 'end2'];
    for (const f of FORMATS) {
      const q = `odds_format=${f}`;
      const list = await call('GET', `/v1/events?status=all&${q}`, '/v1/events', 200);
      assert.ok((list.events as unknown[]).length >= 5);
      await call('GET', `/v1/events?${q}`, '/v1/events', 200);
      await call('GET', `/v1/events/featured?${q}`, '/v1/events/featured', 200);
      await call('GET', `/v1/live?${q}`, '/v1/live', 200);
      for (const id of ids) {
        await call('GET', `/v1/events/${id}?${q}`, '/v1/events/{eventId}', 200);
        await call('GET', `/v1/events/${id}/odds?${q}`, '/v1/events/{eventId}/odds', 200);
        await call('GET', `/v1/events/${id}/odds/history?${q}`, '/v1/events/{eventId}/odds/history', 200);
        await call('GET', `/v1/events/${id}/result`, '/v1/events/{eventId}/result', 200);
      }
      const atNow = encodeURIComponent(at(0));
      await call('GET', `/v1/events/live1/odds?at=${atNow}&${q}`, '/v1/events/{eventId}/odds', 200);
      await call(
        'GET',
        `/v1/events/pre1/odds?at=${encodeURIComponent(at(-10 * DAY))}&${q}`,
        '/v1/events/{eventId}/odds',
        200,
      );
      await call('POST', `/v1/events/batch?${q}`, '/v1/events/batch', 200, { body: { ids: [...ids, 'nope'] } });
      await call('GET', `/v1/outrights?${q}`, '/v1/outrights', 200);
    }
    const paged = await call('GET', '/v1/events/live1/odds/history?limit=1', '/v1/events/{eventId}/odds/history', 200);
    assert.equal(paged.has_more, true);
  });

  test('discovery, settlement feeds, bet checks, account and service', async () => {
    await call('GET', '/v1/leagues', '/v1/leagues', 200);
    await call('GET', '/v1/sports', '/v1/sports', 200);
    const scores = await call('GET', '/v1/scores', '/v1/scores', 200);
    assert.ok((scores.scores as Array<{ id: string }>).some((s) => s.id === 'tennis1'));
    const feed = await call('GET', '/v1/settlements', '/v1/settlements', 200);
    assert.ok((feed.settlements as unknown[]).length >= 2);
    const page = await call('GET', '/v1/settlements?limit=1', '/v1/settlements', 200);
    await call('GET', `/v1/settlements?limit=1&cursor=${String(page.next_cursor)}`, '/v1/settlements', 200);
    await call('GET', `/v1/settlements?updated_since=${encodeURIComponent(at(-DAY))}`, '/v1/settlements', 200);
    await call('GET', '/v1/settlements?event_ids=end1,end2', '/v1/settlements', 200);
    // Explanations: the event's own entry (every outcome explained), opt-in on the feed and on bet check.
    for (const f of FORMATS) {
      const one = await call(
        'GET',
        `/v1/events/end1/settlement?odds_format=${f}`,
        '/v1/events/{eventId}/settlement',
        200,
      );
      assert.equal(one.status, 'settled');
      await call('GET', `/v1/settlements?explain=true&odds_format=${f}`, '/v1/settlements', 200);
    }
    const pendingEntry = await call('GET', '/v1/events/pre1/settlement', '/v1/events/{eventId}/settlement', 200);
    assert.equal(pendingEntry.status, 'pending');
    await call('GET', '/v1/settlements?explain=maybe', '/v1/settlements', 400);
    await call('GET', '/v1/settlements/outrights?explain=true', '/v1/settlements/outrights', 200);
    await call('GET', '/v1/events/nope/settlement', '/v1/events/{eventId}/settlement', 404);
    await call('POST', '/v1/bets/check?explain=true', '/v1/bets/check', 200, {
      body: {
        legs: [
          { event_id: 'end1', market_id: 2, selection_id: 104 },
          { tournament_id: 'tour1', market_id: 2, selection_id: 4, odds: 4 },
          { event_id: 'pre1', market_id: 1, selection_id: SEL.draw },
        ],
      },
    });
    const outrights = await call('GET', '/v1/settlements/outrights', '/v1/settlements/outrights', 200);
    assert.ok((outrights.outright_settlements as unknown[]).length >= 4);
    await call('GET', '/v1/settlements/outrights?limit=1&tournament_id=tour1', '/v1/settlements/outrights', 200);
    await call('GET', '/v1/outrights/sports', '/v1/outrights/sports', 200);

    const check = (body: object) => call('POST', '/v1/bets/check', '/v1/bets/check', 200, { body });
    await check({ legs: [{ event_id: 'end2', market: '1x2', outcome: 'home' }], stake: 10 });
    await check({ legs: [{ event_id: 'end1', market_id: 2, selection_id: 104 }], stake: 10 });
    await check({
      legs: [
        { event_id: 'end2', market: '1x2', outcome: 'away', odds: 3.1 },
        { event_id: 'live1', market: '1x2', outcome: 'home' },
      ],
      stake: 5,
    });
    await check({ legs: [{ tournament_id: 'tour1', market_id: 2, selection_id: 4, odds: 4 }], stake: 2 });
    await check({ legs: [{ event_id: 'pre1', market_id: 1, selection_id: SEL.draw }] });

    await call('GET', '/v1/usage', '/v1/usage', 200);
    await call('GET', '/v1/usage/warnings', '/v1/usage/warnings', 200);
    // Webhooks: nothing is posted (the address is public and the test ends first; a failure is only logged).
    const hook = await call('POST', '/v1/webhooks', '/v1/webhooks', 201, {
      body: { url: 'https://93.184.216.34/hook', types: ['settlement', 'result'] },
    });
    const hookPath = (tail: string) => `/v1/webhooks/{id}${tail}`;
    await call('GET', '/v1/webhooks', '/v1/webhooks', 200);
    await call('GET', `/v1/webhooks/${String(hook.id)}`, hookPath(''), 200);
    await call('PATCH', `/v1/webhooks/${String(hook.id)}`, hookPath(''), 200, { body: { enabled: false } });
    await call('POST', `/v1/webhooks/${String(hook.id)}/rotate-secret`, hookPath('/rotate-secret'), 200);
    await call('POST', `/v1/webhooks/${String(hook.id)}/test`, hookPath('/test'), 202);
    await call('GET', `/v1/webhooks/${String(hook.id)}/deliveries`, hookPath('/deliveries'), 200);
    await call('POST', `/v1/webhooks/${String(hook.id)}/replay`, hookPath('/replay'), 200, {
      body: { since: '2026-01-01T00:00:00Z' },
    });
    await call('POST', '/v1/webhooks', '/v1/webhooks', 400, { body: { url: 'http://10.0.0.1/', types: ['result'] } });
    await call('GET', '/v1/health', '/v1/health', 200);
    await call('GET', '/v1/status', '/v1/status', 200, { key: null });
    await call('GET', '/livez', '/livez', 200, { key: null });
    await call('GET', '/readyz', '/readyz', 200, { key: null });
    const report = await call('POST', '/admin/v1/feed', '/admin/v1/feed', 200, {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-ndjson' },
      body: `${JSON.stringify(status('live1', 'live'))}\nnot json\n${JSON.stringify({ type: 'odds', event_id: 'ghost', changes: [] })}\n`,
    });
    assert.ok((report.errors as unknown[]).length >= 1);
  });

  test('errors: 400, 401 and 404 with the Error body', async () => {
    await call('GET', '/v1/events?limit=0', '/v1/events', 400);
    await call('GET', '/v1/events', '/v1/events', 401, { key: null });
    await call('GET', '/v1/events', '/v1/events', 401, { key: 'wrong' });
    await call('GET', '/v1/events/nope', '/v1/events/{eventId}', 404);
    await call('GET', '/v1/events/nope/result', '/v1/events/{eventId}/result', 404);
    await call('GET', '/v1/events/live1/odds?at=yesterday', '/v1/events/{eventId}/odds', 400);
    await call('POST', '/v1/events/batch', '/v1/events/batch', 400, { body: { ids: 'end1' } });
    await call('POST', '/v1/bets/check', '/v1/bets/check', 404, {
      body: { legs: [{ event_id: 'nope', market: '1x2', outcome: 'home' }] },
    });
    await call('GET', '/v1/settlements?cursor=%%%', '/v1/settlements', 400);
    await call('GET', '/metrics', '/metrics', 401, { key: null });
    await call('POST', '/admin/v1/feed', '/admin/v1/feed', 401, { key: null, body: [] });
    const refused = await SseClient.open(base, '/v1/stream?types=nope', key);
    assert.ok(!(refused instanceof SseClient));
    contract.response('GET', '/v1/stream', refused.status, refused.body);
  });

  test('stream events: changes, a snapshot in each odds format, heartbeat, snapshot_required, close', async () => {
    const seen = (events: SseEvent[]) => new Set(events.map((e) => e.event));
    await live.until(
      (events) =>
        ['odds', 'markets', 'status', 'score', 'result', 'settlement', 'outright'].every((n) => seen(events).has(n)),
      10_000,
      'every kind of change',
    );
    for (const f of FORMATS) {
      const snap = await SseClient.connect(base, `/v1/stream?snapshot=true&odds_format=${f}`, key);
      await snap.until((events) => events.some((e) => e.event === 'heartbeat'), 5000, 'a heartbeat');
      for (const e of snap.events) contract.sseEvent(e.event, e.data);
      assert.ok(snap.events.some((e) => e.data.snapshot === true));
      snap.close();
    }
    const resumed = await SseClient.connect(base, '/v1/stream?last_event_id=1-0', key);
    await resumed.until((events) => events.some((e) => e.event === 'snapshot_required'), 5000, 'snapshot_required');
    for (const e of resumed.events) contract.sseEvent(e.event, e.data);
    resumed.close();

    // The live stream saw every change of the world as it was applied; closing the service ends it with `close`.
    await svc.service.app.close();
    await live.until((events) => events.some((e) => e.event === 'close'), 5000, 'close');
    for (const e of live.events) contract.sseEvent(e.event, e.data);
    assert.deepEqual([...seen(live.events)].sort(), [
      'close',
      'heartbeat',
      'markets',
      'odds',
      'outright',
      'result',
      'score',
      'settlement',
      'status',
    ]);
  });

  test('every JSON operation of the document had a payload checked', () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(contract.doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.responses['200']?.content?.['application/json'] === undefined) continue;
        if (![...contract.checked].some((c) => c.startsWith(`${method.toUpperCase()} ${path} 200`))) {
          missing.push(`${method} ${path}`);
        }
      }
    }
    assert.deepEqual(missing, []);
  });
});

describe('refusals and a failing store match the document too (429, 503)', () => {
  let svc: TestService;
  let contract: ContractValidator;
  before(async () => {
    // The free plan allows 5 requests a second; the injected clock does not move, so the 6th is refused.
    svc = await startService({ env: { DEMO_PLAN: 'free' } });
    contract = new ContractValidator((await svc.get('/openapi.json', { key: null })).body as never);
  });
  after(() => svc.close());

  test('429 rate_limited, then 503 from the health, the probes and a key lookup once the store is gone', async () => {
    let res = await svc.get('/v1/sports');
    for (let i = 0; i < 10 && res.status === 200; i++) res = await svc.get('/v1/sports');
    assert.equal(res.status, 429, res.text);
    assert.ok(res.headers['retry-after'] !== undefined);
    contract.response('GET', '/v1/sports', 429, res.body);

    await svc.service.store.close();
    svc.clock.advance(60_000);
    const health = await svc.get('/v1/health');
    assert.equal(health.status, 503, health.text);
    contract.response('GET', '/v1/health', 503, health.body);
    const ready = await svc.get('/readyz', { key: null });
    assert.equal(ready.status, 503, ready.text);
    contract.response('GET', '/readyz', 503, ready.body);
    const unknownKey = await svc.get('/v1/events', { key: 'never-seen-key' });
    assert.equal(unknownKey.status, 503, unknownKey.text);
    assert.equal((unknownKey.body as { component?: string }).component, 'datastore');
    contract.response('GET', '/v1/events', 503, unknownKey.body);
  });
});
