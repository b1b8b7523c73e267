// Two-way winner markets: `moneyline` (overtime, shoot-out and `winner` included) and `to_qualify` (extra time and penalties).
import type { TeamSide } from '../types.js';
import { gradeOutcomes, refundAll, ungradeable, wonIf } from './outcome.js';
import { scopeOf } from './periods.js';
import { awardedMatchWinner } from './unfinished.js';
import type { CodeGrader, FamilyGrader } from './types.js';

export function sideWins(side: TeamSide): CodeGrader {
  return (code) => (code === 'home' || code === 'away' ? wonIf(code === side) : undefined);
}

/**
 * The side with the higher reported score wins; on a level score the result's `winner` (shoot-out,
 * penalties) decides the full match, and without one both sides are refunded (a tie, a draw). A
 * match that did not finish goes to the side the policy awards it to, if any (unfinished.ts).
 */
function gradeWinner(awardUnfinished: boolean): FamilyGrader {
  return (market, key, ctx) => {
    const scope = scopeOf(ctx.sport, ctx.result, key.period, 'final');
    if (scope.kind === 'not_played') return refundAll(market);
    if (scope.kind === 'missing') return ungradeable(scope.reason);
    let side: TeamSide | null;
    if (!scope.complete) side = key.period === null && awardUnfinished ? awardedMatchWinner(ctx) : null;
    else if (scope.home !== scope.away) side = scope.home > scope.away ? 'home' : 'away';
    else side = key.period === null ? ctx.result.winner : null;
    return side === null ? refundAll(market) : gradeOutcomes(market, sideWins(side));
  };
}

export const gradeMoneyline: FamilyGrader = gradeWinner(true);
export const gradeToQualify: FamilyGrader = gradeWinner(false);
