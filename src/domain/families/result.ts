// Descriptors of the result markets: who wins the game, a period or a unit, and by what score or margin.
import {
  describeDoubleChance,
  describeExactScore,
  describeExactTotal,
  describeHtFt,
  describeSideOrRefund,
  describeThreeWay,
  describeWinner,
  describeWinningMargin,
} from '../grading/describe.js';
import { gradeCorrectScore } from '../grading/correct-score.js';
import { gradeDoubleChance } from '../grading/double-chance.js';
import { gradeDrawNoBet } from '../grading/draw-no-bet.js';
import { gradeExactTotal } from '../grading/exact-total.js';
import { gradeHandicap3Way } from '../grading/handicap-3way.js';
import { gradeHtFt } from '../grading/ht-ft.js';
import { gradeOneXTwo } from '../grading/one-x-two.js';
import { gradeSetBetting } from '../grading/set-betting.js';
import { gradeMoneyline, gradeToQualify } from '../grading/side-winner.js';
import { gradeUnitWinner } from '../grading/unit-winner.js';
import { gradeWinningMargin } from '../grading/winning-margin.js';
import { fixed, pattern, type FamilyDescriptor } from './types.js';

const SIDES = fixed('home', 'away');
const THREE_WAY = fixed('home', 'draw', 'away');

export const ONE_X_TWO: FamilyDescriptor = {
  key: '1x2',
  doc: 'home win, draw or away win',
  name: 'Match Result',
  line: 'none',
  period: 'any',
  outcomes: THREE_WAY,
  grade: gradeOneXTwo,
  explain: describeThreeWay,
  main: true,
  section: 'result',
};

export const DOUBLE_CHANCE: FamilyDescriptor = {
  key: 'double_chance',
  doc: 'two of the three results',
  name: 'Double Chance',
  line: 'none',
  period: 'any',
  outcomes: fixed('home_draw', 'home_away', 'draw_away'),
  grade: gradeDoubleChance,
  explain: describeDoubleChance,
  main: true,
  section: 'result',
};

export const DRAW_NO_BET: FamilyDescriptor = {
  key: 'draw_no_bet',
  doc: 'the winner; a draw refunds',
  name: 'Draw No Bet',
  line: 'none',
  period: 'any',
  outcomes: SIDES,
  grade: gradeDrawNoBet,
  explain: describeSideOrRefund,
  main: true,
  section: 'result',
};

export const MONEYLINE: FamilyDescriptor = {
  key: 'moneyline',
  doc: 'the winner of a two-way game, overtime and deciders included',
  name: 'Winner',
  line: 'none',
  period: 'any',
  outcomes: SIDES,
  grade: gradeMoneyline,
  explain: describeWinner,
  main: true,
  section: 'result',
};

export const TO_QUALIFY: FamilyDescriptor = {
  key: 'to_qualify',
  doc: 'who goes through a knockout tie',
  name: 'To Qualify',
  line: 'none',
  period: 'none',
  outcomes: SIDES,
  grade: gradeToQualify,
  explain: describeWinner,
  main: false,
  section: 'result',
};

export const HT_FT: FamilyDescriptor = {
  key: 'ht_ft',
  doc: 'the half-time and the full-time result',
  name: 'Half Time/Full Time',
  line: 'none',
  period: 'none',
  outcomes: fixed(...['home', 'draw', 'away'].flatMap((ht) => ['home', 'draw', 'away'].map((ft) => `${ht}/${ft}`))),
  grade: gradeHtFt,
  explain: describeHtFt,
  main: false,
  section: 'result',
};

export const WINNING_MARGIN: FamilyDescriptor = {
  key: 'winning_margin',
  doc: 'the winner and the margin band',
  name: 'Winning Margin',
  line: 'none',
  period: 'any',
  outcomes: pattern(/^(draw|(home|away)_\d+\+?)$/, '`home_1`, `home_2`, `home_3+`, `draw`, `away_1`…'),
  grade: gradeWinningMargin,
  explain: describeWinningMargin,
  main: false,
  section: 'result',
};

export const HANDICAP_3WAY: FamilyDescriptor = {
  key: 'handicap_3way',
  doc: 'the result after a whole-goal handicap from the home side; a tie is the draw',
  name: '3-Way Handicap',
  line: 'whole',
  period: 'any',
  outcomes: THREE_WAY,
  grade: gradeHandicap3Way,
  explain: describeThreeWay,
  main: false,
  section: 'result',
};

export const SET_BETTING: FamilyDescriptor = {
  key: 'set_betting',
  doc: 'the score in sets',
  name: 'Set Betting',
  line: 'none',
  period: 'none',
  outcomes: pattern(/^\d+-\d+$/, '`H-A` (sets won)'),
  grade: gradeSetBetting,
  explain: describeExactScore,
  main: false,
  section: 'result',
};

export const CORRECT_SCORE: FamilyDescriptor = {
  key: 'correct_score',
  doc: 'the exact score (goals, or units won)',
  name: 'Correct Score',
  line: 'none',
  period: 'any',
  outcomes: pattern(/^(\d+-\d+|other)$/, '`H-A`, `other`'),
  grade: gradeCorrectScore,
  explain: describeExactScore,
  main: false,
  section: 'result',
};

export const EXACT_TOTAL: FamilyDescriptor = {
  key: 'exact_total',
  doc: 'the exact number of goals, the last band open-ended',
  name: 'Exact Goals',
  line: 'none',
  period: 'any',
  outcomes: pattern(/^\d+\+?$/, '`0`, `1`, …, `N+`'),
  grade: gradeExactTotal,
  explain: describeExactTotal,
  main: false,
  section: 'result',
};

/** The winner of one unit (set, game, frame, map): a period market only. */
function unitWinner(key: string, unit: string): FamilyDescriptor {
  return {
    key,
    doc: `the winner of one ${unit}`,
    name: 'Winner',
    line: 'none',
    period: 'required',
    outcomes: SIDES,
    grade: gradeUnitWinner,
    explain: describeSideOrRefund,
    main: false,
    section: 'result',
  };
}

export const SET_WINNER = unitWinner('set_winner', 'set');
export const GAME_WINNER = unitWinner('game_winner', 'game');
export const FRAME_WINNER = unitWinner('frame_winner', 'frame');
export const MAP_WINNER = unitWinner('map_winner', 'map or game');

/** In docs/markets.md order. */
export const RESULT_FAMILIES: readonly FamilyDescriptor[] = [
  ONE_X_TWO,
  DOUBLE_CHANCE,
  DRAW_NO_BET,
  MONEYLINE,
  TO_QUALIFY,
  HT_FT,
  WINNING_MARGIN,
  HANDICAP_3WAY,
  SET_BETTING,
  CORRECT_SCORE,
  EXACT_TOTAL,
  SET_WINNER,
  GAME_WINNER,
  FRAME_WINNER,
  MAP_WINNER,
];
