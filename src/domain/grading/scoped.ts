// The common shape of a score-based rule: find the scope's score, refund a period never played, grade or wait for the end.
import type { MarketKey } from '../market-key.js';
import type { Market } from '../types.js';
import { gradeOutcomes, normalizeCode, refundAll, ungradeable } from './outcome.js';
import { scopeOf, type ScoreBasis } from './periods.js';
import type { CodeGrader, GradingContext, MarketGrade } from './types.js';

export interface ScoreRule {
  /** Which full-game score the family reads (ignored for a period market). Default `match`. */
  basis?: ScoreBasis;
  /** The grade of each code for the final score of the scope; `codes` are all the market's codes. */
  grade(home: number, away: number, codes: readonly string[]): CodeGrader;
  /**
   * For a score that could still have grown (play stopped inside the scope): whether every outcome
   * is already decided — more scoring could not change `grade(home, away)`. Absent: never.
   */
  decided?(home: number, away: number, codes: readonly string[]): boolean;
}

export function gradeScored(market: Market, key: MarketKey, ctx: GradingContext, rule: ScoreRule): MarketGrade {
  const scope = scopeOf(ctx.sport, ctx.result, key.period, rule.basis ?? 'match');
  if (scope.kind === 'not_played') return refundAll(market);
  if (scope.kind === 'missing') return ungradeable(scope.reason);
  const codes = market.outcomes.map((o) => normalizeCode(o.code));
  if (!scope.complete && (rule.decided === undefined || !rule.decided(scope.home, scope.away, codes))) {
    return refundAll(market);
  }
  return gradeOutcomes(market, rule.grade(scope.home, scope.away, codes));
}
