// The traditional fractional ladder books print (7/4, 15/8, 1/3…) and the nearest rung of a decimal price.

/**
 * The rungs, shortest first, in lowest terms as decisions.md writes fractions (the ladder's 4/6 is
 * "2/3", 85/40 "17/8", 100/30 "10/3"). Only rungs that survive the 2-decimal price are kept: 1/66
 * (1.015) and 1/40 (1.025) round onto 1.02 and 1.03, where 1/50 and 1/33 are exact; 2/15 (1.13) would shadow 1/8 (1.125).
 */
export const FRACTIONAL_LADDER: readonly string[] = [
  // odds on
  '1/100',
  '1/50',
  '1/33',
  '1/25',
  '1/20',
  '1/16',
  '1/14',
  '1/12',
  '1/10',
  '1/9',
  '1/8',
  '1/7',
  '2/13',
  '1/6',
  '2/11',
  '1/5',
  '2/9',
  '1/4',
  '2/7',
  '3/10',
  '1/3',
  '4/11',
  '2/5',
  '4/9',
  '1/2',
  '8/15',
  '4/7',
  '8/13',
  '2/3',
  '8/11',
  '4/5',
  '5/6',
  '10/11',
  '20/21',
  // evens and odds against
  '1/1',
  '21/20',
  '11/10',
  '6/5',
  '5/4',
  '11/8',
  '7/5',
  '3/2',
  '8/5',
  '13/8',
  '7/4',
  '15/8',
  '2/1',
  '17/8',
  '9/4',
  '12/5',
  '5/2',
  '13/5',
  '11/4',
  '3/1',
  '10/3',
  '7/2',
  '4/1',
  '9/2',
  '5/1',
  '11/2',
  '6/1',
  '13/2',
  '7/1',
  '15/2',
  '8/1',
  '17/2',
  '9/1',
  '10/1',
  '11/1',
  '12/1',
  '14/1',
  '16/1',
  '18/1',
  '20/1',
  '22/1',
  '25/1',
  '28/1',
  '33/1',
  '40/1',
  '50/1',
  '66/1',
  '80/1',
  '100/1',
  '125/1',
  '150/1',
  '200/1',
  '250/1',
  '300/1',
  '400/1',
  '500/1',
  '750/1',
  '1000/1',
];

/** Each rung's decimal value (1 + p/q), in ladder order. */
const RUNG_VALUES: readonly number[] = FRACTIONAL_LADDER.map((f) => {
  const [p, q] = f.split('/').map(Number);
  return 1 + p! / q!;
});

const ladderCache = new Map<number, string>();

/**
 * The rung nearest to a decimal price, by distance in decimal odds; a tie goes to the shorter rung
 * (the book's side, as a book rounds a price it cannot print). Works on the 2-decimal price the
 * client sees, so `decimal` and `fractional` of one response describe the same price.
 */
export function toLadderFractional(decimal: number): string {
  const h = Math.round(decimal * 100);
  const cached = ladderCache.get(h);
  if (cached !== undefined) return cached;
  const d = h / 100;
  // Binary search for the first rung at or above d; the answer is it or the one before.
  let lo = 0;
  let hi = RUNG_VALUES.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (RUNG_VALUES[mid]! < d) lo = mid + 1;
    else hi = mid;
  }
  let i = lo;
  // The epsilon makes a tie a tie despite binary fractions (2.55 sits 0.05 from 2.50 and from 2.60).
  if (i > 0 && d - RUNG_VALUES[i - 1]! <= Math.abs(RUNG_VALUES[i]! - d) + 1e-9) i--;
  const text = FRACTIONAL_LADDER[i]!;
  ladderCache.set(h, text);
  return text;
}
