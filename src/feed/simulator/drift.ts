// Prematch drift: how an event's book moves before kick-off (small drifts, team-news jumps, sharper moves near it).
import type { FairMarket, FairOutcome } from './pricing/fair.js';
import { Rng } from './rng.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The drift's schedule and sizes (log-odds of the home side), fixed so that a restart re-derives it. */
export const DRIFT = {
  /** Far from kick-off the book moves at most once per this interval (keeps thousands of prematch games cheap). */
  farStepMs: 4 * HOUR,
  /** In the last `nearLeadMs`, once per this interval: money and news arrive close to the start. */
  nearStepMs: 30 * MINUTE,
  nearLeadMs: 3 * HOUR,
  /** No move earlier than this before kick-off (beyond the longest horizon: tier 1, 14 days). */
  maxLeadMs: 15 * 24 * HOUR,
  farSd: 0.04,
  nearSd: 0.05,
  /** Per far step: the chance of team news (an injury, a line-up), and the size range of its jump. */
  newsChance: 0.04,
  newsMin: 0.08,
  newsMax: 0.2,
  /** The whole drift stays within this (the engine's strengths remain the anchor). */
  maxAbs: 0.2,
  /**
   * In the last hour the book closes in on the engine's price, to nothing at kick-off: the closing
   * price is the sharpest, and in-play pricing starts from it (without this, every book jumped at
   * kick-off, 0-0, by up to the whole drift). The book moves every `fadeStepMs` meanwhile.
   */
  fadeMs: 60 * MINUTE,
  fadeStepMs: 5 * MINUTE,
} as const;

/**
 * The instants of the drift's random steps, all fixed by the kick-off time (never by when a run
 * started): every far step counted back from kick-off, then every near step in the last hours.
 * Ascending.
 */
function gridBefore(startTime: number): number[] {
  const out: number[] = [];
  for (let t = startTime - DRIFT.maxLeadMs; t < startTime - DRIFT.nearLeadMs; t += DRIFT.farStepMs) out.push(t);
  for (let t = startTime - DRIFT.nearLeadMs; t < startTime; t += DRIFT.nearStepMs) out.push(t);
  return out;
}

/** The next instant after `now` (and before kick-off) at which the prematch book moves; null if none. */
export function nextDriftAt(startTime: number, now: number): number | null {
  let next: number | null = null;
  for (const t of gridBefore(startTime)) {
    if (t > now) {
      next = t;
      break;
    }
  }
  // The closing steps of the last hour (fadeMs), on their own grid counted back from kick-off.
  const fadeFrom = startTime - DRIFT.fadeMs;
  const fade =
    now < fadeFrom ? fadeFrom : fadeFrom + (Math.floor((now - fadeFrom) / DRIFT.fadeStepMs) + 1) * DRIFT.fadeStepMs;
  if (fade < startTime && (next === null || fade < next)) next = fade;
  return next;
}

/** How much of the drift the book still shows at `now`: all of it until the last hour, then less, none at kick-off. */
function fadeAt(startTime: number, now: number): number {
  return Math.max(0, Math.min(1, (startTime - now) / DRIFT.fadeMs));
}

/**
 * The home side's log-odds shift at `now`: the sum of every step up to `now`, each drawn from its
 * own seeded stream (event, step instant), closed in on the engine's price in the last hour. A pure function of the seed, event and world time, so
 * a restarted world prices the same event the same at the same instant.
 */
export function driftAt(seed: number, eventNum: number, startTime: number, now: number): number {
  let d = 0;
  for (const t of gridBefore(startTime)) {
    if (t > now) break;
    const rng = Rng.derive(seed, 'drift', eventNum, t);
    const near = t >= startTime - DRIFT.nearLeadMs;
    d += rng.normal(0, near ? DRIFT.nearSd : DRIFT.farSd);
    if (!near && rng.chance(DRIFT.newsChance)) {
      d += (rng.chance(0.5) ? 1 : -1) * rng.uniform(DRIFT.newsMin, DRIFT.newsMax);
    }
    d = Math.max(-DRIFT.maxAbs, Math.min(DRIFT.maxAbs, d));
  }
  return d * fadeAt(startTime, now);
}

