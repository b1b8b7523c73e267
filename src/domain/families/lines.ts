// Descriptors of the line markets (handicaps, totals) and the yes/no counts (both teams to score, odd/even).
import {
  describeBtts,
  describeHandicap,
  describeOddEven,
  describeStat,
  describeTeamTotalAway,
  describeTeamTotalHome,
  describeTotals,
} from '../grading/describe.js';
import { gradeAsianHandicap, gradeSetHandicap } from '../grading/asian-handicap.js';
import { gradeBtts } from '../grading/btts.js';
import { gradeFightRounds } from '../grading/fight-rounds.js';
import { gradeOddEven } from '../grading/odd-even.js';
import {
  gradePuckLineOt,
  gradeTeamTotalsAwayOt,
  gradeTeamTotalsHomeOt,
  gradeTotalsOt,
} from '../grading/overtime-lines.js';
import { gradeTeamTotalsAway, gradeTeamTotalsHome } from '../grading/team-totals.js';
import { gradeTotalSets, gradeTotals } from '../grading/totals.js';
import { fixed, type FamilyDescriptor } from './types.js';

const SIDES = fixed('home', 'away');
const OVER_UNDER = fixed('over', 'under');

export const ASIAN_HANDICAP: FamilyDescriptor = {
  key: 'asian_handicap',
  doc: 'the margin after a handicap from the home side (half, whole and quarter lines)',
  name: 'Asian Handicap',
  line: 'quarters',
  period: 'any',
  outcomes: SIDES,
  grade: gradeAsianHandicap,
  explain: describeHandicap,
  main: true,
  section: 'lines',
};

export const TOTALS: FamilyDescriptor = {
  key: 'totals',
  doc: 'the total (goals, points, runs, games…) over or under the line',
  name: 'Total',
  line: 'quarters',
  period: 'any',
  outcomes: OVER_UNDER,
  grade: gradeTotals,
  explain: describeTotals,
  main: true,
  section: 'lines',
};

export const TEAM_TOTALS_HOME: FamilyDescriptor = {
  key: 'team_totals_home',
  doc: "the home side's total over or under the line",
  name: 'Total',
  line: 'quarters',
  period: 'any',
  outcomes: OVER_UNDER,
  grade: gradeTeamTotalsHome,
  explain: describeTeamTotalHome,
  main: false,
  section: 'lines',
};

export const TEAM_TOTALS_AWAY: FamilyDescriptor = {
  key: 'team_totals_away',
  doc: "the away side's total over or under the line",
  name: 'Total',
  line: 'quarters',
  period: 'any',
  outcomes: OVER_UNDER,
  grade: gradeTeamTotalsAway,
  explain: describeTeamTotalAway,
  main: false,
  section: 'lines',
};

export const BTTS: FamilyDescriptor = {
  key: 'btts',
  doc: 'both teams score',
  name: 'Both Teams To Score',
  line: 'none',
  period: 'any',
  outcomes: fixed('yes', 'no'),
  grade: gradeBtts,
  explain: describeBtts,
  main: true,
  section: 'lines',
};

export const ODD_EVEN: FamilyDescriptor = {
  key: 'odd_even',
  doc: 'the total is odd or even',
  name: 'Odd/Even',
  line: 'none',
  period: 'any',
  outcomes: fixed('odd', 'even'),
  grade: gradeOddEven,
  explain: describeOddEven,
  main: false,
  section: 'lines',
};

export const FIGHT_ROUNDS: FamilyDescriptor = {
  key: 'fight_rounds',
  doc: 'rounds started in a fight, over or under the line',
  name: 'Rounds Fought',
  line: 'quarters',
  period: 'none',
  outcomes: OVER_UNDER,
  grade: gradeFightRounds,
  explain: describeStat,
  main: false,
  section: 'lines',
};

/** Ice hockey lines as North American books settle them: overtime counts, the shoot-out one goal for its winner. */
export const PUCK_LINE_OT: FamilyDescriptor = {
  key: 'puck_line_ot',
  doc: 'ice hockey: the margin after a handicap from the home side, overtime and the shoot-out (one goal) included',
  name: 'Puck Line incl. OT/SO',
  line: 'quarters',
  period: 'none',
  outcomes: SIDES,
  grade: gradePuckLineOt,
  explain: describeHandicap,
  main: true,
  section: 'lines',
};

export const TOTALS_OT: FamilyDescriptor = {
  key: 'totals_ot',
  doc: 'ice hockey: the goals over or under the line, overtime and the shoot-out (one goal) included',
  name: 'Total Goals incl. OT/SO',
  line: 'quarters',
  period: 'none',
  outcomes: OVER_UNDER,
  grade: gradeTotalsOt,
  explain: describeTotals,
  main: true,
  section: 'lines',
};

export const TEAM_TOTALS_HOME_OT: FamilyDescriptor = {
  key: 'team_totals_home_ot',
  doc: "ice hockey: the home side's goals over or under the line, overtime and the shoot-out (one goal) included",
  name: 'Total incl. OT/SO',
  line: 'quarters',
  period: 'none',
  outcomes: OVER_UNDER,
  grade: gradeTeamTotalsHomeOt,
  explain: describeTeamTotalHome,
  main: false,
  section: 'lines',
};

export const TEAM_TOTALS_AWAY_OT: FamilyDescriptor = {
  key: 'team_totals_away_ot',
  doc: "ice hockey: the away side's goals over or under the line, overtime and the shoot-out (one goal) included",
  name: 'Total incl. OT/SO',
  line: 'quarters',
  period: 'none',
  outcomes: OVER_UNDER,
  grade: gradeTeamTotalsAwayOt,
  explain: describeTeamTotalAway,
  main: false,
  section: 'lines',
};

export const SET_HANDICAP: FamilyDescriptor = {
  key: 'set_handicap',
  doc: 'the sets won after a handicap from the home side',
  name: 'Set Handicap',
  line: 'quarters',
  period: 'none',
  outcomes: SIDES,
  grade: gradeSetHandicap,
  explain: describeHandicap,
  main: false,
  section: 'accepted',
};

export const TOTAL_SETS: FamilyDescriptor = {
  key: 'total_sets',
  doc: 'the sets played, over or under the line',
  name: 'Total Sets',
  line: 'quarters',
  period: 'none',
  outcomes: OVER_UNDER,
  grade: gradeTotalSets,
  explain: describeTotals,
  main: false,
  section: 'accepted',
};

/** In docs/markets.md order. */
export const LINE_FAMILIES: readonly FamilyDescriptor[] = [
  ASIAN_HANDICAP,
  TOTALS,
  TEAM_TOTALS_HOME,
  TEAM_TOTALS_AWAY,
  BTTS,
  ODD_EVEN,
  FIGHT_ROUNDS,
  PUCK_LINE_OT,
  TOTALS_OT,
  TEAM_TOTALS_HOME_OT,
  TEAM_TOTALS_AWAY_OT,
  SET_HANDICAP,
  TOTAL_SETS,
];
