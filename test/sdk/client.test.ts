// The SDK's client against a real service: every endpoint method, the three odds formats, errors as SportsDataError.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SportsDataClient, SportsDataError } from '../../sdk/src/index.js';
import { DEMO_KEY, MINUTE, feedOk, odds, prematchEvent, SEL, MARKET } from '../helpers/service.js';
import { defaultWorld, startWorld, type SdkWorld } from './world.js';

describe('SportsDataClient: every client endpoint', () => {
  let w: SdkWorld;
  let client: SportsDataClient;
  before(async () => {
    w = await startWorld(defaultWorld());
    client = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: DEMO_KEY });
  });
  after(() => w.svc.close());

  test('listEvents: prematch and live events, ended ones left out; filters pass through', async () => {
    const list = await client.listEvents();
    assert.deepEqual(list.events.map((e) => e.id).sort(), ['l1', 'p1']);
    assert.equal(list.total, 2);
    const live = await client.listEvents({ status: 'live' });
    assert.deepEqual(
      live.events.map((e) => e.id),
      ['l1'],
    );
  });

  test('the three odds formats, per call and as the client default', async () => {
    const price = async (c: SportsDataClient, fmt?: 'decimal' | 'american' | 'fractional') => {
      const list = await c.listEvents(fmt === undefined ? {} : { odds_format: fmt });
      const p1 = list.events.find((e) => e.id === 'p1');
      return [p1?.odds.home, p1?.odds_format];
    };
    assert.deepEqual(await price(client), [2.5, 'decimal']);
    assert.deepEqual(await price(client, 'american'), [150, 'american']);
    assert.deepEqual(await price(client, 'fractional'), ['3/2', 'fractional']);
    const fractional = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: DEMO_KEY, oddsFormat: 'fractional' });
    assert.deepEqual(await price(fractional), ['3/2', 'fractional']);
    assert.deepEqual(await price(fractional, 'american'), [150, 'american'], 'a call overrides the default');
    const odds = await fractional.getEventOdds('p1');
    const home = odds.markets.flatMap((m) => m.outcomes).find((o) => o.selection_id === SEL.home);
    assert.equal(home?.odds, '3/2');
    const batch = await fractional.getEventsBatch(['p1'], { odds_format: 'american' });
    assert.equal(batch.events.p1?.odds.home, 150);
  });

  test('listFeaturedEvents, listLiveEvents, getEvent', async () => {
    const featured = await client.listFeaturedEvents({ limit: 5 });
    assert.ok(featured.events.some((e) => e.id === 'l1'));
    const live = await client.listLiveEvents();
    assert.deepEqual(
      live.events.map((e) => [e.id, e.score.home, e.score.away]),
      [['l1', 1, 0]],
    );
    const detail = await client.getEvent('l1');
    assert.equal(detail.status, 'live');
    assert.deepEqual(
      detail.markets.map((m) => m.market_id),
      [MARKET.oneXTwo, MARKET.totals],
    );
  });

  test('getEventResult, getEventsBatch with an unknown id', async () => {
    const result = await client.getEventResult('g1');
    assert.equal(result.status, 'ended');
    assert.deepEqual(result.score, { home: 2, away: 1 });
    const batch = await client.getEventsBatch(['p1', 'l1', 'nope']);
    assert.deepEqual([batch.found, batch.requested], [2, 3]);
    assert.deepEqual(Object.keys(batch.events).sort(), ['l1', 'p1']);
  });

  test('listLeagues, listSports, listScores', async () => {
    const leagues = await client.listLeagues();
    const pl = leagues.leagues.find((l) => l.slug === 'england-premier-league');
    assert.deepEqual([pl?.active_events, pl?.live_events], [2, 1]);
    const sports = await client.listSports();
    const soccer = sports.sports.find((s) => s.key === 'soccer');
    assert.deepEqual([soccer?.active_events, soccer?.live_events], [2, 1]);
    const scores = await client.listScores({ sport: 'soccer' });
    assert.deepEqual(
      scores.scores.map((s) => [s.id, s.score.home, s.score.away]),
      [['l1', 1, 0]],
    );
  });

  test('listSettlements, listOutrightSettlements, listOutrights, listOutrightSports', async () => {
    const feed = await client.listSettlements();
    assert.deepEqual(
      feed.settlements.map((s) => s.event_id),
      ['g2', 'g1'],
    );
    const g1 = feed.settlements[1];
    const home = g1?.resolved_markets.find((m) => m.key === '1x2')?.outcomes.find((o) => o.selection_id === SEL.home);
    assert.equal(home?.result, 'won');
    const outrightFeed = await client.listOutrightSettlements({ tournament_id: 'cup-2026' });
    assert.deepEqual(outrightFeed.outright_settlements.map((e) => [e.selection_id, e.result]).sort(), [
      [101, 'lost'],
      [102, 'won'],
      [103, 'lost'],
    ]);
    const outrights = await client.listOutrights({ sport_id: 1, odds_format: 'fractional' });
    const cup = outrights.tournaments.find((t) => t.tournament_id === 'cup-2026');
    const scorer = cup?.markets.find((m) => m.market_id === 20);
    assert.equal(scorer?.selections.find((s) => s.selection_id === 201)?.odds, '7/1');
    const sports = await client.listOutrightSports();
    assert.ok(sports.sports.some((s) => s.sport_id === 1 && s.tournament_count >= 1));
  });

  test('checkBet: a single, and a parlay of an event leg and an outright leg', async () => {
    const single = await client.checkBet({
      legs: [{ event_id: 'g1', market_id: MARKET.oneXTwo, selection_id: SEL.home, odds: 2.5 }],
      stake: 10,
    });
    assert.deepEqual([single.status, single.payout], ['won', 25]);
    const parlay = await client.checkBet({
      legs: [
        { event_id: 'g1', market_id: MARKET.oneXTwo, selection_id: SEL.home, odds: 2 },
        { tournament_id: 'cup-2026', market_id: 10, selection_id: 102, odds: 6 },
      ],
      stake: 1,
    });
    assert.deepEqual([parlay.status, parlay.combined_odds, parlay.payout], ['won', 12, 12]);
    assert.deepEqual(
      parlay.legs.map((l) => l.result),
      ['won', 'won'],
    );
  });

  test('getUsage, getUsageWarnings, getHealth, getStatus (keyless), getLogo', async () => {
    const usage = await client.getUsage();
    assert.equal(usage.plan, 'unlimited');
    assert.ok(usage.current.this_month > 0);
    assert.ok(Array.isArray((await client.getUsageWarnings()).warnings));
    const health = await client.getHealth();
    assert.equal(health.status, 'healthy');
    const keyless = new SportsDataClient({ baseUrl: w.baseUrl });
    const status = await keyless.getStatus();
    assert.equal(status.live_events, 1);
    const png = await keyless.getLogo('nope');
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG (the placeholder)');
    assert.equal(keyless.logoUrl('a b'), `${w.baseUrl}/api/logo/a%20b`);
  });

  test('errors are SportsDataError with the status and code of the service', async () => {
    const notFound = await client.getEvent('nope').catch((e: unknown) => e);
    assert.ok(notFound instanceof SportsDataError);
    assert.deepEqual([notFound.status, notFound.code, notFound.retryAfter], [404, 'not_found', null]);
    const bad = await client.listEvents({ date: 'yesterday' }).catch((e: unknown) => e);
    assert.ok(bad instanceof SportsDataError);
    assert.deepEqual([bad.status, bad.code], [400, 'bad_request']);
    assert.match(bad.message, /date/);
    const anonymous = new SportsDataClient({ baseUrl: w.baseUrl, apiKey: 'wrong' });
    const unauthorized = await anonymous.listSports().catch((e: unknown) => e);
    assert.ok(unauthorized instanceof SportsDataError);
    assert.deepEqual([unauthorized.status, unauthorized.code], [401, 'unauthorized']);
    const down = new SportsDataClient({ baseUrl: 'http://127.0.0.1:1', apiKey: DEMO_KEY });
    const network = await down.getStatus().catch((e: unknown) => e);
    assert.ok(network instanceof SportsDataError);
    assert.deepEqual([network.status, network.code], [0, 'network_error']);
  });
});

