// A synthetic, deterministic world of feed messages: one deep soccer event (1,000 markets) plus a thousand ordinary events.
import type { FeedMessage, FixtureMessage, MarketDef, MarketsMessage, Outcome } from '../src/feed/messages.js';
import { SPORTS, type SportInfo } from '../src/domain/sports.js';

export interface WorldOptions {
  /** Start times are laid out from this instant, so every event is prematch and upcoming. */
  now: number;
  /** Markets of the deep event (the odds benchmark's payload). */
  deepMarkets?: number;
  /** Ordinary events besides the deep one (the list benchmark's pages). */
  otherEvents?: number;
  seed?: number;
}

export interface World {
  deepEventId: string;
  /** Fixtures first, then markets: the order a feed must deliver them in. */
  messages: FeedMessage[];
  stats: { events: number; deepMarkets: number; deepSelections: number; totalMarkets: number; totalSelections: number };
}

/** mulberry32: small, fast, and good enough to vary prices reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Decimal odds of a probability with a bookmaker margin, never below the 1.01 floor. */
export function price(probability: number, margin = 1.06): number {
  const p = Math.min(0.985, Math.max(0.002, probability * margin));
  return Math.max(1.01, Math.round((1 / p) * 100) / 100);
}

/** P(X > line) for a count with the given mean, via a logistic curve: plausible shapes, not a model. */
export function overProbability(line: number, mean: number, spread: number): number {
  return 1 / (1 + Math.exp((line - mean) / spread));
}

/** Quarter-step lines from `from` to `to` inclusive, written as the grammar wants them (no `+`). */
export function lines(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to + 1e-9; v += step) out.push(Math.round(v * 100) / 100);
  return out;
}

export const fmtLine = (line: number): string => String(line === 0 ? 0 : line);

/** Correct-score outcomes from 0-0 to max-max plus `other` (with probability `other`). */
export function correctScoreOutcomes(
  f: { jitter(p: number): number },
  max: number,
  other: number,
): Array<Omit<Outcome, 'selection_id'>> {
  const scores: Array<Omit<Outcome, 'selection_id'>> = [];
  for (let h = 0; h <= max; h++) {
    for (let a = 0; a <= max; a++) {
      scores.push({
        code: `${h}-${a}`,
        label: `${h}-${a}`,
        odds: price(f.jitter(0.12 / (1 + h * h + a * a))),
        team_side: null,
      });
    }
  }
  scores.push({ code: 'other', label: 'Any other score', odds: price(other), team_side: null });
  return scores;
}
export const signed = (line: number): string => (line > 0 ? `+${fmtLine(line)}` : fmtLine(line));

const PERIODS: ReadonlyArray<{ suffix: string; label: string; share: number }> = [
  { suffix: '', label: '', share: 1 },
  { suffix: '@1h', label: ' - 1st Half', share: 0.45 },
  { suffix: '@2h', label: ' - 2nd Half', share: 0.55 },
];

export class MarketFactory {
  private marketId: number;
  private selectionId: number;
  readonly markets: MarketDef[] = [];

  constructor(
    firstMarketId: number,
    firstSelectionId: number,
    readonly random: () => number,
  ) {
    this.marketId = firstMarketId;
    this.selectionId = firstSelectionId;
  }

  get nextIds(): { market: number; selection: number } {
    return { market: this.marketId, selection: this.selectionId };
  }

  add(key: string, name: string, outcomes: Array<Omit<Outcome, 'selection_id'>>): void {
    this.markets.push({
      market_id: this.marketId++,
      key,
      name,
      outcomes: outcomes.map((o) => ({ ...o, selection_id: this.selectionId++ })),
    });
  }

  /** Jitters a probability a little so that neighbouring markets do not carry identical prices. */
  jitter(p: number): number {
    return p * (0.97 + this.random() * 0.06);
  }

  overUnder(key: string, name: string, pOver: number): void {
    this.add(key, name, [
      { code: 'over', label: 'Over', odds: price(this.jitter(pOver)), team_side: null },
      { code: 'under', label: 'Under', odds: price(this.jitter(1 - pOver)), team_side: null },
    ]);
  }
}

interface Squad {
  id: string;
  name: string;
  team: 'home' | 'away';
}

