// Odds formats: decimal odds (held internally) rounded and converted to american and fractional, and parsed back.
import { badRequest } from './errors.js';
import { toLadderFractional } from './fractional-ladder.js';
import type { OddsFormat } from './types.js';

/** The shortest price the service holds or shows (decimal). */
export const MIN_DECIMAL_ODDS = 1.01;

/**
 * Rounds to 2 decimals, half away from zero, as a person reads the number: 1.005 → 1.01 although
 * the double nearest 1.005 is 1.00499999…. Going through 15 significant digits strips the binary
 * representation error of `d * 100` before rounding.
 */
export function roundDecimal(d: number): number {
  if (!Number.isFinite(d) || Math.abs(d) >= 1e13) return d;
  const x = Math.abs(d) * 100;
  // Fast path (every payload formats thousands of prices): below 1e7 the 15-digit step moves x by
  // under 1e-8, so unless x sits within 1e-6 of a half it cannot change which way x rounds.
  if (x < 1e7 && Math.abs(x - Math.floor(x) - 0.5) > 1e-6) {
    const r = (Math.sign(d) * Math.round(x)) / 100;
    return r === 0 ? 0 : r;
  }
  const scaled = Number(x.toPrecision(15));
  const r = (Math.sign(d) * Math.round(scaled)) / 100;
  return r === 0 ? 0 : r;
}

/**
 * Integer hundredths of the rounded decimal (1.91 → 191). Every conversion works on this integer so
 * that american and fractional agree exactly with the decimal a client sees.
 */
function hundredths(decimal: number): number {
  const h = Math.round(roundDecimal(decimal) * 100);
  if (!Number.isFinite(h) || h < 101) {
    // The domain guarantees odds >= 1.01; anything else is a bug upstream, not a client error.
    throw new RangeError(`decimal odds must be a finite number >= ${MIN_DECIMAL_ODDS}, got ${decimal}`);
  }
  return h;
}

