// How each family's arithmetic reads in words: the outcome's figure against its line or condition, from the grade's basis.
import type { Score } from '../types.js';
import { gradeCover, lineQuarters } from './lines.js';
import { SCORE_CODE } from './set-betting.js';
import type { GradeBasis, OutcomeGrade } from './types.js';

/** An outcome's rule code and its arithmetic in words (`margin +1 -0.25 = +0.75`). */
export interface Arithmetic {
  rule: string;
  text: string;
  /** The line as this outcome holds it (the away side of a handicap holds the opposite line); null without one. */
  line: number | null;
}

/** Describes one outcome of a graded market from the figures it was graded on. */
export type OutcomeDescriber = (code: string, line: number | null, basis: GradeBasis) => Arithmetic;

const ZERO: Score = { home: 0, away: 0 };
const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `${n}` : '0');
const word = (g: OutcomeGrade): string => (g.result === 'refund' ? 'refund' : g.result);
const scoreOf = (b: GradeBasis): Score => b.score ?? ZERO;
const resultOf = (s: Score): string => (s.home > s.away ? 'home' : s.home < s.away ? 'away' : 'draw');

/**
 * `value + line` against 0, the way gradeCover grades it: a whole line landing on 0 is a push; a
 * quarter line is two half stakes on the neighbouring lines, each shown with its own grade.
 */
function cover(what: string, value: number, line: number, kind: 'handicap' | 'total'): Arithmetic {
  const lineQ = lineQuarters(line) ?? 0;
  if (lineQ % 2 !== 0) {
    const low = (lineQ - 1) / 4;
    const high = (lineQ + 1) / 4;
    const half = (l: number): string =>
      `${signed(l)}: ${signed(value + l)} ${word(gradeCover(value, lineQuarters(l) ?? 0))}`;
    return {
      rule: `${kind}_quarter`,
      line,
      text: `${what} ${signed(value)} with ${signed(line)}, split into two half stakes (${half(low)}; ${half(high)})`,
    };
  }
  const sum = value + line;
  return {
    rule: sum === 0 ? `${kind}_push` : kind,
    line,
    text: `${what} ${signed(value)} with ${signed(line)} = ${signed(sum)}${sum === 0 ? ' (the whole line lands: push)' : ''}`,
  };
}

/** Asian and set handicaps: the side's margin plus the line it holds. */
export const describeHandicap: OutcomeDescriber = (code, line, basis) => {
  const s = scoreOf(basis);
  const l = line ?? 0;
  const margin = code === 'away' ? s.away - s.home : s.home - s.away;
  return cover(`${code} margin`, margin, code === 'away' ? -l : l, 'handicap');
};

/** Over/under a line on a count of the score (`totals`, team totals, sets) or on a stat (rounds, player props). */
export function describeOverUnder(count: (basis: GradeBasis) => number, what: string): OutcomeDescriber {
  return (code, line, basis) => {
    const n = count(basis);
    const l = line ?? 0;
    const side = code === 'under' ? -1 : 1;
    // over wins when n - line > 0, under when line - n > 0 (gradeOverUnder).
    const diff = (at: number): string => {
      const d = side * (n - at);
      return `${signed(d)} ${word(gradeCover(side * n, -side * (lineQuarters(at) ?? 0)))}`;
    };
    const lineQ = lineQuarters(l) ?? 0;
    if (lineQ % 2 !== 0) {
      const low = (lineQ - 1) / 4;
      const high = (lineQ + 1) / 4;
      return {
        rule: 'total_quarter',
        line: l,
        text: `${what} ${n} against ${l} for ${code}, split into two half stakes (${low}: ${diff(low)}; ${high}: ${diff(high)})`,
      };
    }
    const d = side * (n - l);
    return {
      rule: d === 0 ? 'total_push' : 'total',
      line: l,
      text: `${what} ${n} against ${l}: ${code} ${signed(d)}${d === 0 ? ' (the whole line lands: push)' : ''}`,
    };
  };
}

export const describeTotals = describeOverUnder((b) => scoreOf(b).home + scoreOf(b).away, 'total');
export const describeTeamTotalHome = describeOverUnder((b) => scoreOf(b).home, 'home total');
export const describeTeamTotalAway = describeOverUnder((b) => scoreOf(b).away, 'away total');
/** Rounds started, a player's counter: the stat the basis names. */
export const describeStat: OutcomeDescriber = (code, line, basis) => {
  const st = basis.stat;
  const what =
    st === null ? 'count' : st.player_id === null ? st.name.replace(/_/g, ' ') : `player ${st.player_id} ${st.name}`;
  return describeOverUnder((b) => b.stat?.value ?? 0, what)(code, line, basis);
};

