// Adapts the market catalog's grading to what settlement needs: one grade per outcome, in market order.
import type { EventResult, Market, PlayerStats } from '../../domain/types.js';

export interface OutcomeGrade {
  result: 'won' | 'lost' | 'refund';
  voidFactor?: number;
}

export type MarketGrading =
  | { status: 'graded'; outcomes: OutcomeGrade[] }
  | { status: 'pending'; reason: string }
  | { status: 'ungradeable'; reason: string };

export interface GradeContext {
  sport: string;
  result: EventResult;
  playerStats: PlayerStats | null;
}

export type Grader = (market: Market, ctx: GradeContext) => MarketGrading;
