// `1x2`: home win, draw or away win in the scope (soccer, ice hockey and handball regulation time; periods; boxing).
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { CodeGrader, FamilyGrader } from './types.js';

/** The three-way result of a margin (home minus away). */
export function threeWay(margin: number): CodeGrader {
  return (code) => {
    switch (code) {
      case 'home':
        return wonIf(margin > 0);
      case 'draw':
        return wonIf(margin === 0);
      case 'away':
        return wonIf(margin < 0);
      default:
        return undefined;
    }
  };
}

export const gradeOneXTwo: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, { grade: (home, away) => threeWay(home - away) });
