// `ht_ft`: the first-half result and the regulation-time result (never overtime), e.g. `draw/home`.
import { basisOf, gradeOutcomes, refundAll, ungradeable, wonIf } from './outcome.js';
import { scopeOf } from './periods.js';
import type { FamilyGrader } from './types.js';

const RESULTS = new Set(['home', 'draw', 'away']);
const resultOf = (home: number, away: number): string => (home > away ? 'home' : home < away ? 'away' : 'draw');

export const gradeHtFt: FamilyGrader = (market, _key, ctx) => {
  const half = scopeOf(ctx.sport, ctx.result, '1h');
  const full = scopeOf(ctx.sport, ctx.result, null, 'regulation');
  if (half.kind === 'missing') return ungradeable(half.reason);
  if (full.kind === 'missing') return ungradeable(full.reason);
  if (half.kind === 'not_played' || full.kind === 'not_played') {
    return refundAll(market, basisOf({ scope: 'regulation', rule: 'period_not_played' }));
  }
  const score = { home: full.home, away: full.away };
  const basis = basisOf({ score, scope: 'regulation', half_time: { home: half.home, away: half.away } });
  // Any result can still turn while regulation time is unfinished.
  if (!half.complete || !full.complete) return refundAll(market, { ...basis, rule: 'abandoned_refund' });
  const actual = `${resultOf(half.home, half.away)}/${resultOf(full.home, full.away)}`;
  return gradeOutcomes(
    market,
    (code) => {
      const [ht, ft, extra] = code.split('/');
      if (extra !== undefined || ht === undefined || ft === undefined || !RESULTS.has(ht) || !RESULTS.has(ft)) {
        return undefined;
      }
      return wonIf(code === actual);
    },
    basis,
  );
};
