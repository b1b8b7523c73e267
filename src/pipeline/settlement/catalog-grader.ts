// The settlement engine's grader: the market catalog's rules (src/domain/grading) with the configured policy.
import { gradeMarket } from '../../domain/grading/catalog.js';
import type { GradingPolicy } from '../../domain/grading/types.js';
import type { Grader } from './grade.js';

export function catalogGrader(policy?: GradingPolicy): Grader {
  return (market, ctx) =>
    gradeMarket(market, {
      sport: ctx.sport,
      result: ctx.result,
      playerStats: ctx.playerStats,
      ...(policy !== undefined ? { policy } : {}),
    });
}
