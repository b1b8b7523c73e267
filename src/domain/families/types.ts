// The shape of a market family descriptor: everything the service knows about a family, in one place.
import type { OutcomeDescriber } from '../grading/describe.js';
import type { FamilyGrader } from '../grading/types.js';

/** The outcome codes a family's markets carry (grading reads only these, docs/markets.md). */
export type OutcomeCodes =
  /** A fixed list, in the order the simulator lists them. */
  | { kind: 'fixed'; codes: readonly string[] }
  /** Codes that depend on the market (scores, bands): a pattern, with how docs write it. */
  | { kind: 'pattern'; pattern: RegExp; text: string };

/** Where a family is listed in docs/markets.md "Families". */
export type FamilySection = 'result' | 'lines' | 'accepted';

/** 0 = main (full game), 1 = period and exotic markets, 2 = player props (settlement order). */
export type SettlementPhase = 0 | 1 | 2;

export interface FamilyDescriptor {
  /** The family part of a market key (`totals` in `totals@1h:2.5`). */
  key: string;
  /** What the family is, one line (the docs' family index). */
  doc: string;
  /** The market name the simulator gives it by default (a sport may say `Puck Line`, `Total Runs`…). */
  name: string;
  /** `none`: the key has no line; `quarters`: a multiple of 0.25; `whole`: an integer. */
  line: 'none' | 'quarters' | 'whole';
  /** `any`: full game or a period; `none`: its scope is fixed by the family; `required`: a period market only. */
  period: 'any' | 'none' | 'required';
  outcomes: OutcomeCodes;
  /** The grading rule (one file per rule in domain/grading/). */
  grade: FamilyGrader;
  /** Each outcome's arithmetic in words, from the figures `grade` graded on (explanations). */
  explain: OutcomeDescriber;
  /** A main market: its full-game markets settle first (phase 0), before period and exotic ones. */
  main: boolean;
  section: FamilySection;
}

export const fixed = (...codes: string[]): OutcomeCodes => ({ kind: 'fixed', codes });
export const pattern = (re: RegExp, text: string): OutcomeCodes => ({ kind: 'pattern', pattern: re, text });

/** Whether `code` is one of the family's outcome codes. */
export function isOutcomeCode(d: FamilyDescriptor, code: string): boolean {
  return d.outcomes.kind === 'fixed' ? d.outcomes.codes.includes(code) : d.outcomes.pattern.test(code);
}
