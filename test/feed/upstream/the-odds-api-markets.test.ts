// The Odds API mapping, pure: provider markets to our keys and codes, one bookmaker or the consensus, stable ids, sports and leagues.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gradeMarket } from '../../../src/domain/grading/catalog.js';
import type { EventResult } from '../../../src/domain/types.js';
import { validateFeedMessage } from '../../../src/feed/messages.js';
import { marketOf } from '../../../src/pipeline/map-messages.js';
import { marketIdOf, selectionIdOf, stableId } from '../../../src/feed/upstream/the-odds-api/ids.js';
import { choosePrices, marketsOf, scoreOf } from '../../../src/feed/upstream/the-odds-api/markets.js';
import { leagueOf } from '../../../src/feed/upstream/the-odds-api/sports.js';
import { oddsEvent } from './the-odds-api-fixtures.js';

const TEAMS = { home: 'Arsenal', away: 'Chelsea' };
const epl = oddsEvent('e1aaaa', 'soccer_epl', TEAMS, '2026-03-01T15:00:00Z', [
  { key: 'williamhill', h2h: [2.1, 3.4, 3.6], spread: [-0.5, 2.05, 1.85], total: [2.5, 1.9, 1.95] },
  { key: 'betfair', h2h: [2.2, 3.3, 3.5], spread: [-0.5, 2.1, 1.8], total: [2.5, 1.95, 1.9] },
  { key: 'paddypower', h2h: [2.0, 3.5, 3.8], spread: [-1, 2.6, 1.5], total: [3, 2.4, 1.6] },
]);

const byKey = (markets: ReturnType<typeof marketsOf>) => new Map(markets.map((m) => [m.key, m]));
const prices = (m: { outcomes: Array<{ code: string; odds: number }> } | undefined) =>
  Object.fromEntries((m?.outcomes ?? []).map((o) => [o.code, o.odds]));

