// In-play calibration: plays seeded engine games, records the fair price of main markets at fixed checkpoints, grades them by settlement's rules.
import { gradeMarket } from '../../../domain/grading/index.js';
import type { Market } from '../../../domain/types.js';
import type { FairMarket } from '../pricing/fair.js';
import { Rng } from '../rng.js';
import { createEngine } from './registry.js';
import { sampleLeagues, samplePair, type SampleOptions } from './sample-games.js';
import type { MatchEngine } from './types.js';

/**
 * Which main market a probe priced: the winner (moneyline, else 1x2 home), the middle total line,
 * the middle handicap line; `trailing` is the winner market again, priced for the side behind on the score.
 */
export type ProbeGroup = 'winner' | 'total' | 'handicap' | 'trailing';

export interface Probe {
  group: ProbeGroup;
  key: string;
  /** Share of the game's expected length played when priced (the checkpoint). */
  at: number;
  /** Fair chance of the market's first outcome (home / over), or of the trailing side's win. */
  p: number;
  /** It won (1) or lost (0); half results and refunds are left out. */
  won: 0 | 1;
  /** Home lead on the score when priced (sets in tennis, goals, points…). */
  lead: number;
}

/** A sample's games (sample-games.ts), priced at checkpoints. */
export interface CalibrationOptions extends Omit<SampleOptions, 'withOpening'> {
  /** Shares of the expected game length at which to price (default 0.2, 0.4, 0.6, 0.8). */
  checkpoints?: readonly number[];
}

const DEFAULT_CHECKPOINTS = [0.2, 0.4, 0.6, 0.8] as const;

/** The main markets a probe follows in this book: first the winner, then the middle lines. */
function pickMain(ms: readonly FairMarket[]): Array<{ group: ProbeGroup; key: string }> {
  const out: Array<{ group: ProbeGroup; key: string }> = [];
  const winner = ms.find((m) => m.key === 'moneyline') ?? ms.find((m) => m.key === '1x2');
  if (winner) out.push({ group: 'winner', key: winner.key });
  const middle = (prefix: string): string | undefined => {
    const keys = ms.filter((m) => m.key.startsWith(prefix)).map((m) => m.key);
    return keys[Math.floor(keys.length / 2)];
  };
  const total = middle('totals:');
  if (total !== undefined) out.push({ group: 'total', key: total });
  const handicap = middle('asian_handicap:');
  if (handicap !== undefined) out.push({ group: 'handicap', key: handicap });
  return out;
}

function asMarket(m: FairMarket): Market {
  return {
    marketId: 0,
    key: m.key,
    name: m.name,
    outcomes: m.outcomes.map((o, i) => ({
      selectionId: i,
      code: o.code,
      label: o.label,
      odds: 2,
      teamSide: o.side,
      isLocked: false,
    })),
  };
}

function play(engine: MatchEngine, checkpoints: readonly number[], onCheckpoint: (at: number) => void): void {
  const length = engine.expectedDurationMs();
  let clock = engine.begin();
  let next = 0;
  for (let guard = 0; !engine.finished() && guard < 200_000; guard++) {
    while (next < checkpoints.length && clock >= checkpoints[next]! * length) onCheckpoint(checkpoints[next++]!);
    clock += engine.step().next;
  }
}

/**
 * Plays `games` seeded games of the sport (leagues in turn, random pairs) and prices the main
 * markets at each checkpoint of the game's expected length; every undecided price is graded on the
 * final result with the settlement rules (gradeMarket), so a probe says what the price promised and
 * what the market paid.
 */
