// Prematch drift: how an event's book moves before kick-off (small drifts, team-news jumps, sharper moves near it).
import type { FairMarket } from './pricing/fair.js';
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
 */
export function tiltMarkets(markets: readonly FairMarket[], shift: number): FairMarket[] {
  if (shift === 0) return markets as FairMarket[];
  const up = Math.exp(shift);
  const down = Math.exp(-shift);
  return markets.map((m) => {
    if (m.decided === true || !m.outcomes.some((o) => o.side !== null)) return m;
    const total = m.outcomes.reduce((s, o) => s + o.p, 0);
    const raw = m.outcomes.map((o) => o.p * (o.side === 'home' ? up : o.side === 'away' ? down : 1));
    const sum = raw.reduce((s, p) => s + p, 0);
    if (!(sum > 0)) return m;
    return { ...m, outcomes: m.outcomes.map((o, i) => ({ ...o, p: (raw[i]! * total) / sum })) };
  });
}
