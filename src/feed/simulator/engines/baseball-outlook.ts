// Baseball runs to come, exactly as the engine plays them: half-inning Markov chains walked inning by inning (skipped bottom, walk-off, extras).
import { Dist } from '../pricing/dist.js';

/** Runs in one half-inning are followed up to this many (the rest folded in; a 15-run half is ~1e-9). */
const HALF_CAP = 20;
/** Runs still to come for one side are followed up to this many (the rest folded in). */
const GAME_CAP = 30;
/** Extra innings are walked until less than this much mass is still level. */
const EXTRAS_EPS = 1e-11;

/** Per plate appearance at k = 1: walk, single, double, triple, home run (the rest are outs). */
export const PA_RATES = [0.09, 0.14, 0.047, 0.004, 0.034] as const;
/** A runner on second scores on a single; a runner on first on a double; a runner on third on an out (< 2 outs). */
export const SECOND_SCORES_ON_SINGLE = 0.6;
export const FIRST_SCORES_ON_DOUBLE = 0.4;
export const SAC_FLY = 0.15;

/** One plate appearance's possible results from a state: chance, outs and bases after, runs scored. */
type Move = [p: number, outs: number, bases: number, runs: number];

/** The engine's plate appearance (baseball.ts) from outs and bases (bits 1st=1, 2nd=2, 3rd=4). */
function moves(k: number, o: number, b: number): Move[] {
  const rates = PA_RATES.map((r) => r * k);
  const pOut = Math.max(0, 1 - rates.reduce((s, r) => s + r, 0));
  const out: Move[] = [];
  const go = (p: number, o2: number, b2: number, runs: number): void => {
    if (p > 0) out.push([p, o2, b2, runs]);
  };
  const b0 = (b & 1) !== 0;
  const b1 = (b & 2) !== 0;
  const b2 = (b & 4) !== 0;
  const on = (b0 ? 1 : 0) + (b1 ? 1 : 0) + (b2 ? 1 : 0);
  // Walk: forced runners only.
  go(rates[0]!, o, 1 | (b0 || b1 ? 2 : 0) | ((b0 && b1) || b2 ? 4 : 0), b0 && b1 && b2 ? 1 : 0);
  // Single: third scores, second scores or stops at third, first to second.
  const s1 = b2 ? 1 : 0;
  const single = 1 | (b0 ? 2 : 0);
  if (b1) {
    go(rates[1]! * SECOND_SCORES_ON_SINGLE, o, single, s1 + 1);
    go(rates[1]! * (1 - SECOND_SCORES_ON_SINGLE), o, single | 4, s1);
  } else go(rates[1]!, o, single, s1);
  // Double: second and third score, first scores or stops at third.
  const s2 = (b1 ? 1 : 0) + (b2 ? 1 : 0);
  if (b0) {
    go(rates[2]! * FIRST_SCORES_ON_DOUBLE, o, 2, s2 + 1);
    go(rates[2]! * (1 - FIRST_SCORES_ON_DOUBLE), o, 2 | 4, s2);
  } else go(rates[2]!, o, 2, s2);
  go(rates[3]!, o, 4, on);
  go(rates[4]!, o, 0, on + 1);
  // Out: a runner on third may tag up with fewer than two outs.
  if (b2 && o < 2) {
    go(pOut * SAC_FLY, o + 1, b & 3, 1);
    go(pOut * (1 - SAC_FLY), o + 1, b, 0);
  } else go(pOut, o + 1, b, 0);
  return out;
}

/** Bases by runners on, most first: a plate appearance that scores nobody and makes no out adds a runner. */
const BY_RUNNERS = [7, 3, 5, 6, 1, 2, 4, 0] as const;

/**
 * One side's half-innings at its batting strength k, as the engine plays them: for every start
 * (outs, bases) and every walk-off target t (the half stops once it has t runs), the chance of each
 * number of runs. Computed backwards: a plate appearance either ends the half, stops it at the
 * target, or leads to a state whose answer is known (more outs, more runners on, or a lower target).
 */
