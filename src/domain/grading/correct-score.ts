// `correct_score`: the exact score of the scope (`h-a`, home first); `other` wins when no listed score does.
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import { SCORE_CODE } from './set-betting.js';
import type { FamilyGrader } from './types.js';

function parseScore(code: string): [number, number] | null {
  const m = SCORE_CODE.exec(code);
  return m === null ? null : [Number(m[1]), Number(m[2])];
}

export const gradeCorrectScore: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away, codes) => {
      const listed = codes.some((c) => {
        const s = parseScore(c);
        return s !== null && s[0] === home && s[1] === away;
      });
      return (code) => {
        if (code === 'other') return wonIf(!listed);
        const s = parseScore(code);
        // A score not listed loses every listed outcome.
        return s === null ? undefined : wonIf(s[0] === home && s[1] === away);
      };
    },
    // Decided once no listed score can be reached any more: then only `other` can win.
    decided: (home, away, codes) =>
      codes.every((c) => {
        const s = parseScore(c);
        return s === null || s[0] < home || s[1] < away;
      }),
  });