export function inplayProbes(o: CalibrationOptions): Probe[] {
  const leagues = sampleLeagues(o);
  const pick = Rng.derive(o.seed, 'inplay-calibration', o.sport);
  const probes: Probe[] = [];
  for (let g = 0; g < o.games; g++) {
    const league = leagues[g % leagues.length]!;
    const [hi, ai] = samplePair(pick, league);
    const engine = createEngine(o.sport, {
      rng: Rng.derive(o.seed, 'inplay-calibration-game', o.sport, g),
      league,
      home: league.teams[hi]!,
      away: league.teams[ai]!,
      names: { home: 'H', away: 'A' },
    });
    const main = pickMain(engine.markets('main'));
    const priced: Array<{ group: ProbeGroup; market: FairMarket; at: number; lead: number }> = [];
    play(engine, o.checkpoints ?? DEFAULT_CHECKPOINTS, (at) => {
      const ms = engine.markets('main');
      const { score } = engine.snapshot();
      for (const { group, key } of main) {
        const m = ms.find((x) => x.key === key);
        if (m === undefined || m.decided === true) continue;
        priced.push({ group, market: m, at, lead: score.home - score.away });
      }
    });
    if (!engine.finished()) continue;
    const r = engine.result();
    const result = {
      eventId: 'calibration',
      status: 'ended' as const,
      score: r.score,
      periodScores: r.periodScores,
      winner: r.winner,
      endedAt: 0,
      revision: 1,
      recordedAt: 0,
    };
    for (const x of priced) {
      const grade = gradeMarket(asMarket(x.market), { sport: o.sport, result, playerStats: null });
      if (grade.status !== 'graded') continue;
      const add = (group: ProbeGroup, i: number): void => {
        const g = grade.outcomes[i]!;
        if (g.result === 'refund' || g.voidFactor !== undefined) return;
        const won = g.result === 'won' ? 1 : 0;
        probes.push({ group, key: x.market.key, at: x.at, p: x.market.outcomes[i]!.p, won, lead: x.lead });
      };
      add(x.group, 0);
      if (x.group === 'winner' && x.lead !== 0) {
        const side = x.lead < 0 ? 'home' : 'away';
        add(
          'trailing',
          x.market.outcomes.findIndex((o) => o.code === side),
        );
      }
    }
  }
  return probes;
}

export interface Bucket {
  /** Priced range [lo, hi). */
  lo: number;
  hi: number;
  n: number;
  priced: number;
  realised: number;
}

/** Reliability table: probes in price buckets of `width`, mean price against the share that won. */
export function reliability(probes: readonly Probe[], width = 0.1): Bucket[] {
  const k = Math.round(1 / width);
  const out: Bucket[] = Array.from({ length: k }, (_, i) => ({
    lo: i * width,
    hi: (i + 1) * width,
    n: 0,
    priced: 0,
    realised: 0,
  }));
  for (const p of probes) {
    const b = out[Math.min(k - 1, Math.floor(p.p * k))]!;
    b.n++;
    b.priced += p.p;
    b.realised += p.won;
  }
  return out.filter((b) => b.n > 0).map((b) => ({ ...b, priced: b.priced / b.n, realised: b.realised / b.n }));
}

/**
 * Calibration slope: b of the logistic fit P(won) = logistic(a + b·logit(p)). 1 when prices are as
 * sure as the outcomes bear out; below 1 the book is overconfident (its favourites win less often
 * than priced, its outsiders more), above 1 underconfident.
 */
export function calibrationSlope(probes: readonly Probe[]): number {
  const xs = probes.map((p) => {
    const q = Math.min(0.999, Math.max(0.001, p.p));
    return Math.log(q / (1 - q));
  });
  let a = 0;
  let b = 1;
  for (let iter = 0; iter < 25; iter++) {
    // Newton steps on the log-likelihood of (a, b).
    let ga = 0;
    let gb = 0;
    let haa = 0;
    let hab = 0;
    let hbb = 0;
    probes.forEach((p, i) => {
      const x = xs[i]!;
      const m = 1 / (1 + Math.exp(-(a + b * x)));
      const w = m * (1 - m);
      ga += p.won - m;
      gb += (p.won - m) * x;
      haa += w;
      hab += w * x;
      hbb += w * x * x;
    });
    const det = haa * hbb - hab * hab;
    if (!(Math.abs(det) > 1e-12)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a += da;
    b += db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return b;
}

/** Mean price against the share that won (e.g. of the side trailing at one checkpoint). */
export function summary(probes: readonly Probe[]): { n: number; priced: number; realised: number } {
  const n = probes.length;
  if (n === 0) return { n, priced: 0, realised: 0 };
  return {
    n,
    priced: probes.reduce((s, p) => s + p.p, 0) / n,
    realised: probes.reduce((s, p) => s + p.won, 0) / n,
  };
}