export class HalfInnings {
  private static readonly W = HALF_CAP + 1;
  /** Every start's plain runs (no target): [(outs·8 + bases)·W + runs]. */
  private readonly plain: Float64Array;
  /** Every target from a fresh half and from extras' runner on second: [(t·2 + row)·W + runs]. */
  private readonly starts: Float64Array;
  /** Every start and target, [(t·24 + outs·8 + bases)·W + runs], kept only once a deciding half is under way. */
  private all: Float64Array | undefined;
  /** Expected plate appearances to the third out (each is an out with the same chance). */
  readonly pas: number;

  constructor(private readonly k: number) {
    const W = HalfInnings.W;
    const g = HalfInnings.solve(k);
    // A game held before its start (up to two weeks) needs only these: ~12 KB, not ~90 KB.
    this.plain = g.slice(W * 24 * W, (W + 1) * 24 * W);
    this.starts = new Float64Array((W + 1) * 2 * W);
    for (let t = 0; t <= W; t++)
      for (const [row, i] of [
        [0, 0],
        [1, 2],
      ] as const)
        this.starts.set(g.subarray((t * 24 + i) * W, (t * 24 + i + 1) * W), (t * 2 + row) * W);
    const pOut = 1 - PA_RATES.reduce((s, r) => s + r * k, 0);
    this.pas = 3 / pOut;
  }

  private static solve(k: number): Float64Array {
    const W = HalfInnings.W;
    const g = new Float64Array((W + 1) * 24 * W);
    // Flat tables of each state's moves: chance, next state (outs·8 + bases, 24 = third out), runs.
    const start = new Int32Array(25);
    const ps: number[] = [];
    const to: number[] = [];
    const runs: number[] = [];
    for (let i = 0; i < 24; i++) {
      start[i] = ps.length;
      for (const [p, o2, b2, r] of moves(k, Math.floor(i / 8), i % 8)) {
        ps.push(p);
        to.push(o2 >= 3 ? 24 : o2 * 8 + b2);
        runs.push(r);
      }
    }
    start[24] = ps.length;
    for (let i = 0; i < 24; i++) g[i * W] = 1; // t = 0: stopped at once
    for (let t = 1; t <= W; t++)
      for (let o = 2; o >= 0; o--)
        for (const b of BY_RUNNERS) {
          const i = o * 8 + b;
          const at = (t * 24 + i) * W;
          for (let m = start[i]!; m < start[i + 1]!; m++) {
            const p = ps[m]!;
            const r = runs[m]!;
            if (r >= t) g[at + Math.min(r, W - 1)]! += p;
            else if (to[m] === 24) g[at + r]! += p;
            else {
              const from = ((t - r) * 24 + to[m]!) * W;
              // Below a target of t' runs a half ends with fewer, or stops at most 4 past it.
              const end = Math.min(W, t - r + 4);
              for (let v = 0; v < end; v++) g[at + Math.min(W - 1, v + r)]! += p * g[from + v]!;
            }
          }
        }
    return g;
  }

  /** Runs from (outs, bases) to the third out, or until the half has t runs (a walk-off). */
  runs(outs: number, bases: number, t = HalfInnings.W): Float64Array {
    const W = HalfInnings.W;
    const i = outs * 8 + bases;
    if (t >= W) return this.plain.subarray(i * W, (i + 1) * W);
    if (i === 0 || i === 2) {
      const at = (t * 2 + (i === 0 ? 0 : 1)) * W;
      return this.starts.subarray(at, at + W);
    }
    this.all ??= HalfInnings.solve(this.k);
    const at = (t * 24 + i) * W;
    return this.all.subarray(at, at + W);
  }
}

/** Sum of two independent run counts, folded at GAME_CAP. */
function conv(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(GAME_CAP + 1);
  for (let i = 0; i < a.length; i++) {
    const pa = a[i]!;
    if (pa === 0) continue;
    for (let j = 0; j < b.length; j++) out[Math.min(GAME_CAP, i + j)]! += pa * b[j]!;
  }
  return out;
}

const NONE = Float64Array.of(1);
/** Chances below this are left out of the walk (they move no price). */
const TINY = 1e-13;

/**
 * Runs to come as the markets need them (every market is a sum over the joint): each side's, the
 * margin's (index dh − da + GAME_CAP) and the total's, before normalising.
 */
