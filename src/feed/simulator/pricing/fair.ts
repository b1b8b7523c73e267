// Fair (margin-free) markets as pricing models produce them, before the book turns them into odds.
import type { TeamSide } from '../../../domain/types.js';

export interface FairOutcome {
  /** Canonical outcome code (docs/markets.md); grading reads it. */
  code: string;
  label: string;
  side: TeamSide | null;
  /**
   * Fair probability. For lines with a push (whole and quarter lines) it is the break-even share
   * W / (W + L), so the outcomes of every market sum to 1.
   */
  p: number;
}

export interface FairMarket {
  key: string;
  name: string;
  outcomes: FairOutcome[];
  /** Already decided (or certain to be refunded): the book locks every outcome. */
  decided?: boolean;
}

export interface MatchNames {
  home: string;
  away: string;
}

export function fair(key: string, name: string, outcomes: FairOutcome[], decided = false): FairMarket {
  return decided ? { key, name, outcomes, decided } : { key, name, outcomes };
}

/** A market with the outcome labels and probabilities in order; a certain outcome makes it decided. */
export function decidedIfCertain(m: FairMarket): FairMarket {
  if (m.outcomes.some((o) => o.p >= 1 - 1e-9)) return { ...m, decided: true };
  if (m.outcomes.every((o) => o.p <= 1e-12)) return { ...m, decided: true };
  return m;
}

/** `+0.5`, `-1.25`, `0` as bettors read a handicap. */
export function signed(line: number): string {
  if (line === 0) return '0';
  return line > 0 ? `+${line}` : String(line);
}
