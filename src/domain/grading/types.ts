// Types of the grading rules: what a market is graded from, the policy for unfinished matches, and the grades.
import type { MarketKey } from '../market-key.js';
import type { EventResult, Market, PlayerStats, Score, TeamSide } from '../types.js';

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
  | { status: 'graded'; outcomes: OutcomeGrade[]; basis?: GradeBasis }
  | { status: 'pending'; reason: string }
  | { status: 'ungradeable'; reason: string };

/** One family's rule: the market's key is already parsed and its family is the grader's. */
export type FamilyGrader = (market: Market, key: MarketKey, ctx: GradingContext) => MarketGrade;

/** Grade of one outcome code, or undefined for a code the family does not know. */
export type CodeGrader = (code: string) => OutcomeGrade | undefined;

/**
 * A rule that decided a whole market rather than its arithmetic: a refund (cancelled, walkover,
 * period not played, play stopped before the outcome was decided, a tie, a player who did not
 * play), an award (a deciding shoot-out or penalties, a retirement, walkover or forfeit policy), or
 * a market decided before play stopped.
 */
export type MarketRule =
  | 'cancelled'
  | 'walkover'
  | 'retirement'
  | 'esports_forfeit'
  | 'period_not_played'
  | 'abandoned_refund'
  | 'abandoned_decided'
  | 'decider'
  | 'tie_refund'
  | 'did_not_play';

/** A counter a market was graded on instead of the score: a player's stat, the rounds of a fight. */
export interface GradedStat {
  name: string;
  player_id: string | null;
  value: number;
}

/**
 * The figures a market was graded from, set by the grader that graded it (one small object per
 * market, so settlement stays cheap): the explanation of each outcome is rendered from these and
 * the outcome's own grade (explain.ts), never recomputed elsewhere.
 */
export interface GradeBasis {
  /** The score of the scope graded on (null when a stat, or nothing, was read). */
  score: Score | null;
  /** Which periods: `regulation`, `full_game`, `full_game_shootout`, `games`, `sets`, `maps`, `frames`, `rounds`, a period (`1h`, `p1`…). */
  scope: string | null;
  rule: MarketRule | null;
  /** The side a decider or a policy gave the market to (`decider`, `retirement`, `walkover`, `esports_forfeit`). */
  winner: TeamSide | null;
  stat: GradedStat | null;
  /** `ht_ft`: the first-half score (`score` is regulation time). */
  half_time: Score | null;
}
