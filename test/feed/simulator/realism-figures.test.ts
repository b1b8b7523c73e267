// Tests of the realism figures: hand-made feed message sequences in, per-sport counts and ratios out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { figuresOf, isDecided, RealismCollector, wentToOvertime } from '../../../src/feed/simulator/realism/figures.js';

const KICK_OFF = '2026-01-10T18:00:00Z';
const BEFORE = '2026-01-10T12:00:00Z';
const AFTER = '2026-01-10T18:30:00Z';

function fixture(id: string, sport: string, tier = 1): FeedMessage {
  return {
    type: 'fixture',
    ts: BEFORE,
    event_id: id,
    sport,
    league: { slug: 'l', name: 'L', country: 'X', tier },
    home_team: 'H',
    away_team: 'A',
    start_time: KICK_OFF,
  };
}

/** A one-market book: the main market `key` with the given prices, selection ids from `base`. */
function book(id: string, key: string, prices: number[], base: number, ts = BEFORE): FeedMessage {
  const codes = prices.length === 3 ? ['home', 'draw', 'away'] : ['home', 'away'];
  return {
    type: 'markets',
    ts,
    event_id: id,
    markets: [
      {
        market_id: base,
        key,
        name: key,
        outcomes: prices.map((odds, i) => ({ selection_id: base + i + 1, code: codes[i]!, label: codes[i]!, odds })),
      },
    ],
  };
}

function result(id: string, home: number, away: number, periods: Array<[string, number, number]> = []): FeedMessage {
  return {
    type: 'result',
    ts: AFTER,
    event_id: id,
    status: 'ended',
    score: { home, away },
    period_scores: periods.map(([period, h, a]) => ({ period, home: h, away: a })),
  };
}

