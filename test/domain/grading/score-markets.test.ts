// Vectors of the score markets: correct score, exact total, BTTS, odd/even, HT/FT, winning margin, set betting, rounds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeWith, line, OVER_UNDER, result, type ResultSpec } from './helpers.js';

type Case = readonly [name: string, sport: string, key: string, result: ResultSpec, expected: string];

function run(title: string, codes: readonly string[], cases: readonly Case[]): void {
  describe(title, () => {
    for (const [name, sport, key, spec, expected] of cases) {
      test(`${name}: ${key} is ${expected}`, () => {
        assert.equal(line(sport, key, codes, result(spec)), expected);
      });
    }
  });
}

const CS_CODES = ['0-0', '1-0', '0-1', '1-1', '2-1', '1-2', '2-2', 'other'];
run('correct score', CS_CODES, [
  ['goalless', 'soccer', 'correct_score', { rows: '1H:0-0 2H:0-0' }, 'W L L L L L L L'],
  ['2-1', 'soccer', 'correct_score', { rows: '1H:1-0 2H:1-1' }, 'L L L L W L L L'],
  ['1-2', 'soccer', 'correct_score', { rows: '1H:1-0 2H:0-2' }, 'L L L L L W L L'],
  ['a score not listed: other wins', 'soccer', 'correct_score', { rows: '1H:3-0 2H:0-0' }, 'L L L L L L L W'],
  ['6-5 is other', 'soccer', 'correct_score', { rows: '1H:3-3 2H:3-2' }, 'L L L L L L L W'],
  ['extra time ignored', 'soccer', 'correct_score', { rows: '1H:1-1 2H:0-0 ET:1-0' }, 'L L L W L L L L'],
  ['first half', 'soccer', 'correct_score@1h', { rows: '1H:1-0 2H:3-3' }, 'L W L L L L L L'],
  ['second half', 'soccer', 'correct_score@2h', { rows: '1H:1-0 2H:2-2' }, 'L L L L L L W L'],
  ['ice hockey regulation', 'ice_hockey', 'correct_score', { rows: 'P1:1-0 P2:0-0 P3:0-1 OT:1-0' }, 'L L L W L L L L'],
]);

test('correct score without `other`: a score not listed loses every outcome', () => {
  assert.equal(line('soccer', 'correct_score', ['0-0', '1-0'], result({ rows: '1H:2-0 2H:0-0' })), 'L L');
});

run(
  'correct score on units',
  ['2-0', '2-1', '1-2', '0-2'],
  [
    ['cs2 2-1', 'cs2', 'correct_score', { rows: 'M1:13-9 M2:9-13 M3:13-11' }, 'L W L L'],
    ['dota2 0-2', 'dota2', 'correct_score', { rows: 'G1:0-1 G2:0-1' }, 'L L L W'],
    ['table tennis 2-0 in games', 'table_tennis', 'correct_score', { rows: 'G1:11-1 G2:11-1' }, 'W L L L'],
    ['snooker 1-2 in frames', 'snooker', 'correct_score', { rows: 'F1:60-1 F2:1-60 F3:1-60' }, 'L L W L'],
  ],
);

run(
  'exact total',
  ['0', '1', '2', '3', '4', '5', '6+'],
  [
    ['none', 'soccer', 'exact_total', { rows: '1H:0-0 2H:0-0' }, 'W L L L L L L'],
    ['three', 'soccer', 'exact_total', { rows: '1H:1-0 2H:1-1' }, 'L L L W L L L'],
    ['five', 'soccer', 'exact_total', { rows: '1H:3-0 2H:1-1' }, 'L L L L L W L'],
    ['six is 6+', 'soccer', 'exact_total', { rows: '1H:3-0 2H:2-1' }, 'L L L L L L W'],
    ['nine is 6+', 'soccer', 'exact_total', { rows: '1H:3-3 2H:2-1' }, 'L L L L L L W'],
    ['extra time ignored', 'soccer', 'exact_total', { rows: '1H:0-0 2H:1-0 ET:1-1' }, 'L W L L L L L'],
  ],
);
run(
  'exact total of a half',
  ['0', '1', '2', '3+'],
  [
    ['first half two', 'soccer', 'exact_total@1h', { rows: '1H:1-1 2H:3-0' }, 'L L W L'],
    ['second half three is 3+', 'soccer', 'exact_total@2h', { rows: '1H:1-1 2H:3-0' }, 'L L L W'],
  ],
);

