// Read model: payloads are serialized once per change, list order and filters, summaries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market, SportEvent } from '../../src/domain/types.js';
import type { EventQuery } from '../../src/live/event-query.js';
import { ReadModel } from '../../src/live/read-model.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');

function event(id: string, over: Partial<SportEvent> = {}): SportEvent {
  return {
    id,
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    homeTeam: `H ${id}`,
    awayTeam: `A ${id}`,
    homeLogoId: null,
    awayLogoId: null,
    startTime: T0 + 3_600_000,
    status: 'prematch',
    score: { home: 0, away: 0 },
    period: '',
    clock: null,
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: T0,
    statusChangedAt: T0,
    endedAt: null,
    playerStats: null,
    ...over,
  };
}

const oneXTwo = (home: number): Market => ({
  marketId: 1,
  key: '1x2',
  name: 'Match Result',
  outcomes: [
    { selectionId: 11, code: 'home', label: 'Home', odds: home, teamSide: 'home', isLocked: false },
    { selectionId: 12, code: 'draw', label: 'Draw', odds: 3.3, teamSide: null, isLocked: false },
    { selectionId: 13, code: 'away', label: 'Away', odds: 3.1, teamSide: 'away', isLocked: false },
  ],
});

const query = (over: Partial<EventQuery> = {}): EventQuery => ({
  status: 'default',
  sport: null,
  league: null,
  country: null,
  fromMs: null,
  toMs: null,
  startsWithinMs: null,
  limit: 50,
  offset: 0,
  ...over,
});

describe('read model: serialized payloads', () => {
  it('the odds payload is serialized once and served from cache until the event changes', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event('e1'));
    rm.upsertMarkets(le, [oneXTwo(2.1)]);
    const first = rm.oddsJson(le, 'decimal');
    const built = rm.serializations;
    for (let i = 0; i < 100; i++) assert.equal(rm.oddsJson(le, 'decimal'), first);
    assert.equal(rm.serializations, built);
    le.book.setOdds(le.book.indexOfSelection(11), 2.5);
    rm.touch(le);
    const second = rm.oddsJson(le, 'decimal');
    assert.notEqual(second, first);
    assert.match(second.toString(), /"odds":2\.5/);
    assert.ok(rm.serializations > built);
  });

  it('a change frees the cached payloads of the event at once (no stale bytes left for the LRU)', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event('e1'));
    rm.upsertMarkets(le, [oneXTwo(2.1)]);
    rm.oddsJson(le, 'decimal');
    rm.oddsJson(le, 'american');
    assert.ok(rm.cachedPayloadBytes > 0);
    rm.touch(le);
    assert.equal(rm.cachedPayloadBytes, 0);
  });

  it('each odds format is its own cached payload', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event('e1'));
    rm.upsertMarkets(le, [oneXTwo(2.5)]);
    const american = JSON.parse(rm.oddsJson(le, 'american').toString()) as {
      markets: Array<{ outcomes: Array<{ odds: unknown }> }>;
    };
    const fractional = JSON.parse(rm.oddsJson(le, 'fractional').toString()) as typeof american;
    assert.equal(american.markets[0]?.outcomes[0]?.odds, 150);
    assert.equal(fractional.markets[0]?.outcomes[0]?.odds, '3/2');
  });

  it('a list page is rebuilt only after some event changed, reusing unchanged items', () => {
    const rm = new ReadModel({ now: () => T0 });
    const a = rm.putEvent(event('a'));
    rm.putEvent(event('b'));
    const page = rm.listPage(query(), 'decimal', 'http://x');
    const built = rm.serializations;
    assert.equal(rm.listPage(query(), 'decimal', 'http://x'), page);
    assert.equal(rm.serializations, built);
    rm.upsertMarkets(a, [oneXTwo(2)]);
    const next = rm.listPage(query(), 'decimal', 'http://x');
    assert.notEqual(next, page);
    // One new page and one new item (a); b's item came from its cache.
    assert.equal(rm.serializations, built + 2);
  });

  it('an ended event returns no markets and counts none', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event('e1'));
    rm.upsertMarkets(le, [oneXTwo(2)]);
    rm.putEvent({ ...le.event, status: 'ended', endedAt: T0 });
    const odds = JSON.parse(rm.oddsJson(le, 'decimal').toString()) as { markets: unknown[] };
    assert.deepEqual(odds.markets, []);
    const item = JSON.parse(rm.listItemJson(le, 'decimal', 'http://x')) as { markets_count: number; odds: unknown };
    assert.equal(item.markets_count, 0);
    assert.deepEqual(item.odds, { home: null, draw: null, away: null });
  });

  it('markets_count counts markets with at least one open selection', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event('e1'));
    const locked = oneXTwo(2);
    locked.outcomes.forEach((o) => (o.isLocked = true));
    rm.upsertMarkets(le, [locked]);
    const item = JSON.parse(rm.listItemJson(le, 'decimal', 'http://x')) as {
      markets_count: number;
      odds: { home: number };
    };
    assert.equal(item.markets_count, 0);
    assert.equal(item.odds.home, 2, 'a locked selection keeps its last odds');
  });
});

