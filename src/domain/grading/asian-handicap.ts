// `asian_handicap:L` (line from the home side; half, whole and quarter lines) and `set_handicap:L` (on sets won).
import { gradeCover, lineQuarters } from './lines.js';
import { ungradeable } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { ScoreBasis } from './periods.js';
import type { FamilyGrader } from './types.js';

/**
 * Home + L against away in the scope: ahead wins, behind loses, level refunds; a quarter line splits
 * the stake over its two neighbours. The away side holds the opposite line.
 */
function handicap(basis: ScoreBasis): FamilyGrader {
  return (market, key, ctx) => {
    const lineQ = lineQuarters(key.line ?? Number.NaN);
    if (lineQ === null) return ungradeable(`${market.key}: a handicap line is a multiple of 0.25`);
    return gradeScored(market, key, ctx, {
      basis,
      grade: (home, away) => (code) =>
        code === 'home'
          ? gradeCover(home - away, lineQ)
          : code === 'away'
            ? gradeCover(away - home, -lineQ)
            : undefined,
    });
  };
}

/** Tennis counts games; every other sport its full-game score (goals, points, sets, frames, maps). */
export const gradeAsianHandicap: FamilyGrader = handicap('games');
/** On the units score: sets in tennis, volleyball and darts. */
export const gradeSetHandicap: FamilyGrader = handicap('final');