describe('realism figures over feed messages', () => {
  const cases: Array<{ name: string; sport: string; messages: FeedMessage[]; expect: Record<string, number> }> = [
    {
      name: 'soccer finals: home/draw/away, goals, 0-0, 4+ margins',
      sport: 'soccer',
      messages: [
        fixture('a', 'soccer'),
        fixture('b', 'soccer'),
        fixture('c', 'soccer'),
        fixture('d', 'soccer'),
        result('a', 2, 1),
        result('b', 0, 0),
        result('c', 0, 5),
        result('d', 1, 1),
      ],
      expect: {
        homeShare: 0.25,
        drawShare: 0.5,
        awayShare: 0.25,
        pointsPerGame: 2.5,
        nilNilShare: 0.25,
        bigMarginShare: 0.25,
      },
    },
    {
      name: 'prematch favourites and overround from the first main-market publication',
      sport: 'baseball',
      messages: [
        fixture('a', 'baseball'),
        fixture('b', 'baseball'),
        book('a', 'moneyline', [1.04, 10], 100),
        book('b', 'moneyline', [1.9, 1.9], 200),
      ],
      expect: { favUnder105: 0.5, favUnder115: 0.5, overround: (1 / 1.04 + 0.1 - 1 + 2 / 1.9 - 1) / 2 },
    },
    {
      name: 'a book first published after kick-off is not a prematch book',
      sport: 'baseball',
      messages: [
        fixture('a', 'baseball'),
        fixture('b', 'baseball'),
        book('a', 'moneyline', [1.01, 20], 100, AFTER),
        book('b', 'moneyline', [1.5, 2.6], 200),
      ],
      expect: { books: 1, favUnder105: 0 },
    },
    {
      name: 'a main price that changed before kick-off counts as moved; a later change does not',
      sport: 'soccer',
      messages: [
        fixture('a', 'soccer'),
        fixture('b', 'soccer'),
        book('a', '1x2', [2, 3.4, 3.8], 100),
        book('b', '1x2', [2, 3.4, 3.8], 200),
        { type: 'odds', ts: BEFORE, event_id: 'a', changes: [{ selection_id: 101, odds: 2.05 }] },
        { type: 'status', ts: KICK_OFF, event_id: 'a', status: 'live' },
        { type: 'status', ts: KICK_OFF, event_id: 'b', status: 'live' },
        { type: 'odds', ts: AFTER, event_id: 'b', changes: [{ selection_id: 201, odds: 1.5 }] },
      ],
      expect: { mainMovedShare: 0.5 },
    },
    {
      name: 'baseball extra innings and big margins',
      sport: 'baseball',
      messages: [
        fixture('a', 'baseball'),
        fixture('b', 'baseball'),
        result('a', 3, 2, [
          ['I9', 0, 0],
          ['I10', 1, 0],
        ]),
        result('b', 12, 2, [['I9', 0, 0]]),
      ],
      expect: { overtimeShare: 0.5, bigMarginShare: 0.5, pointsPerGame: 9.5 },
    },
    {
      name: 'tennis straight sets and tie-break sets',
      sport: 'tennis',
      messages: [
        fixture('a', 'tennis'),
        fixture('b', 'tennis'),
        result('a', 2, 0, [
          ['S1', 7, 6],
          ['S2', 6, 3],
        ]),
        result('b', 1, 2, [
          ['S1', 6, 4],
          ['S2', 3, 6],
          ['S3', 6, 7],
        ]),
      ],
      expect: { straightSetsShare: 0.5, tieBreakSetShare: 0.4 },
    },
    {
      name: 'esports best-of-3 series to a decider',
      sport: 'cs2',
      messages: [fixture('a', 'cs2'), fixture('b', 'cs2'), result('a', 2, 1), result('b', 0, 2)],
      expect: { deciderShare: 0.5, mapsPerSeries: 2.5, series: 2 },
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const col = new RealismCollector();
      col.add(c.messages);
      const f = figuresOf(col.tallies.get(c.sport)!);
      for (const [k, v] of Object.entries(c.expect)) {
        const got = f[k as keyof typeof f];
        assert.ok(Math.abs((got as number) - v) < 1e-9, `${k}: ${String(got)} != ${v}`);
      }
    });

  it('live samples: no open market, decided open markets, prices at the bounds', () => {
    const col = new RealismCollector();
    col.add([
      fixture('a', 'basketball'),
      {
        type: 'markets',
        ts: BEFORE,
        event_id: 'a',
        markets: [
          {
            market_id: 1,
            key: 'totals@q1:46.5',
            name: 't',
            outcomes: [
              { selection_id: 11, code: 'over', label: 'Over', odds: 1.01 },
              { selection_id: 12, code: 'under', label: 'Under', odds: 15 },
            ],
          },
          {
            market_id: 2,
            key: 'moneyline',
            name: 'm',
            outcomes: [
              { selection_id: 21, code: 'home', label: 'H', odds: 1.5 },
              { selection_id: 22, code: 'away', label: 'A', odds: 2.6 },
            ],
          },
        ],
      },
      { type: 'status', ts: KICK_OFF, event_id: 'a', status: 'live' },
      {
        type: 'score',
        ts: AFTER,
        event_id: 'a',
        score: { home: 25, away: 22 },
        period: 'Q1',
        period_scores: [{ period: 'Q1', home: 25, away: 22 }],
      },
    ]);
    col.sample();
    // Everything locked: a sample with no open market.
    col.add([
      {
        type: 'odds',
        ts: AFTER,
        event_id: 'a',
        changes: [11, 12, 21, 22].map((selection_id) => ({ selection_id, is_locked: true })),
      },
    ]);
    col.sample();
    const f = figuresOf(col.tallies.get('basketball')!);
    assert.equal(f.liveSamples, 2);
    // Locked at the last message: no live time has passed with nothing open yet.
    assert.equal(f.noOpenShare, 0);
    assert.equal(f.decidedOpenShare, 0.5); // the q1 Over at 47 points scored; the moneyline is not decided
    assert.equal(f.boundPriceShare, 0.25); // 1.01 among 4 offered prices
  });
});