/**
 * Tilts the fair markets toward the home side by `shift` (away by -shift): home outcomes' chances
 * times e^shift, away's times e^-shift, each market scaled back to its own total, so the book's
 * margin and every market's coherence with the others stay as the engine made them.
 *
 * Families whose outcomes name no side but still depend on the strengths move too (they stood still
 * while the winner drifted, a free bet against the book): score markets (`correct_score`,
 * `set_betting`, codes `h-a`) and `ht_ft` by an exponential tilt on their lean (the margin h - a,
 * or the two halves' results), sized so that the home side's share of their decided outcomes moves
 * as the winner market of the same period does; a side's own total (`team_totals_*`) with half the
 * shift, as that side's scoring carries about half of a margin move. A player's prop moves as its
 * side's team total does (a player's output is a share of the team's), in the direction of `PROP_LEAN`.
 */
export function tiltMarkets(markets: readonly FairMarket[], shift: number): FairMarket[] {
  if (shift === 0) return markets as FairMarket[];
  const up = Math.exp(shift);
  const down = Math.exp(-shift);
  const tilted = markets.map((m) => tiltSided(m, up, down));
  const byKey = new Map(markets.map((m, i) => [m.key, i]));
  return tilted.map((m, i) => {
    const original = markets[i]!;
    // Sided markets are done; the rest are side-less (every outcome's side null).
    if (m !== original || original.decided === true) return m;
    if (original.player !== undefined) {
      const { side, stat } = original.player;
      const sign = (side === 'home' ? 1 : -1) * (PROP_LEAN[stat] ?? 1);
      return sign === 0 ? m : tiltOver(original, sign > 0 ? up : down);
    }
    const family = original.key.split(/[@:]/)[0]!;
    // `team_totals_home_ot` (ice hockey incl. overtime) moves as its regulation twin.
    const teamTotal = /^team_totals_(home|away)(_ot)?$/.exec(family);
    if (teamTotal !== null) {
      const sign = teamTotal[1] === 'home' ? 1 : -1;
      return reweigh(original, (o) => (o.code === 'over' ? sign : o.code === 'under' ? -sign : 0), shift / 2);
    }
    const lean = leanOf(original);
    if (lean === null) return m;
    // The winner market of the same period: moneyline where ties go on, else the 1x2.
    const period = /@[^:]*/.exec(original.key)?.[0] ?? '';
    const wi = byKey.get(`moneyline${period}`) ?? byKey.get(`1x2${period}`);
    if (wi === undefined) return m;
    const target = logit(homeShare(tilted[wi]!, (o) => o.side)) - logit(homeShare(markets[wi]!, (o) => o.side));
    return tiltTo(original, lean, target);
  });
}

/**
 * Which way a player's counter goes as the player's side grows stronger: up (+1, the default: goals,
 * shots, points, hits, yards… are a share of the side's output, and a stronger side has more of the
 * ball, so more passes), down (-1: the outplayed side defends and fouls more), or neither (0:
 * rebounds, a stronger side misses less but makes its opponent miss more).
 */
const PROP_LEAN: Readonly<Record<string, number>> = { tackles: -1, fouls: -1, cards: -1, rebounds: 0 };

type Lean = (o: FairOutcome) => number;
const SCORE_CODE = /^(\d+)-(\d+)$/;
const RESULT_LEAN: Readonly<Record<string, number>> = { home: 1, draw: 0, away: -1 };

/** How far an outcome of a side-less strength family leans home (+) or away (-); null for other families. */
function leanOf(m: FairMarket): Lean | null {
  if (m.outcomes.some((o) => o.side !== null)) return null;
  if (m.outcomes.every((o) => SCORE_CODE.test(o.code) || o.code === 'other')) {
    return (o) => {
      const s = SCORE_CODE.exec(o.code);
      return s ? Number(s[1]) - Number(s[2]) : 0;
    };
  }
  if (m.key.startsWith('ht_ft')) {
    return (o) => {
      const [ht, ft] = o.code.split('/');
      return (RESULT_LEAN[ht ?? ''] ?? 0) + (RESULT_LEAN[ft ?? ''] ?? 0);
    };
  }
  return null;
}

