// `exact_total`: the total of the scope equals the code (`0`, `1`, …), or is at least N (`N+`).
import { wonIf } from './outcome.js';
import { gradeScored } from './scoped.js';
import type { FamilyGrader } from './types.js';

const CODE = /^(\d+)(\+?)$/;

export const gradeExactTotal: FamilyGrader = (market, key, ctx) =>
  gradeScored(market, key, ctx, {
    grade: (home, away) => (code) => {
      const m = CODE.exec(code);
      if (m === null) return undefined;
      const n = Number(m[1]);
      return wonIf(m[2] === '+' ? home + away >= n : home + away === n);
    },
    // A total can only grow: `k` is lost once passed, `N+` won once reached.
    decided: (home, away, codes) =>
      codes.every((code) => {
        const m = CODE.exec(code);
        if (m === null) return true;
        return m[2] === '+' ? home + away >= Number(m[1]) : home + away > Number(m[1]);
      }),
  });
