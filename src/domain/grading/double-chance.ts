// `double_chance`: each outcome covers two of the three results of the scope.
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const gradeDoubleChance: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) => {
      switch (code) {
        case 'home_draw':
          return wonIf(home >= away);
        case 'home_away':
          return wonIf(home !== away);
        case 'draw_away':
          return wonIf(home <= away);
        default:
          return undefined;
      }
    },
  });