/** Which side an outcome says wins: by its side, or its score, or the full-time part of `ht/ft`. */
function winnerOf(o: FairOutcome): 'home' | 'away' | null {
  const s = SCORE_CODE.exec(o.code);
  if (s) return Number(s[1]) > Number(s[2]) ? 'home' : Number(s[1]) < Number(s[2]) ? 'away' : null;
  if (o.code.includes('/')) {
    const ft = o.code.split('/')[1];
    return ft === 'home' || ft === 'away' ? ft : null;
  }
  return o.side;
}

/** The home side's share of the outcomes that name a winner. */
function homeShare(m: FairMarket, side: (o: FairOutcome) => 'home' | 'away' | null = winnerOf): number {
  let home = 0;
  let away = 0;
  for (const o of m.outcomes) {
    const w = side(o);
    if (w === 'home') home += o.p;
    else if (w === 'away') away += o.p;
  }
  return home + away > 0 ? home / (home + away) : 0.5;
}

function logit(p: number): number {
  const q = Math.min(1 - 1e-12, Math.max(1e-12, p));
  return Math.log(q / (1 - q));
}

/** Each outcome's chance times e^(y × lean), scaled back to the market's total. */
function reweigh(m: FairMarket, lean: Lean, y: number): FairMarket {
  const total = m.outcomes.reduce((s, o) => s + o.p, 0);
  const raw = m.outcomes.map((o) => o.p * Math.exp(y * lean(o)));
  const sum = raw.reduce((s, p) => s + p, 0);
  if (!(sum > 0)) return m;
  return { ...m, outcomes: m.outcomes.map((o, i) => ({ ...o, p: (raw[i]! * total) / sum })) };
}

/** The tilt y on `lean` that moves the market's home share by `target` in log-odds (bisection: the share rises with y). */
function tiltTo(m: FairMarket, lean: Lean, target: number): FairMarket {
  // Leans and winners read once: the bisection only reweighs numbers.
  const p = m.outcomes.map((o) => o.p);
  const l = m.outcomes.map(lean);
  const w = m.outcomes.map(winnerOf);
  const share = (y: number): number => {
    let home = 0;
    let away = 0;
    for (let i = 0; i < p.length; i++) {
      const x = p[i]! * Math.exp(y * l[i]!);
      if (w[i] === 'home') home += x;
      else if (w[i] === 'away') away += x;
    }
    return logit(home + away > 0 ? home / (home + away) : 0.5);
  };
  const base = share(0);
  let lo = -3;
  let hi = 3;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (share(mid) - base < target) lo = mid;
    else hi = mid;
  }
  return reweigh(m, lean, (lo + hi) / 2);
}

/**
 * An over/under's Over odds times `k` (the Under's divided by it), as `reweigh` with lean ±1 and
 * y = ln(k)/2 does: written out, as a tier-1 book holds ~850 props and each drift step tilts them all.
 */
function tiltOver(m: FairMarket, k: number): FairMarket {
  if (m.outcomes.length !== 2) return m;
  const [a, b] = m.outcomes as [FairOutcome, FairOutcome];
  const over = a.code === 'over' ? a : b.code === 'over' ? b : null;
  if (over === null || over.p <= 0 || over.p >= 1) return m;
  const total = a.p + b.p;
  const x = over.p * k;
  const pOver = (x / (x + total - over.p)) * total;
  const pOf = (o: FairOutcome): number => (o === over ? pOver : total - pOver);
  return {
    ...m,
    outcomes: [
      { ...a, p: pOf(a) },
      { ...b, p: pOf(b) },
    ],
  };
}

function tiltSided(m: FairMarket, up: number, down: number): FairMarket {
  if (m.decided === true || !m.outcomes.some((o) => o.side !== null)) return m;
  const total = m.outcomes.reduce((s, o) => s + o.p, 0);
  const raw = m.outcomes.map((o) => o.p * (o.side === 'home' ? up : o.side === 'away' ? down : 1));
  const sum = raw.reduce((s, p) => s + p, 0);
  if (!(sum > 0)) return m;
  return { ...m, outcomes: m.outcomes.map((o, i) => ({ ...o, p: (raw[i]! * total) / sum })) };
}
