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

/** Where a line market sits among its family's lines, and how to price the same market at another line. */
export interface LineOf {
  /** The key without its line (`totals@q1`): the lines of one group share family, period and distribution. */
  group: string;
  value: number;
  /** Its first outcome's chance rises with the line (a handicap's home side) or falls (a total's Over). */
  rises: boolean;
  /** The same market at another line, priced from the same state (live-lines.ts follows the score with it). */
  at(line: number): FairMarket;
}

export interface FairMarket {
  key: string;
  name: string;
  outcomes: FairOutcome[];
  /** Already decided (or certain to be refunded): the book locks every outcome. */
  decided?: boolean;
  /** Set on a two-way line market (totals, handicaps): its line can follow the score in play. */
  line?: LineOf;
  /** Set on a player prop: whose player and which counter (the prematch drift moves it with its side). */
  player?: { side: TeamSide; stat: string };
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
