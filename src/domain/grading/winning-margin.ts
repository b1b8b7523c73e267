// `winning_margin`: the side and the exact margin (`home_1`, `home_2`, `home_3+`, `draw`, `away_1`, …).
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

const BAND = /^(home|away)_(\d+)(\+?)$/;

export const gradeWinningMargin: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) => {
      if (code === 'draw') return wonIf(home === away);
      const m = BAND.exec(code);
      if (m === null) return undefined;
      const by = m[1] === 'home' ? home - away : away - home;
      const n = Number(m[2]);
      if (n < 1) return undefined;
      return wonIf(m[3] === '+' ? by >= n : by === n);
    },
  });