function squad(home: string, away: string): Squad[] {
  const out: Squad[] = [];
  for (const [team, club] of [
    ['home', home],
    ['away', away],
  ] as const) {
    // Eleven starters and three substitutes a side: props are priced for the whole matchday squad.
    for (let n = 1; n <= 14; n++) out.push({ id: `${team}-p${n}`, name: `${club} Player ${n}`, team });
  }
  return out;
}

/** Every market family a deep soccer book carries, in the order a bookmaker would list them. */
function deepSoccerMarkets(f: MarketFactory, home: string, away: string, target: number): void {
  const homeWin = 0.46;
  const draw = 0.27;
  const awayWin = 0.27;
  for (const p of PERIODS) {
    f.add(`1x2${p.suffix}`, `Match Result${p.label}`, [
      { code: 'home', label: home, odds: price(f.jitter(homeWin)), team_side: 'home' },
      { code: 'draw', label: 'Draw', odds: price(f.jitter(draw)), team_side: null },
      { code: 'away', label: away, odds: price(f.jitter(awayWin)), team_side: 'away' },
    ]);
    f.add(`double_chance${p.suffix}`, `Double Chance${p.label}`, [
      { code: 'home_draw', label: `${home} or Draw`, odds: price(homeWin + draw), team_side: null },
      { code: 'home_away', label: `${home} or ${away}`, odds: price(homeWin + awayWin), team_side: null },
      { code: 'draw_away', label: `Draw or ${away}`, odds: price(draw + awayWin), team_side: null },
    ]);
    f.add(`draw_no_bet${p.suffix}`, `Draw No Bet${p.label}`, [
      { code: 'home', label: home, odds: price(homeWin / (homeWin + awayWin)), team_side: 'home' },
      { code: 'away', label: away, odds: price(awayWin / (homeWin + awayWin)), team_side: 'away' },
    ]);
    f.add(`btts${p.suffix}`, `Both Teams To Score${p.label}`, [
      { code: 'yes', label: 'Yes', odds: price(f.jitter(0.52 * p.share + 0.05)), team_side: null },
      { code: 'no', label: 'No', odds: price(f.jitter(1 - 0.52 * p.share - 0.05)), team_side: null },
    ]);
    f.add(`odd_even${p.suffix}`, `Odd/Even Goals${p.label}`, [
      { code: 'odd', label: 'Odd', odds: price(0.5), team_side: null },
      { code: 'even', label: 'Even', odds: price(0.5), team_side: null },
    ]);
  }

  const htft: Array<Omit<Outcome, 'selection_id'>> = [];
  for (const ht of ['home', 'draw', 'away'] as const) {
    for (const ft of ['home', 'draw', 'away'] as const) {
      htft.push({
        code: `${ht}/${ft}`,
        label: `${ht}/${ft}`,
        odds: price(f.jitter(ht === ft ? 0.2 : 0.06)),
        team_side: null,
      });
    }
  }
  f.add('ht_ft', 'Half Time/Full Time', htft);

  f.add('winning_margin', 'Winning Margin', [
    ...['1', '2', '3+'].map((m, i) => ({
      code: `home_${m}`,
      label: `${home} by ${m}`,
      odds: price(0.22 / (i + 1)),
      team_side: 'home' as const,
    })),
    { code: 'draw', label: 'Draw', odds: price(draw), team_side: null },
    ...['1', '2', '3+'].map((m, i) => ({
      code: `away_${m}`,
      label: `${away} by ${m}`,
      odds: price(0.14 / (i + 1)),
      team_side: 'away' as const,
    })),
  ]);

  for (const [p, max] of [
    [PERIODS[0]!, 6],
    [PERIODS[1]!, 3],
    [PERIODS[2]!, 3],
  ] as const) {
    f.add(`correct_score${p.suffix}`, `Correct Score${p.label}`, correctScoreOutcomes(f, max, 0.03));
  }

  for (const p of PERIODS) {
    for (const line of lines(-10, 10, 0.25)) {
      const pHome = overProbability(-line, 0.4 * p.share, 0.9);
      f.add(`asian_handicap${p.suffix}:${fmtLine(line)}`, `Asian Handicap ${signed(line)}${p.label}`, [
        { code: 'home', label: `${home} ${signed(line)}`, odds: price(f.jitter(pHome), 1.04), team_side: 'home' },
        { code: 'away', label: `${away} ${signed(-line)}`, odds: price(f.jitter(1 - pHome), 1.04), team_side: 'away' },
      ]);
    }
  }
  for (const p of PERIODS) {
    for (const line of lines(0.25, 15, 0.25)) {
      f.overUnder(
        `totals${p.suffix}:${fmtLine(line)}`,
        `Total Goals ${fmtLine(line)}${p.label}`,
        overProbability(line, 2.7 * p.share, 0.8),
      );
    }
  }
  for (const p of PERIODS) {
    for (const side of ['home', 'away'] as const) {
      const club = side === 'home' ? home : away;
      for (const line of lines(0.25, 7.5, 0.25)) {
        const mean = (side === 'home' ? 1.5 : 1.2) * p.share;
        f.overUnder(
          `team_totals_${side}${p.suffix}:${fmtLine(line)}`,
          `${club} Total Goals ${fmtLine(line)}${p.label}`,
          overProbability(line, mean, 0.7),
        );
      }
    }
  }

  // Player props: one market per statistic and line, one selection per player ("over the line"),
  // the player's id as the code so grading can read it against the `stats` message.
  const players = squad(home, away);
  const props: Array<{ family: string; name: string; lines: number[]; mean: number }> = [
    { family: 'player_goals', name: 'Goals', lines: [0.5, 1.5, 2.5], mean: 0.25 },
    { family: 'player_assists', name: 'Assists', lines: [0.5, 1.5], mean: 0.2 },
    { family: 'player_shots', name: 'Shots', lines: [0.5, 1.5, 2.5, 3.5, 4.5], mean: 1.4 },
    { family: 'player_shots_on_target', name: 'Shots On Target', lines: [0.5, 1.5, 2.5, 3.5], mean: 0.6 },
    { family: 'player_cards', name: 'Cards', lines: [0.5, 1.5], mean: 0.15 },
    { family: 'player_fouls', name: 'Fouls Committed', lines: [0.5, 1.5, 2.5, 3.5], mean: 1.1 },
    { family: 'player_tackles', name: 'Tackles', lines: [0.5, 1.5, 2.5, 3.5, 4.5], mean: 1.8 },
    { family: 'player_passes', name: 'Passes', lines: [19.5, 29.5, 39.5, 49.5, 59.5, 69.5], mean: 38 },
    { family: 'player_offsides', name: 'Offsides', lines: [0.5, 1.5], mean: 0.3 },
  ];
  for (const prop of props) {
    for (const line of prop.lines) {
      f.add(
        `${prop.family}:${fmtLine(line)}`,
        `Player ${prop.name} Over ${fmtLine(line)}`,
        players.map((pl) => ({
          code: pl.id,
          label: pl.name,
          odds: price(f.jitter(overProbability(line, prop.mean, prop.family === 'player_passes' ? 8 : 0.5))),
          team_side: pl.team,
        })),
      );
    }
  }

  // Match statistics fill the book up to the target market count: corners, cards, shots, fouls…
  const stats: Array<{ family: string; name: string; from: number; to: number; mean: number; spread: number }> = [
    { family: 'corners_totals', name: 'Total Corners', from: 2.5, to: 18.5, mean: 10, spread: 1.6 },
    { family: 'cards_totals', name: 'Total Cards', from: 0.5, to: 10.5, mean: 4, spread: 1.1 },
    { family: 'shots_totals', name: 'Total Shots', from: 10.5, to: 40.5, mean: 24, spread: 3 },
    { family: 'shots_on_target_totals', name: 'Total Shots On Target', from: 2.5, to: 16.5, mean: 8.5, spread: 1.5 },
    { family: 'fouls_totals', name: 'Total Fouls', from: 12.5, to: 36.5, mean: 23, spread: 2.5 },
    { family: 'offsides_totals', name: 'Total Offsides', from: 0.5, to: 8.5, mean: 3.5, spread: 1 },
  ];
  fill: for (let round = 0; ; round++) {
    for (const p of PERIODS) {
      for (const s of stats) {
        // Later rounds add the half-point lines between those of the first round.
        for (const line of lines(s.from + round * 0.25, s.to, 1)) {
          if (f.markets.length >= target) break fill;
          f.overUnder(
            `${s.family}${p.suffix}:${fmtLine(line)}`,
            `${s.name} ${fmtLine(line)}${p.label}`,
            overProbability(line, s.mean * p.share, s.spread),
          );
        }
      }
    }
    if (round > 3) throw new Error(`cannot build ${target} distinct markets`);
  }
}