run(
  'both teams to score',
  ['yes', 'no'],
  [
    ['both scored', 'soccer', 'btts', { rows: '1H:1-0 2H:0-1' }, 'W L'],
    ['one side only', 'soccer', 'btts', { rows: '1H:3-0 2H:0-0' }, 'L W'],
    ['goalless', 'soccer', 'btts', { rows: '1H:0-0 2H:0-0' }, 'L W'],
    ['an extra-time goal does not count', 'soccer', 'btts', { rows: '1H:1-0 2H:0-0 ET:0-1' }, 'L W'],
    ['first half', 'soccer', 'btts@1h', { rows: '1H:1-1 2H:0-0' }, 'W L'],
    ['second half', 'soccer', 'btts@2h', { rows: '1H:1-1 2H:2-0' }, 'L W'],
    ['ice hockey regulation', 'ice_hockey', 'btts', { rows: 'P1:1-0 P2:0-0 P3:0-0 OT:0-1' }, 'L W'],
  ],
);

run(
  'odd/even',
  ['odd', 'even'],
  [
    ['zero is even', 'soccer', 'odd_even', { rows: '1H:0-0 2H:0-0' }, 'L W'],
    ['one is odd', 'soccer', 'odd_even', { rows: '1H:0-0 2H:0-1' }, 'W L'],
    ['four is even', 'soccer', 'odd_even', { rows: '1H:2-0 2H:1-1' }, 'L W'],
    ['first half', 'soccer', 'odd_even@1h', { rows: '1H:2-1 2H:1-1' }, 'W L'],
    ['second half', 'soccer', 'odd_even@2h', { rows: '1H:2-1 2H:1-1' }, 'L W'],
    [
      'basketball with overtime',
      'basketball',
      'odd_even',
      { rows: 'Q1:20-20 Q2:20-20 Q3:20-20 Q4:20-20 OT1:3-0' },
      'W L',
    ],
    ['ice hockey regulation', 'ice_hockey', 'odd_even', { rows: 'P1:1-1 P2:0-0 P3:0-0 OT:1-0' }, 'L W'],
    ['handball', 'handball', 'odd_even', { rows: '1H:15-14 2H:15-14' }, 'L W'],
    ['baseball', 'baseball', 'odd_even', { rows: 'I1:1-0 I2:0-0' }, 'W L'],
  ],
);

const HT_FT = [
  'home/home',
  'home/draw',
  'home/away',
  'draw/home',
  'draw/draw',
  'draw/away',
  'away/home',
  'away/draw',
  'away/away',
];
run('half-time/full-time', HT_FT, [
  ['home/home', 'soccer', 'ht_ft', { rows: '1H:1-0 2H:0-0' }, 'W L L L L L L L L'],
  ['home/draw', 'soccer', 'ht_ft', { rows: '1H:1-0 2H:0-1' }, 'L W L L L L L L L'],
  ['home/away', 'soccer', 'ht_ft', { rows: '1H:1-0 2H:0-2' }, 'L L W L L L L L L'],
  ['draw/home', 'soccer', 'ht_ft', { rows: '1H:0-0 2H:1-0' }, 'L L L W L L L L L'],
  ['draw/draw', 'soccer', 'ht_ft', { rows: '1H:1-1 2H:0-0' }, 'L L L L W L L L L'],
  ['draw/away', 'soccer', 'ht_ft', { rows: '1H:1-1 2H:0-1' }, 'L L L L L W L L L'],
  ['away/home', 'soccer', 'ht_ft', { rows: '1H:0-1 2H:3-0' }, 'L L L L L L W L L'],
  ['away/draw', 'soccer', 'ht_ft', { rows: '1H:0-1 2H:1-0' }, 'L L L L L L L W L'],
  ['away/away', 'soccer', 'ht_ft', { rows: '1H:0-2 2H:1-0' }, 'L L L L L L L L W'],
  ['extra time ignored: draw/draw', 'soccer', 'ht_ft', { rows: '1H:0-0 2H:0-0 ET:1-0' }, 'L L L L W L L L L'],
  [
    'basketball full time is regulation',
    'basketball',
    'ht_ft',
    { rows: 'Q1:20-10 Q2:20-10 Q3:10-20 Q4:10-20 OT1:10-5' },
    'L W L L L L L L L',
  ],
]);