// Its own world: a prematch event whose price moves.
describe('SportsDataClient: odds history', () => {
  let h: SdkWorld;
  let hc: SportsDataClient;
  before(async () => {
    h = await startWorld(prematchEvent('p1'));
    hc = new SportsDataClient({ baseUrl: h.baseUrl, apiKey: DEMO_KEY });
  });
  after(() => h.svc.close());

  test('getEventOdds now and at an earlier instant; getEventOddsHistory and its iterator', async () => {
    const before = h.svc.clock.now();
    h.svc.clock.advance(MINUTE);
    await feedOk(h.svc, [odds('p1', [{ selection_id: SEL.home, odds: 3.1 }])]);
    const homeOf = (o: { markets: Array<{ outcomes: Array<{ selection_id?: number; odds: unknown }> }> }) =>
      o.markets.flatMap((m) => m.outcomes).find((x) => x.selection_id === SEL.home)?.odds;
    assert.equal(homeOf(await hc.getEventOdds('p1')), 3.1);
    assert.equal(homeOf(await hc.getEventOddsAt('p1', new Date(before))), 2.5);
    // The history page in the requested format, oldest first.
    const page = await hc.getEventOddsHistory('p1', { odds_format: 'american' });
    assert.deepEqual([page.event_id, page.odds_format], ['p1', 'american']);
    assert.ok(page.history.length >= 1);
    assert.ok(
      page.history.every((x) => Number.isInteger(x.odds)),
      'american odds are whole numbers',
    );
    assert.deepEqual(
      page.history.map((x) => x.at),
      page.history.map((x) => x.at).sort(),
    );
    // The iterator yields every entry of every page, following next_cursor until it is null: the
    // whole history, as one big page has it.
    const pages: Array<{ history: unknown[]; next_cursor: string | null }> = [];
    const sent: string[] = [];
    const recording = new SportsDataClient({
      baseUrl: h.baseUrl,
      apiKey: DEMO_KEY,
      fetch: async (input, init) => {
        sent.push(input);
        const res = await fetch(input, init);
        pages.push((await res.clone().json()) as (typeof pages)[number]);
        return res;
      },
    });
    const all = [];
    for await (const x of recording.iterateEventOddsHistory('p1', { limit: 1, odds_format: 'american' })) all.push(x);
    assert.ok(pages.length >= 5, 'one page per entry');
    assert.deepEqual(
      all,
      pages.flatMap((p) => p.history),
    );
    assert.equal(pages[pages.length - 1]?.next_cursor, null);
    assert.deepEqual(all, (await hc.getEventOddsHistory('p1', { odds_format: 'american', limit: 1000 })).history);
    sent.slice(1).forEach((url, i) => assert.equal(new URL(url).searchParams.get('cursor'), pages[i]?.next_cursor));
  });

  test('the reads that carry markets take a markets filter; a malformed one is a SportsDataError 400', async () => {
    const keys = (o: { markets: Array<{ key: string }> }) => o.markets.map((m) => m.key);
    assert.deepEqual(keys(await hc.getEvent('p1', { markets: 'totals' })), ['totals:2.5']);
    assert.deepEqual(keys(await hc.getEventOdds('p1', { markets: '1x2' })), ['1x2']);
    assert.deepEqual(keys(await hc.getEventOddsAt('p1', new Date(h.svc.clock.now()), { markets: '1x2' })), ['1x2']);
    const batch = await hc.getEventsBatch(['p1'], { markets: 'btts' });
    assert.deepEqual(batch.events.p1?.markets, []);
    assert.deepEqual(keys(await hc.getEventOdds('p1', { markets: '1x3' })), []);
    await assert.rejects(hc.getEventOdds('p1', { markets: 'to-tals' }), (err: unknown) => {
      assert.ok(err instanceof SportsDataError);
      assert.equal(err.status, 400);
      assert.match(err.message, /markets/);
      return true;
    });
  });
});