/** The main market plus a few lines: what an ordinary event in the list carries. */
function ordinaryMarkets(f: MarketFactory, sport: SportInfo, home: string, away: string): void {
  const r = f.random;
  const pHome = 0.25 + r() * 0.45;
  if (sport.hasDraw) {
    const pDraw = 0.2 + r() * 0.1;
    f.add('1x2', 'Match Result', [
      { code: 'home', label: home, odds: price(pHome), team_side: 'home' },
      { code: 'draw', label: 'Draw', odds: price(pDraw), team_side: null },
      { code: 'away', label: away, odds: price(Math.max(0.05, 1 - pHome - pDraw)), team_side: 'away' },
    ]);
  } else {
    f.add('moneyline', 'Winner', [
      { code: 'home', label: home, odds: price(pHome), team_side: 'home' },
      { code: 'away', label: away, odds: price(1 - pHome), team_side: 'away' },
    ]);
  }
  const base = Math.round(2 + r() * 8) + 0.5;
  for (const line of [base - 1, base, base + 1])
    f.overUnder(`totals:${fmtLine(line)}`, `Total ${fmtLine(line)}`, overProbability(line, base, 1.2));
  f.add('asian_handicap:-0.5', 'Handicap -0.5', [
    { code: 'home', label: `${home} -0.5`, odds: price(pHome + 0.05), team_side: 'home' },
    { code: 'away', label: `${away} +0.5`, odds: price(0.95 - pHome), team_side: 'away' },
  ]);
}

