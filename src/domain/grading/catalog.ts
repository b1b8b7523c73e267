// The grading catalog: gradeMarket, the single entry point of settlement grading, over the family descriptors' rules.
import { parseMarketKey, type MarketKey } from '../market-key.js';
import type { Market } from '../types.js';
import { FAMILIES, familyOf, type FamilyDescriptor } from '../families/index.js';
import { basisOf, refundAll, ungradeable } from './outcome.js';
import { completedUnits } from './periods.js';
import { DEFAULT_GRADING_POLICY, type GradingContext, type GradingInput, type MarketGrade } from './types.js';
import { isEsportsForfeit } from './unfinished.js';

/** A family's rule: its descriptor (domain/families/) holds the grader and the key's shape. */
type FamilyRule = Pick<FamilyDescriptor, 'grade' | 'line' | 'period'>;

/** The rule of a family, or undefined when no rule grades it. */
function ruleOf(family: string): FamilyRule | undefined {
  return familyOf(family);
}

/** Whether a family (`totals`, `player_goals_p12`…) has a grading rule. */
export function isGradedFamily(family: string): boolean {
  return ruleOf(family) !== undefined;
}

/** The families with a rule (player props aside), for documentation checks. */
export const GRADED_FAMILIES: readonly string[] = FAMILIES.map((d) => d.key);

function shapeError(r: FamilyRule, key: MarketKey): string | null {
  if (r.line === 'none' && key.line !== null) return 'takes no line';
  if (r.line !== 'none' && key.line === null) return 'needs a line';
  if (r.line === 'quarters' && key.line !== null && !Number.isInteger(key.line * 4))
    return 'line is not a multiple of 0.25';
  if (r.line === 'whole' && key.line !== null && !Number.isInteger(key.line)) return 'line is not a whole number';
  if (r.period === 'none' && key.period !== null) return 'takes no period';
  if (r.period === 'required' && key.period === null) return 'needs a period';
  return null;
}

/** Parsed keys by text: the same few thousand keys recur across every event (a third of grading time). */
const parsedKeys = new Map<string, MarketKey | null>();

function parsedKey(text: string): MarketKey | null {
  let key = parsedKeys.get(text);
  if (key === undefined) {
    const parsed = parseMarketKey(text);
    // Shared between calls: frozen so no grader can change what the next one reads.
    key = parsed === null ? null : Object.freeze(parsed);
    if (parsedKeys.size >= 100_000) parsedKeys.clear();
    parsedKeys.set(text, key);
  }
  return key;
}

/**
 * Grades one market of a finished event from its result (and player stats for player props).
 * Cancelled events refund everything; a walkover refunds everything but, by policy, the match
 * winner (an esports forfeit after a map was played is graded like a retirement: what was decided
 * stands). Abandoned and retired events grade what was decided and refund the rest.
 */
export function gradeMarket(market: Market, input: GradingInput): MarketGrade {
  const ctx: GradingContext = {
    sport: input.sport,
    result: input.result,
    playerStats: input.playerStats,
    policy: input.policy ?? DEFAULT_GRADING_POLICY,
  };
  const key = parsedKey(market.key);
  const status = ctx.result.status;
  if (status === 'cancelled') return refundAll(market, basisOf({ rule: 'cancelled' }));
  if (key === null) return ungradeable(`malformed market key ${JSON.stringify(market.key)}`);
  const r = ruleOf(key.family);
  if (r === undefined) return ungradeable(`no grading rule for the family ${JSON.stringify(key.family)}`);
  const bad = shapeError(r, key);
  if (bad !== null) return ungradeable(`${market.key}: ${key.family} ${bad}`);
  if (status === 'walkover') {
    const forfeit = isEsportsForfeit(ctx) && completedUnits(ctx.result) >= 1;
    const matchWinner = key.family === 'moneyline' && key.period === null;
    if (!forfeit && !matchWinner) return refundAll(market, basisOf({ rule: 'walkover' }));
  }
  return r.grade(market, key, ctx);
}
