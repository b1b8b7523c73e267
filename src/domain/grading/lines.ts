// Line arithmetic in quarters (a line times 4 is an integer), so .25 and .75 lines never meet floating-point error.
import { HALF_LOST, HALF_WON, LOST, REFUND, WON } from './outcome.js';
import type { OutcomeGrade } from './types.js';

/** The line in quarters (2.75 → 11), or null when it is not a multiple of 0.25. */
export function lineQuarters(line: number): number | null {
  const q = line * 4;
  return Number.isSafeInteger(q) ? q : null;
}

const sign = (x: number): OutcomeGrade => (x > 0 ? WON : x < 0 ? LOST : REFUND);

/**
 * The grade of a bet that wins when `value + line > 0`, loses when it is `< 0` and is refunded at 0
 * (a whole line's push). A quarter line is two half stakes on the neighbouring lines (line ∓ 0.25):
 * one half pushing and the other winning is half won, one pushing and the other losing half lost.
 * `value` is an integer (a margin or a total), `lineQ` the line in quarters.
 */
export function gradeCover(value: number, lineQ: number): OutcomeGrade {
  const x = value * 4 + lineQ;
  if (lineQ % 2 === 0) return sign(x);
  // Quarter line: the halves sit at x - 1 and x + 1, both even, so at most one of them is 0.
  const low = sign(x - 1);
  const high = sign(x + 1);
  if (low === high) return low;
  if (low === REFUND) return HALF_WON;
  return HALF_LOST;
}

/** Over/under a line: `over` wins above it, `under` below, a total on a whole line refunds both. */
export function gradeOverUnder(total: number, lineQ: number, code: string): OutcomeGrade | undefined {
  if (code === 'over') return gradeCover(total, -lineQ);
  if (code === 'under') return gradeCover(-total, lineQ);
  return undefined;
}

/** Whether `over` is wholly won: more scoring cannot change a total's market any more. */
export function overDecided(total: number, lineQ: number): boolean {
  return gradeCover(total, -lineQ) === WON;
}
