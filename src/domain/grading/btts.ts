// `btts` (both teams to score): yes when each side scored at least once in the scope.
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const gradeBtts: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) =>
      code === 'yes' ? wonIf(home > 0 && away > 0) : code === 'no' ? wonIf(home === 0 || away === 0) : undefined,
    decided: (home, away) => home > 0 && away > 0,
  });
