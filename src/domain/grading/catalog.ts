// The grading catalog: every market family's rule, and gradeMarket, the single entry point of settlement grading.
import { parseMarketKey, type MarketKey } from '../market-key.js';
import type { Market } from '../types.js';
import { gradeAsianHandicap, gradeSetHandicap } from './asian-handicap.js';
import { gradeBtts } from './btts.js';
import { gradeCorrectScore } from './correct-score.js';
import { gradeDoubleChance } from './double-chance.js';
import { gradeDrawNoBet } from './draw-no-bet.js';
import { gradeExactTotal } from './exact-total.js';
import { gradeFightRounds } from './fight-rounds.js';
import { gradeHandicap3Way } from './handicap-3way.js';
import { gradeHtFt } from './ht-ft.js';
import { gradeOddEven } from './odd-even.js';
import { gradeOneXTwo } from './one-x-two.js';
import { refundAll, ungradeable } from './outcome.js';
import { completedUnits } from './periods.js';
import { gradePlayerProp, isPlayerPropFamily } from './player-props.js';
import { gradeSetBetting } from './set-betting.js';
import { gradeMoneyline, gradeToQualify } from './side-winner.js';
import { gradeTeamTotalsAway, gradeTeamTotalsHome } from './team-totals.js';
import { gradeTotalSets, gradeTotals } from './totals.js';
import {
  DEFAULT_GRADING_POLICY,
  type FamilyGrader,
  type GradingContext,
  type GradingInput,
  type MarketGrade,
} from './types.js';
import { isEsportsForfeit } from './unfinished.js';
import { gradeUnitWinner } from './unit-winner.js';
import { gradeWinningMargin } from './winning-margin.js';

interface FamilyRule {
  grade: FamilyGrader;
  /** `none`: the key has no line; `quarters`: a multiple of 0.25; `whole`: an integer. */
  line: 'none' | 'quarters' | 'whole';
  /** `any`: full game or a period; `none`: its scope is fixed by the family; `required`: a period market only. */
  period: 'any' | 'none' | 'required';
}

const rule = (grade: FamilyGrader, line: FamilyRule['line'], period: FamilyRule['period']): FamilyRule => ({
  grade,
  line,
  period,
});

/** Every family with a rule, by family name (docs/markets.md lists them for users). */
const FAMILIES: ReadonlyMap<string, FamilyRule> = new Map([
  ['1x2', rule(gradeOneXTwo, 'none', 'any')],
  ['double_chance', rule(gradeDoubleChance, 'none', 'any')],
  ['draw_no_bet', rule(gradeDrawNoBet, 'none', 'any')],
  ['moneyline', rule(gradeMoneyline, 'none', 'any')],
  ['to_qualify', rule(gradeToQualify, 'none', 'none')],
  ['ht_ft', rule(gradeHtFt, 'none', 'none')],
  ['winning_margin', rule(gradeWinningMargin, 'none', 'any')],
  ['handicap_3way', rule(gradeHandicap3Way, 'whole', 'any')],
  ['set_betting', rule(gradeSetBetting, 'none', 'none')],
  ['correct_score', rule(gradeCorrectScore, 'none', 'any')],
  ['exact_total', rule(gradeExactTotal, 'none', 'any')],
  ['set_winner', rule(gradeUnitWinner, 'none', 'required')],
  ['game_winner', rule(gradeUnitWinner, 'none', 'required')],
  ['frame_winner', rule(gradeUnitWinner, 'none', 'required')],
  ['map_winner', rule(gradeUnitWinner, 'none', 'required')],
  ['asian_handicap', rule(gradeAsianHandicap, 'quarters', 'any')],
  ['set_handicap', rule(gradeSetHandicap, 'quarters', 'none')],
  ['totals', rule(gradeTotals, 'quarters', 'any')],
  ['total_sets', rule(gradeTotalSets, 'quarters', 'none')],
  ['team_totals_home', rule(gradeTeamTotalsHome, 'quarters', 'any')],
  ['team_totals_away', rule(gradeTeamTotalsAway, 'quarters', 'any')],
  ['btts', rule(gradeBtts, 'none', 'any')],
  ['odd_even', rule(gradeOddEven, 'none', 'any')],
  ['fight_rounds', rule(gradeFightRounds, 'quarters', 'none')],
]);

const PLAYER_PROP: FamilyRule = rule(gradePlayerProp, 'quarters', 'none');

/** The rule of a family, or undefined when no rule grades it. */
function ruleOf(family: string): FamilyRule | undefined {
  return FAMILIES.get(family) ?? (isPlayerPropFamily(family) ? PLAYER_PROP : undefined);
}

/** Whether a family (`totals`, `player_goals_p12`…) has a grading rule. */
export function isGradedFamily(family: string): boolean {
  return ruleOf(family) !== undefined;
}

/** The families with a rule (player props aside), for documentation checks. */
export const GRADED_FAMILIES: readonly string[] = [...FAMILIES.keys()];

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
  if (status === 'cancelled') return refundAll(market);
  if (key === null) return ungradeable(`malformed market key ${JSON.stringify(market.key)}`);
  const r = ruleOf(key.family);
  if (r === undefined) return ungradeable(`no grading rule for the family ${JSON.stringify(key.family)}`);
  const bad = shapeError(r, key);
  if (bad !== null) return ungradeable(`${market.key}: ${key.family} ${bad}`);
  if (status === 'walkover') {
    const forfeit = isEsportsForfeit(ctx) && completedUnits(ctx.result) >= 1;
    const matchWinner = key.family === 'moneyline' && key.period === null;
    if (!forfeit && !matchWinner) return refundAll(market);
  }
  return r.grade(market, key, ctx);
}
