// Policies for matches that did not finish: who gets the match-winner market after a retirement, walkover or forfeit.
import type { TeamSide } from '../types.js';
import { completedUnits, ESPORTS } from './periods.js';
import type { GradingContext, MarketRule } from './types.js';

/** An esports match stopped before its end with at least one map played: a forfeit, not a walkover. */
export function isEsportsForfeit(ctx: GradingContext): boolean {
  return ESPORTS.has(ctx.sport) && ctx.result.status !== 'ended' && ctx.result.status !== 'cancelled';
}

/**
 * The side the match-winner market of an unfinished match goes to under the policy, or null when
 * it is refunded. Only the side that advances (`winner`) can be awarded it.
 */
export function awardedMatchWinner(ctx: GradingContext): TeamSide | null {
  const { result, policy } = ctx;
  if (result.winner === null || result.status === 'ended' || result.status === 'cancelled') return null;
  if (isEsportsForfeit(ctx)) {
    return policy.esportsForfeit === 'award_if_map_played' && completedUnits(result) >= 1 ? result.winner : null;
  }
  if (result.status === 'walkover') return policy.walkover === 'award_moneyline' ? result.winner : null;
  if (ctx.sport === 'tennis' && result.status === 'retired') {
    switch (policy.tennisRetirement) {
      case 'one_set_completed':
        return completedUnits(result) >= 1 ? result.winner : null;
      case 'first_ball':
        return result.periodScores.length > 0 || completedUnits(result) > 0 ? result.winner : null;
      case 'refund':
        return null;
    }
  }
  return null;
}

/** The policy that decides the match-winner market of an unfinished match (explanations). */
export function unfinishedRule(ctx: GradingContext): MarketRule {
  if (isEsportsForfeit(ctx)) return 'esports_forfeit';
  if (ctx.result.status === 'walkover') return 'walkover';
  if (ctx.sport === 'tennis' && ctx.result.status === 'retired') return 'retirement';
  return 'abandoned_refund';
}
