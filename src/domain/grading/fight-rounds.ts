// `fight_rounds:L` (MMA, boxing): rounds started (rows `R1`…) over or under L; over 1.5 means round 2 began.
import { basisOf, gradeOutcomes, refundAll, ungradeable } from './outcome.js';
import { gradeOverUnder, lineQuarters, overDecided } from './lines.js';
import { roundsStarted } from './periods.js';
import type { FamilyGrader } from './types.js';

export const gradeFightRounds: FamilyGrader = (market, key, ctx) => {
  const lineQ = lineQuarters(key.line ?? Number.NaN);
  if (lineQ === null) return ungradeable(`${market.key}: a rounds line is a multiple of 0.25`);
  const rounds = roundsStarted(ctx.result);
  // Every fight that took place has at least its `R1` row.
  if (ctx.result.status === 'ended' && rounds === 0) return ungradeable(`${market.key}: the result has no round rows`);
  const basis = basisOf({ scope: 'rounds', stat: { name: 'rounds_started', player_id: null, value: rounds } });
  // A fight stopped without a result could have gone on: only an over already reached stands.
  if (ctx.result.status !== 'ended') {
    if (!overDecided(rounds, lineQ)) return refundAll(market, { ...basis, rule: 'abandoned_refund' });
    return gradeOutcomes(market, (code) => gradeOverUnder(rounds, lineQ, code), {
      ...basis,
      rule: 'abandoned_decided',
    });
  }
  return gradeOutcomes(market, (code) => gradeOverUnder(rounds, lineQ, code), basis);
};
