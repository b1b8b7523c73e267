// Winner of one unit: `set_winner@sN`, `game_winner@gN`, `frame_winner@fN`, `map_winner@mN` (row with more points, rounds or games).
import { gradeCover } from './lines.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

/** A unit is won by the side with more in its row; a level row (not a finished unit) refunds. */
export const gradeUnitWinner: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) =>
      code === 'home' ? gradeCover(home - away, 0) : code === 'away' ? gradeCover(away - home, 0) : undefined,
  });
