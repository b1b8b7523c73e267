// `draw_no_bet`: home or away as in 1x2, a draw refunds both (an Asian handicap of 0).
import { gradeCover } from './lines.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const gradeDrawNoBet: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) =>
      code === 'home' ? gradeCover(home - away, 0) : code === 'away' ? gradeCover(away - home, 0) : undefined,
  });
