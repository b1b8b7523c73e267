// Outcome grades (won, lost, refund, half won, half lost), applying a code rule to a market, and what a grade pays.
import type { Market } from '../types.js';
import type { CodeGrader, GradeBasis, MarketGrade, OutcomeGrade } from './types.js';

export const WON: OutcomeGrade = Object.freeze({ result: 'won' });
export const LOST: OutcomeGrade = Object.freeze({ result: 'lost' });
export const REFUND: OutcomeGrade = Object.freeze({ result: 'refund' });
export const HALF_WON: OutcomeGrade = Object.freeze({ result: 'won', voidFactor: 0.5 });
export const HALF_LOST: OutcomeGrade = Object.freeze({ result: 'lost', voidFactor: 0.5 });

export const wonIf = (condition: boolean): OutcomeGrade => (condition ? WON : LOST);

/** Codes are compared trimmed and lower-cased (`Home/Draw` is `home/draw`). */
export function normalizeCode(code: string): string {
  return code.trim().toLowerCase();
}

/**
 * Grades every outcome of a market by its code. One code the rule does not know makes the whole
 * market ungradeable: grading a market with a misread outcome would pay the wrong people.
 */
export function gradeOutcomes(market: Market, grade: CodeGrader, basis?: GradeBasis): MarketGrade {
  const outcomes: OutcomeGrade[] = [];
  for (const o of market.outcomes) {
    const g = grade(normalizeCode(o.code));
    if (g === undefined) {
      return { status: 'ungradeable', reason: `unknown outcome code ${JSON.stringify(o.code)} for ${market.key}` };
    }
    outcomes.push(g);
  }
  return basis === undefined ? { status: 'graded', outcomes } : { status: 'graded', outcomes, basis };
}

/** Every outcome refunded (period not played, cancelled event, market not decided when play stopped). */
export function refundAll(market: Market, basis?: GradeBasis): MarketGrade {
  const outcomes = market.outcomes.map(() => REFUND);
  return basis === undefined ? { status: 'graded', outcomes } : { status: 'graded', outcomes, basis };
}

/** A basis: the figures graded on, the rest null. */
export function basisOf(fields: Partial<GradeBasis>): GradeBasis {
  return {
    score: fields.score ?? null,
    scope: fields.scope ?? null,
    rule: fields.rule ?? null,
    winner: fields.winner ?? null,
    stat: fields.stat ?? null,
    half_time: fields.half_time ?? null,
  };
}

export const ungradeable = (reason: string): MarketGrade => ({ status: 'ungradeable', reason });

/**
 * What one unit staked at `odds` returns: odds when won, 1 when refunded, 0 when lost; a half-won
 * outcome returns half at odds and half back, a half-lost one half back.
 */
export function returnPerUnit(grade: OutcomeGrade, odds: number): number {
  const refunded = grade.voidFactor ?? 0;
  const settled = 1 - refunded;
  switch (grade.result) {
    case 'won':
      return settled * odds + refunded;
    case 'lost':
      return refunded;
    case 'refund':
      return 1;
  }
}
