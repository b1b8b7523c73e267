// Settlement grading: the public surface of the market catalog's rules.
export { gradeMarket, isGradedFamily, GRADED_FAMILIES } from './catalog.js';
export { returnPerUnit } from './outcome.js';
export {
  DEFAULT_GRADING_POLICY,
  type GradeResult,
  type GradingInput,
  type GradingPolicy,
  type MarketGrade,
  type OutcomeGrade,
  type TennisRetirementPolicy,
  type WalkoverPolicy,
  type EsportsForfeitPolicy,
} from './types.js';
