// `handicap_3way:L` (European handicap): L (whole) added to the home score, then home, draw or away as in 1x2.
import { threeWay } from './one-x-two.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const gradeHandicap3Way: FamilyGrader = (market, key, ctx) => {
  const line = key.line ?? 0;
  return gradeScored(market, key, ctx, { grade: (home, away) => threeWay(home + line - away) });
};