/** 1x2 and the 3-way handicap: the margin (after the home handicap) decides home, draw or away. */
export const describeThreeWay: OutcomeDescriber = (code, line, basis) => {
  const s = scoreOf(basis);
  const l = line ?? 0;
  const margin = s.home - s.away + l;
  const actual = margin > 0 ? 'home' : margin < 0 ? 'away' : 'draw';
  const withLine = line === null ? '' : ` with ${signed(l)} for home = ${signed(margin)}`;
  return {
    rule: line === null ? 'result' : 'handicap',
    line,
    text: `margin ${signed(s.home - s.away)}${withLine}: result ${actual}, ${code} ${code === actual ? 'is' : 'is not'} it`,
  };
};

export const describeDoubleChance: OutcomeDescriber = (code, _line, basis) => {
  const actual = resultOf(scoreOf(basis));
  const covers = code.split('_').includes(actual);
  return { rule: 'result', line: null, text: `result ${actual}; ${code} ${covers ? 'covers' : 'does not cover'} it` };
};

/** Draw no bet and unit winners: the side ahead wins, a level score refunds both. */
export const describeSideOrRefund: OutcomeDescriber = (code, _line, basis) => {
  const actual = resultOf(scoreOf(basis));
  if (actual === 'draw') return { rule: 'draw_refund', line: null, text: 'level score, a draw refunds both sides' };
  return { rule: 'result', line: null, text: `${actual} ahead; ${code} ${code === actual ? 'is' : 'is not'} it` };
};

/** Moneyline and to qualify on a score that decided it (a level score or a policy are market rules). */
export const describeWinner: OutcomeDescriber = (code, _line, basis) => {
  const actual = resultOf(scoreOf(basis));
  return { rule: 'result', line: null, text: `${actual} won; ${code} ${code === actual ? 'is' : 'is not'} the winner` };
};

export const describeHtFt: OutcomeDescriber = (code, _line, basis) => {
  const ht = basis.half_time ?? ZERO;
  const actual = `${resultOf(ht)}/${resultOf(scoreOf(basis))}`;
  return {
    rule: 'result',
    line: null,
    text: `half time ${ht.home}-${ht.away}, full time ${scoreOf(basis).home}-${scoreOf(basis).away}: ${actual}; ${code} ${code === actual ? 'is' : 'is not'} it`,
  };
};

export const describeWinningMargin: OutcomeDescriber = (code, _line, basis) => {
  const s = scoreOf(basis);
  const m = s.home - s.away;
  const actual = m === 0 ? 'draw' : `${m > 0 ? 'home' : 'away'} by ${Math.abs(m)}`;
  return { rule: 'result', line: null, text: `${actual}; band ${code}` };
};

export const describeExactTotal: OutcomeDescriber = (code, _line, basis) => {
  const s = scoreOf(basis);
  return { rule: 'result', line: null, text: `total ${s.home + s.away}; band ${code}` };
};

/** Correct score and set betting: the exact score against the code (`other`: no listed score). */
export const describeExactScore: OutcomeDescriber = (code, _line, basis) => {
  const s = scoreOf(basis);
  const text = SCORE_CODE.test(code)
    ? `score ${s.home}-${s.away}; ${code} ${code === `${s.home}-${s.away}` ? 'is' : 'is not'} it`
    : `score ${s.home}-${s.away}; other wins when no listed score is it`;
  return { rule: 'result', line: null, text };
};

export const describeBtts: OutcomeDescriber = (code, _line, basis) => {
  const s = scoreOf(basis);
  const both = s.home > 0 && s.away > 0;
  return { rule: 'result', line: null, text: `${both ? 'both sides scored' : 'not both sides scored'}; ${code}` };
};

export const describeOddEven: OutcomeDescriber = (code, _line, basis) => {
  const t = scoreOf(basis).home + scoreOf(basis).away;
  return { rule: 'result', line: null, text: `total ${t} is ${t % 2 === 1 ? 'odd' : 'even'}; ${code}` };
};