const MARGINS = ['home_1', 'home_2', 'home_3+', 'draw', 'away_1', 'away_2', 'away_3+'];
run('winning margin', MARGINS, [
  ['home by 1', 'soccer', 'winning_margin', { rows: '1H:1-0 2H:1-1' }, 'W L L L L L L'],
  ['home by 2', 'soccer', 'winning_margin', { rows: '1H:2-0 2H:0-0' }, 'L W L L L L L'],
  ['home by 3', 'soccer', 'winning_margin', { rows: '1H:2-0 2H:1-0' }, 'L L W L L L L'],
  ['home by 5', 'soccer', 'winning_margin', { rows: '1H:3-0 2H:2-0' }, 'L L W L L L L'],
  ['score draw', 'soccer', 'winning_margin', { rows: '1H:1-0 2H:1-2' }, 'L L L W L L L'],
  ['goalless draw', 'soccer', 'winning_margin', { rows: '1H:0-0 2H:0-0' }, 'L L L W L L L'],
  ['away by 1', 'soccer', 'winning_margin', { rows: '1H:0-1 2H:0-0' }, 'L L L L W L L'],
  ['away by 2', 'soccer', 'winning_margin', { rows: '1H:0-1 2H:1-2' }, 'L L L L L W L'],
  ['away by 4', 'soccer', 'winning_margin', { rows: '1H:0-1 2H:0-3' }, 'L L L L L L W'],
  ['extra time ignored', 'soccer', 'winning_margin', { rows: '1H:0-0 2H:0-0 ET:2-0' }, 'L L L W L L L'],
]);

run(
  'set betting, best of 3',
  ['2-0', '2-1', '1-2', '0-2'],
  [
    ['2-0', 'tennis', 'set_betting', { rows: 'S1:6-4 S2:7-6' }, 'W L L L'],
    ['2-1', 'tennis', 'set_betting', { rows: 'S1:6-4 S2:6-7 S3:6-0' }, 'L W L L'],
    ['1-2', 'tennis', 'set_betting', { rows: 'S1:6-4 S2:6-7 S3:0-6' }, 'L L W L'],
    ['0-2', 'tennis', 'set_betting', { rows: 'S1:4-6 S2:6-7' }, 'L L L W'],
    ['darts 2-1', 'darts', 'set_betting', { rows: 'S1:2-0 S2:1-2 S3:2-1' }, 'L W L L'],
  ],
);
run(
  'set betting, best of 5',
  ['3-0', '3-1', '3-2', '2-3', '1-3', '0-3'],
  [
    ['3-1', 'tennis', 'set_betting', { rows: 'S1:6-4 S2:6-7 S3:6-0 S4:6-2' }, 'L W L L L L'],
    ['2-3', 'tennis', 'set_betting', { rows: 'S1:6-4 S2:6-7 S3:6-0 S4:2-6 S5:5-7' }, 'L L L W L L'],
    ['volleyball 0-3', 'volleyball', 'set_betting', { rows: 'S1:20-25 S2:23-25 S3:24-26' }, 'L L L L L W'],
    [
      'volleyball 3-2',
      'volleyball',
      'set_betting',
      { rows: 'S1:25-20 S2:23-25 S3:24-26 S4:25-20 S5:15-13' },
      'L L W L L L',
    ],
    ['darts 1-3', 'darts', 'set_betting', { rows: 'S1:3-1 S2:1-3 S3:2-3 S4:0-3' }, 'L L L L W L'],
  ],
);

run('fight rounds', OVER_UNDER, [
  [
    'stopped in round 1: under 1.5',
    'mma',
    'fight_rounds:1.5',
    { rows: 'R1:0-0', score: [1, 0], winner: 'home' },
    'L W',
  ],
  [
    'round 2 started: over 1.5',
    'mma',
    'fight_rounds:1.5',
    { rows: 'R1:10-9 R2:0-0', score: [0, 1], winner: 'away' },
    'W L',
  ],
  [
    'full distance of 3: over 2.5',
    'mma',
    'fight_rounds:2.5',
    { rows: 'R1:10-9 R2:10-9 R3:9-10', score: [1, 0], winner: 'home' },
    'W L',
  ],
  [
    'boxing stopped in round 4: under 4.5',
    'boxing',
    'fight_rounds:4.5',
    { rows: 'R1:10-9 R2:10-9 R3:10-9 R4:0-0', score: [1, 0], winner: 'home' },
    'L W',
  ],
  [
    'boxing stopped in round 7: over 6.5',
    'boxing',
    'fight_rounds:6.5',
    { rows: 'R1:10-9 R2:10-9 R3:10-9 R4:10-9 R5:10-9 R6:10-9 R7:0-0', score: [0, 1], winner: 'away' },
    'W L',
  ],
  [
    'whole line: exactly 3 rounds pushes',
    'boxing',
    'fight_rounds:3',
    { rows: 'R1:10-9 R2:10-9 R3:0-0', score: [1, 0], winner: 'home' },
    'P P',
  ],
]);

test('fight rounds without round rows cannot be graded', () => {
  const g = gradeWith('mma', 'fight_rounds:1.5', OVER_UNDER, result({ score: [1, 0], winner: 'home' }));
  assert.equal(g.status, 'ungradeable');
});
