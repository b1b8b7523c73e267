// `totals:L` (both sides' total against L, quarter lines split) and `total_sets:L` (sets played).
import { gradeOverUnder, lineQuarters, overDecided } from './lines.js';
import { ungradeable } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { ScoreBasis } from './periods.js';
import type { FamilyGrader } from './types.js';

/** Over/under on a count read from the scope's score; the count can only grow while play goes on. */
export function overUnder(basis: ScoreBasis, count: (home: number, away: number) => number): FamilyGrader {
  return (market, key, ctx) => {
    const lineQ = lineQuarters(key.line ?? Number.NaN);
    if (lineQ === null) return ungradeable(`${market.key}: a total line is a multiple of 0.25`);
    return gradeScored(market, key, ctx, {
      basis,
      grade: (home, away) => (code) => gradeOverUnder(count(home, away), lineQ, code),
      decided: (home, away) => overDecided(count(home, away), lineQ),
    });
  };
}

const both = (home: number, away: number): number => home + away;

/** Tennis counts games; every other sport its full-game score. */
export const gradeTotals: FamilyGrader = overUnder('games', both);
export const gradeTotalSets: FamilyGrader = overUnder('final', both);