class Tally {
  readonly home = new Float64Array(GAME_CAP + 1);
  readonly away = new Float64Array(GAME_CAP + 1);
  readonly margin = new Float64Array(2 * GAME_CAP + 1);
  readonly total = new Float64Array(2 * GAME_CAP + 1);

  add(dh: number, da: number, q: number): void {
    this.home[Math.min(GAME_CAP, dh)]! += q;
    this.away[Math.min(GAME_CAP, da)]! += q;
    this.margin[dh - da + GAME_CAP]! += q;
    this.total[dh + da]! += q;
  }
}

/** What extra innings add from level (each side's runs, the margin, the total). */
type Extras = Tally;

/** The final score: each side's runs, the margin (home − away) and the total. */
export interface RunsToCome {
  home: Dist;
  away: Dist;
  margin: Dist;
  total: Dist;
}

export interface InningState {
  inning: number;
  top: boolean;
  outs: number;
  /** Bases as bits (1st=1, 2nd=2, 3rd=4). */
  bases: number;
  home: number;
  away: number;
}

/**
 * The final score's distribution from any state of one game, for its batting strengths
 * (k = a side's batting over the other's) and regulation length. Half-inning chains and the
 * extras' outcome are computed once per game and kept.
 */
export class BaseballOutlook {
  private readonly halves: [HalfInnings | undefined, HalfInnings | undefined] = [undefined, undefined];
  private readonly powers: [Float64Array[], Float64Array[]] = [[NONE], [NONE]];
  private extrasCache: Extras | undefined;
  private last: { key: string; value: RunsToCome } | undefined;

  constructor(
    private readonly k: readonly [number, number],
    private readonly innings: number,
  ) {}

  /** Side 0 = home, 1 = away (built on first use). */
  side(side: 0 | 1): HalfInnings {
    return (this.halves[side] ??= new HalfInnings(this.k[side]));
  }

  /** Runs of n fresh half-innings of one side (no walk-off). */
  private fresh(side: 0 | 1, n: number): Float64Array {
    const ps = this.powers[side];
    while (ps.length <= n) ps.push(conv(ps[ps.length - 1]!, this.side(side).runs(0, 0)));
    return ps[n]!;
  }

  /**
   * From level at the start of an extra inning (runner on second each half): the runs each side
   * adds until one leads after a bottom half (the level innings walked through), as a tally.
   */
  private extras(): Extras {
    if (this.extrasCache) return this.extrasCache;
    const W = GAME_CAP + 1;
    // One extra inning: `level[x]` level again at x runs each, `decided[y·W + x]` over at y-x.
    const top = this.side(1).runs(0, 2);
    const bottom = this.side(0);
    const level = new Float64Array(W);
    const decided = new Float64Array(W * W);
    for (let x = 0; x < top.length; x++) {
      const ys = bottom.runs(0, 2, x + 1);
      for (let y = 0; y < ys.length; y++) {
        const q = top[x]! * ys[y]!;
        if (y === x) level[x]! += q;
        else decided[y * W + x]! += q;
      }
    }
    // Level after 0, 1, 2… innings, summed: how many runs each side had added when the last one began.
    const reach = new Float64Array(W);
    let now: Float64Array = new Float64Array(W);
    now[0] = 1;
    for (let n = 0; n < 200; n++) {
      let left = 0;
      for (let j = 0; j < W; j++) {
        reach[j]! += now[j]!;
        left += now[j]!;
      }
      if (left < EXTRAS_EPS) break;
      now = conv(now, level);
    }
    const acc = new Float64Array(W * W);
    for (let j = 0; j < W; j++) {
      if (reach[j]! === 0) continue;
      for (let y = 0; y < W; y++)
        for (let x = 0; x < W; x++) {
          const q = decided[y * W + x]!;
          if (q !== 0) acc[Math.min(GAME_CAP, j + y) * W + Math.min(GAME_CAP, j + x)]! += reach[j]! * q;
        }
    }
    const out = new Tally();
    for (let i = 0; i < acc.length; i++) if (acc[i]! > 0) out.add(Math.floor(i / W), i % W, acc[i]!);
    this.extrasCache = out;
    return out;
  }