describe('The Odds API markets', () => {
  it('soccer h2h with a draw is 1x2 with home, draw and away, whatever order the provider lists them in', () => {
    const m = byKey(marketsOf(epl, 'williamhill', 'soccer')).get('1x2');
    assert.deepEqual(prices(m), { home: 2.1, draw: 3.4, away: 3.6 });
    assert.deepEqual(
      m!.outcomes.map((o) => [o.code, o.label, o.team_side]),
      [
        ['home', 'Arsenal', 'home'],
        ['draw', 'Draw', null],
        ['away', 'Chelsea', 'away'],
      ],
    );
  });

  it('a two-way h2h is moneyline', () => {
    const nba = oddsEvent('e2', 'basketball_nba', { home: 'Lakers', away: 'Celtics' }, '2026-03-02T01:00:00Z', [
      { key: 'fanduel', h2h: [1.8, 2.05] },
    ]);
    const markets = marketsOf(nba, 'fanduel', 'basketball');
    assert.deepEqual(
      markets.map((m) => m.key),
      ['moneyline'],
    );
    assert.deepEqual(prices(markets[0]), { home: 1.8, away: 2.05 });
  });

  it("spreads are asian_handicap at the home side's line, totals are totals at theirs", () => {
    const m = byKey(marketsOf(epl, 'paddypower', 'soccer'));
    assert.deepEqual(prices(m.get('asian_handicap:-1')), { home: 2.6, away: 1.5 });
    assert.deepEqual(prices(m.get('totals:3')), { over: 2.4, under: 1.6 });
    assert.deepEqual([...m.keys()], ['1x2', 'asian_handicap:-1', 'totals:3']);
  });

  it('consensus is the median price per outcome over the bookmakers quoting the most common line', () => {
    const m = byKey(marketsOf(epl, 'consensus', 'soccer'));
    assert.deepEqual(prices(m.get('1x2')), { home: 2.1, draw: 3.4, away: 3.6 });
    // Two bookmakers quote -0.5 and 2.5, one -1 and 3: the majority lines, the mean of two middle prices.
    assert.deepEqual(prices(m.get('asian_handicap:-0.5')), { home: 2.075, away: 1.825 });
    assert.deepEqual(prices(m.get('totals:2.5')), { over: 1.925, under: 1.925 });
    assert.equal(m.has('totals:3'), false);
  });

  it('consensus breaks a tie between lines towards the smaller line, whatever the bookmakers order', () => {
    const a = oddsEvent('e3', 'soccer_epl', TEAMS, '2026-03-01T15:00:00Z', [
      { key: 'x', total: [3, 2.0, 1.8] },
      { key: 'y', total: [2.5, 1.7, 2.1] },
    ]);
    const b = { ...a, bookmakers: [...a.bookmakers].reverse() };
    assert.equal(choosePrices(a, 'totals', 'consensus')![0]!.line, 2.5);
    assert.equal(choosePrices(b, 'totals', 'consensus')![0]!.line, 2.5);
  });

  it('ice hockey spreads and totals include overtime and the shoot-out: puck_line_ot and totals_ot, never the regulation families', () => {
    const nhl = oddsEvent('h1', 'icehockey_nhl', { home: 'Rangers', away: 'Devils' }, '2026-03-02T00:00:00Z', [
      { key: 'x', h2h: [1.9, 1.95], spread: [-1.5, 2.6, 1.5], total: [5.5, 1.9, 1.9] },
      { key: 'y', h2h: [1.85, 2.0], spread: [1.5, 1.45, 2.75], total: [6, 2.05, 1.8] },
    ]);
    const m = byKey(marketsOf(nhl, 'x', 'ice_hockey'));
    assert.deepEqual([...m.keys()], ['moneyline', 'puck_line_ot:-1.5', 'totals_ot:5.5']);
    assert.deepEqual(prices(m.get('puck_line_ot:-1.5')), { home: 2.6, away: 1.5 });
    assert.deepEqual(prices(m.get('totals_ot:5.5')), { over: 1.9, under: 1.9 });
    assert.equal(m.get('puck_line_ot:-1.5')!.name, 'Puck Line incl. OT/SO -1.5');
    assert.deepEqual(
      m.get('puck_line_ot:-1.5')!.outcomes.map((o) => [o.code, o.label, o.team_side]),
      [
        ['home', 'Rangers', 'home'],
        ['away', 'Devils', 'away'],
      ],
    );
    // The home side's point is the line, also when home is the underdog; a whole total is kept (it can push).
    assert.deepEqual(
      marketsOf(nhl, 'y', 'ice_hockey').map((mk) => mk.key),
      ['moneyline', 'puck_line_ot:1.5', 'totals_ot:6'],
    );
    const v = validateFeedMessage({
      type: 'markets',
      event_id: 'toa-h1',
      markets: marketsOf(nhl, 'consensus', 'ice_hockey'),
    });
    assert.equal(v.ok, true, v.ok ? '' : v.message);
  });

  it('a final score graded on the ice hockey lines incl. OT counts the shoot-out goal the provider already gives', () => {
    // The provider reports a shoot-out win as 3-2; our _ot families take a score that is not level as it is.
    const nhl = oddsEvent('h2', 'icehockey_nhl', { home: 'Rangers', away: 'Devils' }, '2026-03-02T00:00:00Z', [
      { key: 'x', h2h: [1.9, 1.95], spread: [-1.5, 2.6, 1.5], total: [5, 1.9, 1.9] },
    ]);
    const result: EventResult = {
      eventId: 'toa-h2',
      status: 'ended',
      score: scoreOf({
        home_team: 'Rangers',
        away_team: 'Devils',
        scores: [
          { name: 'Rangers', score: '3' },
          { name: 'Devils', score: '2' },
        ],
      })!,
      periodScores: [],
      winner: null,
      endedAt: 0,
      revision: 1,
      recordedAt: 0,
    };
    const grades = Object.fromEntries(
      marketsOf(nhl, 'x', 'ice_hockey').map((def) => {
        const g = gradeMarket(marketOf(def), { sport: 'ice_hockey', result, playerStats: null });
        return [def.key, g.status === 'graded' ? g.outcomes.map((o) => o.result).join(' ') : g.status];
      }),
    );
    assert.deepEqual(grades, {
      moneyline: 'won lost',
      'puck_line_ot:-1.5': 'lost won',
      'totals_ot:5': 'refund refund',
    });
  });

  it('tennis takes h2h only: its lines count games, which the provider score does not tell', () => {
    const nhl = oddsEvent('h1', 'icehockey_nhl', { home: 'Rangers', away: 'Devils' }, '2026-03-02T00:00:00Z', [
      { key: 'x', h2h: [1.9, 1.95], spread: [-1.5, 2.6, 1.5], total: [5.5, 1.9, 1.9] },
    ]);
    assert.deepEqual(
      marketsOf(nhl, 'x', 'tennis').map((m) => m.key),
      ['moneyline'],
    );
    assert.deepEqual(
      marketsOf(nhl, 'x', 'baseball').map((m) => m.key),
      ['moneyline', 'asian_handicap:-1.5', 'totals:5.5'],
    );
  });

  it('a bookmaker that does not quote the event gives no markets', () => {
    assert.deepEqual(marketsOf(epl, 'pinnacle', 'soccer'), []);
  });

  it('prices below 1.01 and spreads whose two lines do not mirror are left out, not repaired', () => {
    const bad = oddsEvent('e4', 'soccer_epl', TEAMS, '2026-03-01T15:00:00Z', [
      { key: 'x', h2h: [1.0, 3.4, 3.6], total: [2.5, 1.9, 1.9] },
    ]);
    bad.bookmakers[0]!.markets.push({
      key: 'spreads',
      outcomes: [
        { name: 'Arsenal', price: 1.9, point: -1 },
        { name: 'Chelsea', price: 1.9, point: 0.5 },
      ],
    });
    assert.deepEqual(
      marketsOf(bad, 'x', 'soccer').map((m) => m.key),
      ['totals:2.5'],
    );
  });

  it('market and selection ids are stable integers below 2^53 derived from the provider event id', () => {
    const once = marketsOf(epl, 'williamhill', 'soccer');
    const again = marketsOf(structuredClone(epl), 'williamhill', 'soccer');
    assert.deepEqual(once, again);
    for (const m of once) {
      assert.equal(m.market_id, marketIdOf('e1aaaa', m.key));
      for (const o of m.outcomes) {
        assert.equal(o.selection_id, selectionIdOf('e1aaaa', m.key, o.code));
        assert.ok(Number.isSafeInteger(o.selection_id) && o.selection_id >= 0);
      }
    }
    assert.notEqual(marketIdOf('e1aaaa', '1x2'), marketIdOf('e1aaab', '1x2'));
    assert.notEqual(marketIdOf('e1aaaa', 'totals:2.5'), marketIdOf('e1aaaa', 'totals:3'));
    assert.ok(stableId('x') < 2 ** 48);
  });

  it('every market made is a valid feed markets message', () => {
    const v = validateFeedMessage({
      type: 'markets',
      event_id: 'toa-e1aaaa',
      markets: marketsOf(epl, 'consensus', 'soccer'),
    });
    assert.equal(v.ok, true, v.ok ? '' : v.message);
  });

  it('scores are matched to teams by name; a missing or non-numeric score is no score', () => {
    const s = (scores: Array<{ name: string; score: string }> | null) =>
      scoreOf({ home_team: 'A', away_team: 'B', scores });
    assert.deepEqual(
      s([
        { name: 'B', score: '1' },
        { name: 'A', score: '3' },
      ]),
      { home: 3, away: 1 },
    );
    assert.equal(s(null), null);
    assert.equal(s([{ name: 'A', score: '3' }]), null);
    assert.equal(
      s([
        { name: 'A', score: '3' },
        { name: 'B', score: 'x' },
      ]),
      null,
    );
  });

  it('provider sport keys map to our sports and a league; unknown groups to none', () => {
    assert.deepEqual(leagueOf('soccer_epl', 'EPL'), {
      sport: 'soccer',
      league: { slug: 'soccer-epl', name: 'EPL', country: 'England' },
    });
    assert.equal(leagueOf('basketball_euroleague', 'Euroleague')!.sport, 'basketball');
    assert.equal(leagueOf('basketball_euroleague', 'Euroleague')!.league.country, 'International');
    assert.equal(leagueOf('americanfootball_nfl', undefined)!.sport, 'american_football');
    assert.equal(leagueOf('aussierules_afl', 'AFL'), null);
  });
});