/** Half away from zero for a non-negative exact ratio a/b (integers): 312.5 → 313. */
function roundRatio(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/**
 * American odds, an integer: +(d-1)*100 from 2.00 up (2.50 → 150), -100/(d-1) below (1.50 → -200),
 * rounded to the nearest, halves away from zero (1.32 → -313). Never strictly between -100 and 100.
 */
export function toAmerican(decimal: number): number {
  const k = hundredths(decimal) - 100;
  if (k >= 100) return k;
  return -roundRatio(10000, k);
}

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

const fractionCache = new Map<number, string>();

/**
 * Fractional odds "p/q" in lowest terms, the simplest fraction whose decimal 1 + p/q rounds to the same
 * 2-decimal value. "Simplest" is mirror-symmetric, as bookmakers' ladders are: the fewest units on
 * the short side, i.e. the smallest denominator for odds against (3.75 → "11/4") and the smallest
 * numerator for odds on (1.91 → "10/11", 1.33 → "1/3"); among equally simple fractions (only
 * possible odds on: 1/67 … 1/100 all round to 1.01) the one closest to the exact decimal wins
 * (1.01 → "1/100", 1.05 → "1/20"), then the smaller denominator. Denominators go up to 100, so
 * the exact hundredths (reduced) always qualify and there is always an answer.
 */
export function toFractional(decimal: number): string {
  const h = hundredths(decimal);
  const cached = fractionCache.get(h);
  if (cached !== undefined) return cached;
  const k = h - 100;
  // p/q rounds (half up) to k/100 exactly when (2k-1)q <= 200p < (2k+1)q: integer arithmetic, no
  // floating point at the boundaries (1 + 1/40 = 1.025 rounds to 1.03, not 1.02).
  let best: { p: number; q: number } | null = null;
  for (let q = 1; q <= 100; q++) {
    const p = Math.ceil(((2 * k - 1) * q) / 200);
    if (p < 1 || 200 * p >= (2 * k + 1) * q) continue;
    if (best === null || simpler(p, q, best.p, best.q, k)) best = { p, q };
  }
  // Unreachable (p = k/g, q = 100/g always qualifies), kept so the result is total.
  const g = gcd(k, 100);
  const text = best === null ? `${k / g}/${100 / g}` : `${best.p}/${best.q}`;
  fractionCache.set(h, text);
  return text;
}

function simpler(p: number, q: number, bp: number, bq: number, k: number): boolean {
  const units = Math.min(p, q);
  const bestUnits = Math.min(bp, bq);
  if (units !== bestUnits) return units < bestUnits;
  // Distance to k/100 compared by cross-multiplying |100p - kq| / 100q: exact in integers.
  const dist = Math.abs(100 * p - k * q) * bq;
  const bestDist = Math.abs(100 * bp - k * bq) * q;
  if (dist !== bestDist) return dist < bestDist;
  return q < bq;
}

/** Rejects a decimal below the minimum: a price nobody can be offered. */
function checkedDecimal(d: number, input: string): number {
  const r = roundDecimal(d);
  if (!(r >= MIN_DECIMAL_ODDS)) {
    throw badRequest(`odds ${input} are shorter than the minimum decimal ${MIN_DECIMAL_ODDS.toFixed(2)}`);
  }
  return r;
}

/**
 * Decimal odds (2 decimals) of american odds. Throws a `bad_request` ServiceError when `a` is not
 * finite, is strictly between -100 and 100, or is shorter than 1.01 (below -20000 after rounding).
 * +100 and -100 are both evens (2.00).
 */
export function fromAmerican(a: number): number {
  if (!Number.isFinite(a) || Math.abs(a) < 100) {
    throw badRequest(`american odds must be a number <= -100 or >= 100, got ${String(a)}`);
  }
  const d = a > 0 ? 1 + a / 100 : 1 + 100 / -a;
  return checkedDecimal(d, String(a));
}

export interface Fraction {
  numerator: number;
  denominator: number;
}

const FRACTION = /^(\d{1,9})\/(\d{1,9})$/;

/**
 * Parses fractional odds "p/q" (non-negative integer p, positive integer q, no spaces, not
 * necessarily in lowest terms: "6/4" is fine) or "evens" (any case) as 1/1. Throws a `bad_request`
 * ServiceError naming the input otherwise ("abc", "-1/2", "0/0", "1/0", "1.5/2").
 */
export function parseFractional(s: string): Fraction {
  if (typeof s === 'string' && s.toLowerCase() === 'evens') return { numerator: 1, denominator: 1 };
  const m = typeof s === 'string' ? FRACTION.exec(s) : null;
  if (m === null || m[1] === undefined || m[2] === undefined) {
    throw badRequest(`fractional odds must look like "5/2" (two whole numbers), got ${JSON.stringify(s)}`);
  }
  const numerator = Number(m[1]);
  const denominator = Number(m[2]);
  if (denominator === 0) throw badRequest(`fractional odds ${JSON.stringify(s)} have a zero denominator`);
  return { numerator, denominator };
}

/** Decimal odds (2 decimals) of fractional odds; throws `bad_request` like parseFractional, and below 1.01. */
export function fromFractional(s: string): number {
  const { numerator, denominator } = parseFractional(s);
  return checkedDecimal(1 + numerator / denominator, JSON.stringify(s));
}

/**
 * One odds value as a client asked for it: decimal number, american integer, or a fractional string:
 * `fractional` the nearest rung of the traditional ladder (what books print), `fractional_exact` the
 * simplest fraction that converts back to the same 2-decimal price.
 */
export function formatOdds(decimal: number, format: OddsFormat): number | string {
  switch (format) {
    case 'decimal':
      return hundredths(decimal) / 100;
    case 'american':
      return toAmerican(decimal);
    case 'fractional':
      return toLadderFractional(hundredths(decimal) / 100);
    case 'fractional_exact':
      return toFractional(decimal);
  }
}
