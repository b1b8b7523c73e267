// The common shape of a score-based rule: find the scope's score, refund a period never played, grade or wait for the end.
import type { MarketKey } from '../market-key.js';
import type { Market } from '../types.js';
import { basisOf, gradeOutcomes, normalizeCode, refundAll, ungradeable } from './outcome.js';
import { scopeName, scopeOf, type ScoreBasis } from './periods.js';
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

/** Grades on the scope's score; the basis (explanations) names that score, its scope and a void rule. */
export function gradeScored(market: Market, key: MarketKey, ctx: GradingContext, rule: ScoreRule): MarketGrade {
  const scoreBasis = rule.basis ?? 'match';
  const scope = scopeOf(ctx.sport, ctx.result, key.period, scoreBasis);
  const name = scopeName(ctx.sport, key.period, scoreBasis);
  if (scope.kind === 'not_played') return refundAll(market, basisOf({ scope: name, rule: 'period_not_played' }));
  if (scope.kind === 'missing') return ungradeable(scope.reason);
  const score = { home: scope.home, away: scope.away };
  const codes = market.outcomes.map((o) => normalizeCode(o.code));
  if (!scope.complete) {
    if (rule.decided === undefined || !rule.decided(scope.home, scope.away, codes)) {
      return refundAll(market, basisOf({ score, scope: name, rule: 'abandoned_refund' }));
    }
    return gradeOutcomes(
      market,
      rule.grade(scope.home, scope.away, codes),
      basisOf({ score, scope: name, rule: 'abandoned_decided' }),
    );
  }
  return gradeOutcomes(market, rule.grade(scope.home, scope.away, codes), basisOf({ score, scope: name }));
}