  /** The runs still to come from this state (the last answer is kept: a reprice in the same state is free). */
  runsToCome(s: InningState): RunsToCome {
    const key = `${s.inning}|${s.top ? 1 : 0}|${s.outs}|${s.bases}|${s.home}|${s.away}`;
    if (this.last?.key === key) return this.last.value;
    const value = this.compute(s);
    this.last = { key, value };
    return value;
  }

  private compute(s: InningState): RunsToCome {
    const W = GAME_CAP + 1;
    const n9 = this.innings;
    const current = this.side(s.top ? 1 : 0).runs(s.outs, s.bases);
    // Before the deciding inning (the last of regulation, or this extra one) each side's halves are
    // independent: the away side's through the deciding top, the home side's up to the deciding bottom.
    let awayRuns: Float64Array;
    let homeRuns: Float64Array;
    if (s.inning <= n9) {
      const topsLeft = n9 - s.inning;
      awayRuns = s.top ? conv(current, this.fresh(1, topsLeft)) : this.fresh(1, topsLeft);
      if (s.inning === n9) homeRuns = NONE;
      else homeRuns = s.top ? this.fresh(0, n9 - s.inning) : conv(current, this.fresh(0, n9 - 1 - s.inning));
    } else {
      awayRuns = s.top ? current : NONE;
      homeRuns = NONE;
    }
    // The deciding bottom half: from now if it is being played, else from its start.
    const [lastOuts, lastBases] = !s.top && s.inning >= n9 ? [s.outs, s.bases] : [0, s.inning > n9 ? 2 : 0];
    const out = new Tally();
    // Level after the deciding inning, by the away side's runs added (the home side's follow).
    const level = new Float64Array(W);
    const home = this.side(0);
    const stops: Float64Array[] = [];
    for (let dh = 0; dh < homeRuns.length; dh++) {
      const ph = homeRuns[dh]!;
      if (ph < TINY) continue;
      for (let da = 0; da < awayRuns.length; da++) {
        const m = ph * awayRuns[da]!;
        if (m < TINY) continue;
        const behind = s.away + da - (s.home + dh);
        // The home side ahead after the deciding top never bats in its bottom half.
        if (behind < 0) {
          out.add(dh, da, m);
          continue;
        }
        const ys = (stops[behind] ??= home.runs(lastOuts, lastBases, behind + 1));
        // Stopped at behind + 1 runs, a half ends at most 4 past it (a grand slam).
        const end = Math.min(ys.length, behind + 5);
        for (let y = 0; y < end; y++) {
          const q = m * ys[y]!;
          if (q === 0) continue;
          if (y !== behind) out.add(Math.min(GAME_CAP, dh + y), da, q);
          else level[da]! += q;
        }
      }
    }
    // Level: the extras' outcome on top, one side at a time (each market is a sum over the joint).
    const e = this.extras();
    const lead = s.away - s.home;
    let levelMass = 0;
    for (let da = 0; da < W; da++) {
      const m = level[da]!;
      if (m < TINY) continue;
      levelMass += m;
      const dh = Math.max(0, Math.min(GAME_CAP, da + lead));
      for (let x = 0; x < W; x++) {
        out.home[Math.min(GAME_CAP, dh + x)]! += m * e.home[x]!;
        out.away[Math.min(GAME_CAP, da + x)]! += m * e.away[x]!;
      }
      for (let x = 0; x < e.total.length; x++) out.total[Math.min(2 * GAME_CAP, dh + da + x)]! += m * e.total[x]!;
    }
    for (let x = 0; x < e.margin.length; x++) {
      const i = Math.max(0, Math.min(2 * GAME_CAP, x + lead));
      out.margin[i]! += levelMass * e.margin[x]!;
    }
    return summarise(out, s.home, s.away);
  }
}

/** Final scores from the runs to come (normalised: folded tails and the last level sliver kept). */
function summarise(t: Tally, h: number, a: number): RunsToCome {
  let sum = 0;
  for (const q of t.home) sum += q;
  for (const p of [t.home, t.away, t.margin, t.total]) for (let i = 0; i < p.length; i++) p[i]! /= sum;
  return {
    home: new Dist(h, t.home),
    away: new Dist(a, t.away),
    margin: new Dist(h - a - GAME_CAP, t.margin),
    total: new Dist(h + a, t.total),
  };
}
