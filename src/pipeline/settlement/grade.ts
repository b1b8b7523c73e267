// What the settlement engine grades with: the market catalog's grade shape, behind a function it is given.
import type { GradingInput, MarketGrade } from '../../domain/grading/types.js';
import type { Market } from '../../domain/types.js';

/** One grade per outcome in market order, `pending` (props before final stats) or `ungradeable`. */
export type MarketGrading = MarketGrade;

/** The grading input without the policy: the engine's grader carries the configured one. */
export type GradeContext = Omit<GradingInput, 'policy'>;

export type Grader = (market: Market, ctx: GradeContext) => MarketGrading;
