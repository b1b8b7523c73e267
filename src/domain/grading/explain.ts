// Why each outcome was graded so: the grade and its explanation from one grading pass (gradeMarket and the family's describer).
import { familyOf } from '../families/index.js';
import { parseMarketKey } from '../market-key.js';
import { selectionOutcome, type OutrightResult } from '../outrights.js';
import type { Market, Score, TeamSide } from '../types.js';
import { gradeMarket } from './catalog.js';
import type { OutcomeDescriber } from './describe.js';
import { normalizeCode } from './outcome.js';
import { scopeText } from './periods.js';
import {
  DEFAULT_GRADING_POLICY,
  type GradeBasis,
  type GradedStat,
  type GradingInput,
  type MarketGrade,
  type OutcomeGrade,
} from './types.js';

/** One outcome's explanation as served (snake_case; absent figures are null). */
export interface OutcomeExplanation {
  /** One plain sentence. */
  text: string;
  /** The score graded on (the scope's), or null when a stat or nothing was read. */
  score: Score | null;
  /** Which periods: `regulation`, `full_game`, `full_game_shootout`, `games`, `sets`, `maps`, `frames`, `rounds`, or a period key (`1h`, `p1`). */
  scope: string | null;
  /** The line as this outcome holds it (the away side of a handicap holds the opposite line). */
  line: number | null;
  /** The rule that applied (docs/settlement.md "Why an outcome was graded so"). */
  rule: string;
  void_factor: number | null;
  dead_heat_factor: number | null;
  /** The counter graded on: a player prop's stat, the rounds of a fight. */
  stat: GradedStat | null;
  /** The side a decider (shoot-out, penalties) or a policy (retirement, walkover, forfeit) gave the market to. */
  winner: TeamSide | null;
  /** `ht_ft`: the first-half score. */
  half_time_score: Score | null;
  /** The revision of the result graded on: above 1 after a correction. */
  result_revision: number | null;
}

export interface ExplainedMarket {
  grade: MarketGrade;
  /** One per outcome in market order, or null while the market is pending. */
  explanations: OutcomeExplanation[] | null;
}

const resultWords = (g: OutcomeGrade): string => {
  if (g.result === 'refund') return 'refunded';
  if (g.voidFactor !== undefined) return g.result === 'won' ? 'half won, half refunded' : 'half lost, half refunded';
  return g.result;
};

