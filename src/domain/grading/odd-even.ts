// `odd_even`: parity of the scope's total (0 is even).
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const gradeOddEven: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    basis: 'games',
    grade: (home, away) => (code) => {
      const odd = (home + away) % 2 === 1;
      return code === 'odd' ? wonIf(odd) : code === 'even' ? wonIf(!odd) : undefined;
    },
  });