const COUNTRIES = ['England', 'Spain', 'Germany', 'Italy', 'France', 'Brazil', 'USA', 'Japan', 'International'];

function fixture(
  id: string,
  sport: SportInfo,
  league: number,
  startMs: number,
  home: string,
  away: string,
): FixtureMessage {
  const country = COUNTRIES[(sport.sportId + league) % COUNTRIES.length]!;
  return {
    type: 'fixture',
    event_id: id,
    sport: sport.key,
    league: {
      slug: `${sport.key.replaceAll('_', '-')}-${country.toLowerCase()}-${league + 1}`,
      name: `${country} ${sport.name} League ${league + 1}`,
      country,
      tier: league + 1,
    },
    home_team: home,
    away_team: away,
    start_time: new Date(startMs).toISOString(),
    home_logo_id: `${id}-home`,
    away_logo_id: `${id}-away`,
  };
}

export function buildWorld(opts: WorldOptions): World {
  const deepMarkets = opts.deepMarkets ?? 1000;
  const otherEvents = opts.otherEvents ?? 1000;
  const random = prng(opts.seed ?? 7);
  // Whole minutes keep start times tidy; events start from an hour ahead so none turns live mid-run.
  const origin = Math.ceil(opts.now / 60_000) * 60_000 + 3_600_000;

  const fixtures: FeedMessage[] = [];
  const markets: MarketsMessage[] = [];
  const soccer = SPORTS.find((s) => s.key === 'soccer')!;

  const deepEventId = 'bench-soccer-deep';
  const deep = new MarketFactory(1, 1, random);
  deepSoccerMarkets(deep, 'Northbridge United', 'Southport Rovers', deepMarkets);
  fixtures.push(fixture(deepEventId, soccer, 0, origin, 'Northbridge United', 'Southport Rovers'));
  markets.push({ type: 'markets', event_id: deepEventId, markets: deep.markets });

  let ids = deep.nextIds;
  for (let i = 0; i < otherEvents; i++) {
    const sport = SPORTS[i % SPORTS.length]!;
    const id = `bench-${sport.key.replaceAll('_', '-')}-${i}`;
    const home = `${sport.name} Home ${i}`;
    const away = `${sport.name} Away ${i}`;
    fixtures.push(fixture(id, sport, i % 3, origin + (i + 1) * 5 * 60_000, home, away));
    const f = new MarketFactory(ids.market, ids.selection, random);
    ordinaryMarkets(f, sport, home, away);
    ids = f.nextIds;
    markets.push({ type: 'markets', event_id: id, markets: f.markets });
  }

  const count = (ms: MarketsMessage[]): number =>
    ms.reduce((n, m) => n + m.markets.reduce((k, d) => k + d.outcomes.length, 0), 0);
  return {
    deepEventId,
    messages: [...fixtures, ...markets],
    stats: {
      events: fixtures.length,
      deepMarkets: deep.markets.length,
      deepSelections: count([markets[0]!]),
      totalMarkets: markets.reduce((n, m) => n + m.markets.length, 0),
      totalSelections: count(markets),
    },
  };
}