const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}${s.endsWith('.') ? '' : '.'}`;

function blank(rule: string, text: string, revision: number | null): OutcomeExplanation {
  return {
    text: sentence(text),
    score: null,
    scope: null,
    line: null,
    rule,
    void_factor: null,
    dead_heat_factor: null,
    stat: null,
    winner: null,
    half_time_score: null,
    result_revision: revision,
  };
}

/** An explanation that names only a rule and its sentence (refunds decided outside grading: 48 hours, stats timeout…). */
export function ruleExplanation(rule: string, text: string, revision: number | null = null): OutcomeExplanation {
  return blank(rule, text, revision);
}

/**
 * A score that counts a shoot-out goal (the ice hockey lines incl. overtime) says where it came from:
 * the score level after overtime and the side that won the shoot-out. Other arithmetic has no winner.
 */
function shootoutGoal(basis: GradeBasis): string {
  if (basis.winner === null || basis.score === null) return '';
  const level = basis.winner === 'home' ? basis.score.home - 1 : basis.score.away - 1;
  return ` (${level}-${level} after overtime, ${basis.winner} won the shoot-out: one goal)`;
}

function policyText(input: GradingInput, rule: string): string {
  const p = input.policy ?? DEFAULT_GRADING_POLICY;
  if (rule === 'retirement') return `the tennis retirement policy (${p.tennisRetirement})`;
  if (rule === 'walkover') return `the walkover policy (${p.walkover})`;
  return `the esports forfeit policy (${p.esportsForfeit})`;
}

/**
 * The grade of a market and, for each outcome, why: gradeMarket grades it (the one grading path,
 * with the basis its family's grader recorded) and the family's describer words each outcome's
 * arithmetic from that basis. Settlement grades with gradeMarket alone; an explanation is rendered
 * on demand from the same grading pass, so it cannot disagree with the grade it comes with.
 */
export function explainMarket(market: Market, input: GradingInput): ExplainedMarket {
  const grade = gradeMarket(market, input);
  const revision = input.result.revision;
  if (grade.status === 'pending') return { grade, explanations: null };
  if (grade.status === 'ungradeable') {
    const e = blank('ungradeable', `no rule grades this market (${grade.reason}): every outcome is refunded`, revision);
    return { grade, explanations: market.outcomes.map(() => e) };
  }
  const key = parseMarketKey(market.key);
  const family = key === null ? undefined : familyOf(key.family);
  const explanations = market.outcomes.map((o, i) => {
    const g = grade.outcomes[i] ?? { result: 'refund' as const };
    const basis = grade.basis ?? null;
    return explainOutcome(normalizeCode(o.code), key?.line ?? null, g, basis, family?.explain ?? null, input, revision);
  });
  return { grade, explanations };
}

function explainOutcome(
  code: string,
  keyLine: number | null,
  g: OutcomeGrade,
  basis: GradeBasis | null,
  describe: OutcomeDescriber | null,
  input: GradingInput,
  revision: number,
): OutcomeExplanation {
  const out = blank('result', '', revision);
  out.void_factor = g.voidFactor ?? null;
  if (basis === null) {
    out.rule = 'ungradeable';
    out.text = sentence(`${code}: ${resultWords(g)}`);
    return out;
  }
  out.score = basis.score;
  out.scope = basis.scope;
  out.stat = basis.stat;
  out.half_time_score = basis.half_time;
  out.winner = basis.winner;
  const sport = input.sport;
  const where = basis.scope === null ? '' : scopeText(sport, basis.scope);
  const at = basis.score === null ? '' : ` ${basis.score.home}-${basis.score.away}`;
  const corrected = revision > 1 ? ` (graded on the corrected result, revision ${revision})` : '';
  const result = resultWords(g);
  const arithmetic = (): string => {
    if (describe === null) return '';
    const a = describe(code, keyLine, basis);
    out.rule = a.rule;
    out.line = a.line;
    return a.text;
  };
  switch (basis.rule) {
    case 'cancelled':
      out.rule = 'cancelled';
      out.text = sentence(`the event was cancelled: every market is refunded${corrected}`);
      return out;
    case 'period_not_played':
      out.rule = 'period_not_played';
      out.text = sentence(`${where} was never played: refunded`);
      return out;
    case 'abandoned_refund':
      out.rule = 'abandoned_refund';
      out.text = sentence(
        `play stopped (${input.result.status})${at === '' ? '' : ` at${at}`} before ${where || 'the end'} and the outcome was not yet decided: refunded`,
      );
      return out;
    case 'did_not_play':
      out.rule = 'did_not_play';
      out.text = sentence(
        `player ${basis.stat?.player_id ?? ''} did not play (absent from the final stats or 0 minutes): refunded`,
      );
      return out;
    case 'tie_refund':
      out.rule = 'tie_refund';
      out.text = sentence(`${where}${at}: a level score with no decider: refunded${corrected}`);
      return out;
    case 'decider':
      out.rule = 'decider';
      out.text = sentence(
        `${where}${at}: level, so the decider (shoot-out or penalties) counts; ${basis.winner} won it, ${code} ${result}${corrected}`,
      );
      return out;
    case 'walkover':
    case 'retirement':
    case 'esports_forfeit': {
      out.rule = basis.rule;
      const by = policyText(input, basis.rule);
      const what =
        basis.rule === 'walkover' ? 'a walkover' : basis.rule === 'retirement' ? 'a retirement' : 'a forfeit';
      out.text =
        basis.winner === null && basis.rule === 'walkover'
          ? sentence(
              `the match ended in a walkover: every market but the match winner is refunded, and the match winner too under ${by}`,
            )
          : basis.winner === null
            ? sentence(`the match ended in ${what}${at === '' ? '' : ` at${at}`}; by ${by} this market is refunded`)
            : sentence(
                `the match ended in ${what}${at === '' ? '' : ` at${at}`}; by ${by} it goes to ${basis.winner}, who advanced: ${code} ${result}`,
              );
      return out;
    }
    case 'abandoned_decided': {
      const a = arithmetic();
      out.rule = 'abandoned_decided';
      out.text = sentence(
        `play stopped (${input.result.status}) but the outcome was already decided; ${where}${at}: ${a} → ${result}`,
      );
      return out;
    }
    case null: {
      const a = arithmetic();
      // A stat (rounds, a player's counter) names itself in the arithmetic.
      const head = basis.score === null ? '' : `${where}${at}${shootoutGoal(basis)}: `;
      out.text = sentence(`${head}${a} → ${result}${corrected}`);
      return out;
    }
  }
}

/**
 * Why a selection of a settled outright market settled so: a void market refunds everything; a
 * winner wins (a dead heat pays the factor of the win: 1/n for n tied); every other selection loses.
 * The result comes from selectionOutcome, the same rule the outright feed and bet check settle by.
 */
export function explainOutright(result: OutrightResult, selectionId: number, selection: string): OutcomeExplanation {
  const o = selectionOutcome(result, selectionId);
  const winners = result.winners.length;
  if (result.void) return blank('outright_void', 'the market was declared void: every selection is refunded', null);
  if (o.result === 'lost') {
    const text =
      winners <= 1 ? `${selection} did not win the market` : `${selection} was not among the ${winners} winners`;
    return blank('outright_loser', `${text}: lost`, null);
  }
  if (o.deadHeatFactor === null) {
    const text = winners === 1 ? `${selection} won the market` : `${selection} is one of ${winners} whole winners`;
    return blank('outright_winner', `${text}: won at full odds`, null);
  }
  const tied = result.winners.filter((w) => w.deadHeatFactor !== null).length;
  const e = blank(
    'outright_dead_heat',
    `${selection} finished in a ${tied}-way dead heat (${winners} winners in all): won, ${o.deadHeatFactor} of the stake paid at full odds and the rest lost`,
    null,
  );
  e.dead_heat_factor = o.deadHeatFactor;
  return e;
}
