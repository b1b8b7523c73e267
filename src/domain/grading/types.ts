// Types of the grading rules: what a market is graded from, the policy for unfinished matches, and the grades.
import type { MarketKey } from '../market-key.js';
import type { EventResult, Market, PlayerStats } from '../types.js';

export type GradeResult = 'won' | 'lost' | 'refund';

/**
 * The grade of one outcome. A quarter line can leave half the stake refunded: the outcome is then
 * `won` or `lost` with `voidFactor: 0.5` (the refunded share, decisions.md); whole outcomes have none.
 */
export interface OutcomeGrade {
  result: GradeResult;
  voidFactor?: 0.5;
}

/** What happens to the match-winner market of a tennis match a player retired from. */
export type TennisRetirementPolicy =
  /** The player who advances (`winner`) wins it once at least one set was completed; refund before. */
  | 'one_set_completed'
  /** The player who advances wins it as soon as play started (any set row). */
  | 'first_ball'
  /** Always refunded. */
  | 'refund';

/** What happens to the match-winner market of a walkover (the other markets are always refunded). */
export type WalkoverPolicy = 'refund' | 'award_moneyline';

/** What happens to the series-winner market of an esports match forfeited (retired, abandoned or walkover). */
export type EsportsForfeitPolicy =
  /** The side that advances (`winner`) wins it when at least one map/game was completed; refund otherwise. */
  'award_if_map_played' | 'refund';

/** The configurable parts of grading; every other rule is fixed (docs/markets.md). */
export interface GradingPolicy {
  tennisRetirement: TennisRetirementPolicy;
  walkover: WalkoverPolicy;
  esportsForfeit: EsportsForfeitPolicy;
}

export const DEFAULT_GRADING_POLICY: Readonly<GradingPolicy> = Object.freeze({
  tennisRetirement: 'one_set_completed',
  walkover: 'refund',
  esportsForfeit: 'award_if_map_played',
});

/** Everything a market is graded from. */
export interface GradingInput {
  sport: string;
  result: EventResult;
  /** The latest player statistics; player props wait for `final: true` on an ended event. */
  playerStats: PlayerStats | null;
  /** Default: DEFAULT_GRADING_POLICY. */
  policy?: GradingPolicy;
}

/** The grading input with its policy resolved, as the family graders see it. */
export interface GradingContext {
  sport: string;
  result: EventResult;
  playerStats: PlayerStats | null;
  policy: GradingPolicy;
}

/**
 * The grade of a market: one grade per outcome in the market's outcome order; `pending` while it
 * cannot be graded yet (player props before the final stats); `ungradeable` when no rule applies
 * (unknown family, malformed key, line or outcome code), which settlement refunds.
 */
export type MarketGrade =
  | { status: 'graded'; outcomes: OutcomeGrade[] }
  | { status: 'pending'; reason: string }
  | { status: 'ungradeable'; reason: string };

/** One family's rule: the market's key is already parsed and its family is the grader's. */
export type FamilyGrader = (market: Market, key: MarketKey, ctx: GradingContext) => MarketGrade;

/** Grade of one outcome code, or undefined for a code the family does not know. */
export type CodeGrader = (code: string) => OutcomeGrade | undefined;
