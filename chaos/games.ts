// The campaign's games: a deterministic set (from the seed) of soccer games with 1x2 and totals markets, their feed messages step by step, and the result and settlement each must end with.
import { Rng } from '../src/feed/simulator/rng.js';

export const TOTALS_LINES = [0.5, 1.5, 2.5, 3.5] as const;
/** Markets per game: 1x2 and one totals market per line. */
export const MARKETS_PER_GAME = 1 + TOTALS_LINES.length;

export interface PeriodScore {
  period: string;
  home: number;
  away: number;
}

export interface Game {
  id: string;
  home: number;
  away: number;
  periods: PeriodScore[];
  /** selection_id → the result it must settle with. */
  expected: Map<number, 'won' | 'lost'>;
}

/** The game number `i` of a campaign's seed: its final score and what each selection settles as. */
export function gameOf(seed: number, i: number): Game {
  const rng = Rng.derive(seed, 'game', i);
  const h1 = rng.int(0, 2);
  const a1 = rng.int(0, 2);
  const home = h1 + rng.int(0, 2);
  const away = a1 + rng.int(0, 2);
  const expected = new Map<number, 'won' | 'lost'>();
  const winner = home > away ? 11 : home === away ? 12 : 13;
  for (const s of [11, 12, 13]) expected.set(s, s === winner ? 'won' : 'lost');
  TOTALS_LINES.forEach((line, k) => {
    const over = home + away > line;
    expected.set(20 + 10 * k + 1, over ? 'won' : 'lost');
    expected.set(20 + 10 * k + 2, over ? 'lost' : 'won');
  });
  return {
    id: `chaos-${seed}-${i}`,
    home,
    away,
    periods: [
      { period: '1H', home: h1, away: a1 },
      { period: '2H', home: home - h1, away: away - a1 },
    ],
    expected,
  };
}

function markets(price: number): object[] {
  const p = (x: number): number => Math.round(x * 100) / 100;
  return [
    {
      market_id: 1,
      key: '1x2',
      name: 'Match result',
      outcomes: [
        { selection_id: 11, code: 'home', label: 'Home', odds: p(price), team_side: 'home' },
        { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.3 },
        { selection_id: 13, code: 'away', label: 'Away', odds: p(price + 1.1), team_side: 'away' },
      ],
    },
    ...TOTALS_LINES.map((line, k) => ({
      market_id: 2 + k,
      key: `totals:${line}`,
      name: `Total goals ${line}`,
      outcomes: [
        { selection_id: 20 + 10 * k + 1, code: 'over', label: 'Over', odds: 1.9 },
        { selection_id: 20 + 10 * k + 2, code: 'under', label: 'Under', odds: 1.9 },
      ],
    })),
  ];
}

/** Steps of a game's life, each a few lines about it, in order: the last one is its result. */
export const STEPS = 7;

/** The lines of step `step` (0 … STEPS-1) of game `g`, sent at wall time `now`. */
export function stepLines(g: Game, step: number, now: number): object[] {
  const iso = (ms: number): string => new Date(ms).toISOString();
  const id = g.id;
  const [p1] = g.periods as [PeriodScore, PeriodScore];
  switch (step) {
    case 0:
      return [
        {
          type: 'fixture',
          event_id: id,
          sport: 'soccer',
          league: { slug: 'chaos-league', name: 'Chaos League', country: 'Chaosland' },
          home_team: `${id} Home`,
          away_team: `${id} Away`,
          start_time: iso(now + 60_000),
        },
        { type: 'markets', event_id: id, markets: markets(2.0) },
      ];
    case 1:
      return [{ type: 'status', event_id: id, status: 'live' }];
    case 2:
    case 4:
      return [{ type: 'odds', event_id: id, changes: [{ selection_id: 11, odds: 2 + step / 10 }] }];
    case 3:
      return [
        {
          type: 'score',
          event_id: id,
          score: { home: p1.home, away: p1.away },
          period: 'HT',
          clock: '45:00',
          period_scores: [p1],
        },
      ];
    case 5:
      return [
        {
          type: 'score',
          event_id: id,
          score: { home: g.home, away: g.away },
          period: '2H',
          clock: '90:00',
          period_scores: g.periods,
        },
        { type: 'remove_markets', event_id: id, all: true },
      ];
    default:
      return [
        {
          type: 'result',
          event_id: id,
          status: 'ended',
          score: { home: g.home, away: g.away },
          period_scores: g.periods,
          ended_at: iso(now),
        },
      ];
  }
}

/** Odds changes for every live game at once: what a producer burst sends during a fault. */
export function burstLines(ids: readonly string[], n: number): object[] {
  return ids.map((id) => ({
    type: 'odds',
    event_id: id,
    changes: [
      { selection_id: 12, odds: 3 + (n % 50) / 100 },
      { selection_id: 21, odds: 1.8 + (n % 20) / 100 },
    ],
  }));
}
