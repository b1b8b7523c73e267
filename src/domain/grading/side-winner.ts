// Two-way winner markets: `moneyline` (overtime, shoot-out and `winner` included) and `to_qualify` (extra time and penalties).
import type { TeamSide } from '../types.js';
import { basisOf, gradeOutcomes, refundAll, ungradeable, wonIf } from './outcome.js';
import { scopeName, scopeOf } from './periods.js';
import { awardedMatchWinner, unfinishedRule } from './unfinished.js';
import type { CodeGrader, FamilyGrader, MarketRule } from './types.js';

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
    const name = scopeName(ctx.sport, key.period, 'final');
    if (scope.kind === 'not_played') return refundAll(market, basisOf({ scope: name, rule: 'period_not_played' }));
    if (scope.kind === 'missing') return ungradeable(scope.reason);
    const score = { home: scope.home, away: scope.away };
    let side: TeamSide | null;
    let rule: MarketRule | null = null;
    if (!scope.complete) {
      side = key.period === null && awardUnfinished ? awardedMatchWinner(ctx) : null;
      rule = key.period === null && awardUnfinished ? unfinishedRule(ctx) : 'abandoned_refund';
    } else if (scope.home !== scope.away) side = scope.home > scope.away ? 'home' : 'away';
    else {
      side = key.period === null ? ctx.result.winner : null;
      rule = side === null ? 'tie_refund' : 'decider';
    }
    const basis = basisOf({ score, scope: name, rule, winner: rule === null ? null : side });
    return side === null ? refundAll(market, basis) : gradeOutcomes(market, sideWins(side), basis);
  };
}

export const gradeMoneyline: FamilyGrader = gradeWinner(true);
export const gradeToQualify: FamilyGrader = gradeWinner(false);
