// `set_betting`: the final units score (sets, legs' sets…), home first: `2-1`, `3-0`, `0-2`…
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

export const SCORE_CODE = /^(\d+)-(\d+)$/;

export const gradeSetBetting: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    basis: 'final',
    grade: (home, away) => (code) => {
      const m = SCORE_CODE.exec(code);
      return m === null ? undefined : wonIf(Number(m[1]) === home && Number(m[2]) === away);
    },
  });