describe('decided markets and overtime', () => {
  const state = (period: string, home: number, away: number, periods: Array<[string, number, number]> = []) => ({
    score: { home, away },
    period,
    periodScores: new Map(periods.map(([p, h, a]) => [p, { home: h, away: a }])),
  });
  const over = [{ code: 'over' }, { code: 'under' }];
  const cases: Array<[string, string, ReturnType<typeof state>, boolean, ReadonlyArray<{ code: string }>?]> = [
    ['basketball', 'totals@q1:46.5', state('Q2', 30, 20, [['Q1', 30, 20]]), true],
    ['basketball', 'totals@q2:46.5', state('Q2', 30, 20, [['Q1', 30, 20]]), false],
    ['basketball', 'totals@1h:100.5', state('Q3', 60, 50), true],
    ['basketball', 'totals@1h:100.5', state('Q2', 60, 50), false],
    ['handball', 'totals:57.5', state('2H', 27, 32), true],
    ['handball', 'totals:57.5', state('2H', 27, 32), false, [{ code: 'under' }]],
    ['soccer', 'team_totals_home:1.5', state('2H', 2, 0), true],
    ['soccer', 'team_totals_away:1.5', state('2H', 2, 0), false],
    [
      'tennis',
      'totals:22.5',
      state('S3', 1, 1, [
        ['S1', 6, 4],
        ['S2', 4, 6],
        ['S3', 2, 1],
      ]),
      true,
    ],
    ['tennis', 'set_betting', state('S3', 1, 1), false],
    ['volleyball', 'totals:3.5', state('S1', 0, 0, [['S1', 1, 3]]), false],
    ['table_tennis', 'totals:4.5', state('G5', 2, 2, [['G5', 1, 0]]), false],
    ['table_tennis', 'totals:4.5', state('G6', 3, 2, [['G6', 1, 0]]), true],
    ['ice_hockey', 'totals@p1:1.5', state('P3', 1, 0), true],
  ];
  for (const [sport, key, s, want, outcomes] of cases)
    it(`${sport} ${key} at ${s.period} ${s.score.home}-${s.score.away}: ${want ? 'decided' : 'open'}`, () => {
      assert.equal(isDecided(sport, key, outcomes ?? over, s), want);
    });

  it('overtime from period scores', () => {
    assert.equal(wentToOvertime('baseball', [{ period: 'I10', home: 1, away: 0 }]), true);
    assert.equal(wentToOvertime('baseball', [{ period: 'I9', home: 1, away: 0 }]), false);
    assert.equal(wentToOvertime('basketball', [{ period: 'OT1', home: 8, away: 5 }]), true);
    assert.equal(
      wentToOvertime('ice_hockey', [
        { period: 'P1', home: 1, away: 0 },
        { period: 'P2', home: 0, away: 1 },
        { period: 'P3', home: 0, away: 0 },
      ]),
      true,
    );
    assert.equal(wentToOvertime('ice_hockey', [{ period: 'P1', home: 1, away: 0 }]), false);
  });
});

describe('no open market: a share of live time', () => {
  // The report samples every minute of the world, and the engines step on whole minutes (a soccer
  // minute, a boxing round's end): a 10 s lock taken at a step was seen by every sample that fell
  // on it, so boxing read 22% of samples with nothing open for 3% of its live time.
  it('weighs each stretch with nothing open by its length, not by the samples that fell on it', () => {
    const col = new RealismCollector();
    const at = (s: number): string => new Date(Date.parse(KICK_OFF) + s * 1000).toISOString();
    const lock = (ts: string, is_locked: boolean): FeedMessage => ({
      type: 'odds',
      ts,
      event_id: 'a',
      changes: [2, 3].map((selection_id) => ({ selection_id, is_locked })),
    });
    col.add([fixture('a', 'boxing'), book('a', 'moneyline', [1.5, 2.6], 1)]);
    col.add([{ type: 'status', ts: at(0), event_id: 'a', status: 'live' }]);
    col.add([lock(at(60), true)]);
    col.sample(); // a sample at the very instant of the lock
    col.add([lock(at(70), false)]);
    col.add([{ type: 'score', ts: at(120), event_id: 'a', score: { home: 0, away: 0 }, period: 'R1' }]);
    col.sample();
    const f = figuresOf(col.tallies.get('boxing')!);
    assert.ok(Math.abs(f.noOpenShare! - 10 / 120) < 1e-9, `noOpenShare ${String(f.noOpenShare)}`);
  });
});