describe('read model: order, filters and summaries', () => {
  it('lists live events first, then the rest by start time, then by id', () => {
    const rm = new ReadModel({ now: () => T0 });
    rm.putEvent(event('late', { startTime: T0 + 9e6 }));
    rm.putEvent(event('early', { startTime: T0 + 1e6 }));
    rm.putEvent(event('live2', { status: 'live', startTime: T0 - 1e6 }));
    rm.putEvent(event('live1', { status: 'live', startTime: T0 - 2e6 }));
    rm.putEvent(event('b-tie', { startTime: T0 + 5e6 }));
    rm.putEvent(event('a-tie', { startTime: T0 + 5e6 }));
    assert.deepEqual(
      rm.query(query()).page.map((le) => le.event.id),
      ['live1', 'live2', 'early', 'a-tie', 'b-tie', 'late'],
    );
  });

  it('re-sorts when a status or start time changes', () => {
    const rm = new ReadModel({ now: () => T0 });
    rm.putEvent(event('a', { startTime: T0 + 1e6 }));
    const b = rm.putEvent(event('b', { startTime: T0 + 2e6 }));
    rm.putEvent({ ...b.event, status: 'live' });
    assert.deepEqual(
      rm.query(query()).page.map((le) => le.event.id),
      ['b', 'a'],
    );
  });

  it('filters by sport index, league slug or name part, country part, window and status', () => {
    const rm = new ReadModel({ now: () => T0 });
    rm.putEvent(event('s1'));
    rm.putEvent(
      event('b1', { sport: 'basketball', league: { slug: 'usa-nba', name: 'NBA', country: 'USA', tier: 1 } }),
    );
    rm.putEvent(
      event('s2', {
        league: { slug: 'germany-bundesliga', name: 'Bundesliga', country: 'Germany', tier: 1 },
        startTime: T0 + 2 * 86_400_000,
      }),
    );
    rm.putEvent(event('x', { status: 'ended' }));
    const ids = (q: Partial<EventQuery>): string[] => rm.query(query(q)).page.map((le) => le.event.id);
    assert.deepEqual(ids({ sport: 'basketball' }), ['b1']);
    assert.deepEqual(ids({ league: 'usa-nba' }), ['b1']);
    assert.deepEqual(ids({ league: 'bundes' }), ['s2']);
    assert.deepEqual(ids({ country: 'ENG' }), ['s1']);
    assert.deepEqual(ids({ startsWithinMs: 86_400_000 }), ['b1', 's1']);
    assert.deepEqual(ids({ status: 'ended' }), ['x']);
    assert.equal(rm.query(query({ status: 'all' })).total, 4);
    assert.deepEqual(ids({ fromMs: T0 + 86_400_000, toMs: T0 + 3 * 86_400_000 }), ['s2']);
  });

  it('pages with limit and offset and reports the total before paging', () => {
    const rm = new ReadModel({ now: () => T0 });
    for (let i = 0; i < 7; i++) rm.putEvent(event(`e${i}`, { startTime: T0 + i * 1000 }));
    const r = rm.query(query({ limit: 3, offset: 3 }));
    assert.equal(r.total, 7);
    assert.deepEqual(
      r.page.map((le) => le.event.id),
      ['e3', 'e4', 'e5'],
    );
  });

  it('leagues count live plus prematch events; leagues with neither are left out', () => {
    const rm = new ReadModel({ now: () => T0 });
    rm.putEvent(event('a', { status: 'live' }));
    rm.putEvent(event('b'));
    rm.putEvent(event('c', { status: 'ended', league: { slug: 'old', name: 'Old', country: 'X', tier: 2 } }));
    assert.deepEqual(rm.leagues(), [
      {
        slug: 'england-premier-league',
        name: 'Premier League',
        country: 'England',
        sport: { key: 'soccer', name: 'Soccer' },
        active_events: 2,
        live_events: 1,
      },
    ]);
  });

  it('scores keep games that ended within 5 minutes, then drop them', () => {
    let now = T0;
    const rm = new ReadModel({ now: () => now });
    rm.putEvent(event('live', { status: 'live' }));
    rm.putEvent(event('done', { status: 'ended', endedAt: T0, statusChangedAt: T0 }));
    assert.deepEqual(
      rm.scores(null).map((le) => le.event.id),
      ['live', 'done'],
    );
    now = T0 + 5 * 60_000 + 1;
    assert.deepEqual(
      rm.scores(null).map((le) => le.event.id),
      ['live'],
    );
  });
});
