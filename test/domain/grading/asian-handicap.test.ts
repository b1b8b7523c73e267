// Asian handicap vectors: every goal difference from -4 to +4 against every line from -2.75 to +2.75, periods and sports.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { line, result, TWO_WAY } from './helpers.js';

/**
 * The home side's grade for goal differences -4, -3, …, +4 (home minus away), written out from the
 * published rule: x = difference + line; a quarter line is half on each neighbour.
 */
const HOME_BY_LINE: ReadonlyArray<readonly [number, string]> = [
  [-2.75, 'L L L L L L L HW W'],
  [-2.5, 'L L L L L L L W W'],
  [-2.25, 'L L L L L L HL W W'],
  [-2, 'L L L L L L P W W'],
  [-1.75, 'L L L L L L HW W W'],
  [-1.5, 'L L L L L L W W W'],
  [-1.25, 'L L L L L HL W W W'],
  [-1, 'L L L L L P W W W'],
  [-0.75, 'L L L L L HW W W W'],
  [-0.5, 'L L L L L W W W W'],
  [-0.25, 'L L L L HL W W W W'],
  [0, 'L L L L P W W W W'],
  [0.25, 'L L L L HW W W W W'],
  [0.5, 'L L L L W W W W W'],
  [0.75, 'L L L HL W W W W W'],
  [1, 'L L L P W W W W W'],
  [1.25, 'L L L HW W W W W W'],
  [1.5, 'L L L W W W W W W'],
  [1.75, 'L L HL W W W W W W'],
  [2, 'L L P W W W W W W'],
  [2.25, 'L L HW W W W W W W'],
  [2.5, 'L L W W W W W W W'],
  [2.75, 'L HL W W W W W W W'],
];

const OPPOSITE: Record<string, string> = { W: 'L', L: 'W', P: 'P', HW: 'HL', HL: 'HW' };

/** A soccer result with that goal difference (scored in the second half, so the 2H row carries it). */
function soccerWithDifference(d: number) {
  const home = Math.max(d, 0) + 1;
  const away = Math.max(-d, 0) + 1;
  return result({ rows: `1H:1-1 2H:${home - 1}-${away - 1}` });
}

describe('asian handicap: every goal difference -4..+4 and line -2.75..+2.75', () => {
  for (const [l, row] of HOME_BY_LINE) {
    const expected = row.split(' ');
    for (let i = 0; i < 9; i++) {
      const d = i - 4;
      const home = expected[i]!;
      const away = OPPOSITE[home]!;
      test(`line ${l} with goal difference ${d}: home ${home}, away ${away}`, () => {
        assert.equal(line('soccer', `asian_handicap:${l}`, TWO_WAY, soccerWithDifference(d)), `${home} ${away}`);
      });
    }
  }
});

describe('asian handicap: scopes', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string, string]> = [
    // [name, sport, key, rows, expected home away]
    ['soccer extra time never counts', 'soccer', 'asian_handicap:-0.5', '1H:0-0 2H:1-1 ET:1-0 PEN:4-2', 'L W'],
    ['soccer first half', 'soccer', 'asian_handicap@1h:-0.25', '1H:0-0 2H:3-0', 'HL HW'],
    ['soccer second half', 'soccer', 'asian_handicap@2h:-1', '1H:0-2 2H:2-1', 'P P'],
    [
      'ice hockey puck line is regulation only',
      'ice_hockey',
      'asian_handicap:-1.5',
      'P1:1-0 P2:0-1 P3:1-1 OT:1-0',
      'L W',
    ],
    ['ice hockey whole line pushes', 'ice_hockey', 'asian_handicap:1', 'P1:0-1 P2:0-0 P3:0-0', 'P P'],
    [
      'basketball includes overtime',
      'basketball',
      'asian_handicap:-4.5',
      'Q1:20-20 Q2:20-20 Q3:20-20 Q4:20-20 OT1:12-5',
      'W L',
    ],
    [
      'basketball first half is Q1+Q2',
      'basketball',
      'asian_handicap@1h:-2',
      'Q1:25-20 Q2:20-23 Q3:10-30 Q4:10-30',
      'P P',
    ],
    [
      'basketball second half is Q3+Q4 without overtime',
      'basketball',
      'asian_handicap@2h:0',
      'Q1:20-20 Q2:20-20 Q3:25-20 Q4:20-25 OT1:10-0',
      'P P',
    ],
    ['basketball quarter', 'basketball', 'asian_handicap@q3:-1.5', 'Q1:20-20 Q2:20-20 Q3:25-23 Q4:20-25', 'W L'],
    [
      'american football includes overtime',
      'american_football',
      'asian_handicap:-3',
      'Q1:7-7 Q2:3-3 Q3:0-0 Q4:7-7 OT:6-0',
      'W L',
    ],
    [
      'american football first half',
      'american_football',
      'asian_handicap@1h:1.5',
      'Q1:0-7 Q2:0-0 Q3:21-0 Q4:0-0',
      'L W',
    ],
    [
      'baseball run line with extra innings',
      'baseball',
      'asian_handicap:-1.5',
      'I1:0-0 I2:0-0 I3:0-0 I4:0-0 I5:0-0 I6:0-0 I7:0-0 I8:1-1 I9:0-0 I10:2-0',
      'W L',
    ],
    ['handball regulation', 'handball', 'asian_handicap:3.5', '1H:12-14 2H:13-14', 'W L'],
    ['rugby', 'rugby', 'asian_handicap:-7.5', '1H:10-3 2H:7-7', 'L W'],
    ['tennis counts games over the match', 'tennis', 'asian_handicap:-2.5', 'S1:6-4 S2:4-6 S3:7-6', 'L W'],
    ['tennis game handicap favours the loser on games', 'tennis', 'asian_handicap:3.5', 'S1:6-0 S2:6-7 S3:6-7', 'W L'],
    ['volleyball counts sets', 'volleyball', 'asian_handicap:-1.5', 'S1:25-20 S2:25-20 S3:20-25 S4:25-10', 'W L'],
    ['table tennis counts games', 'table_tennis', 'asian_handicap:1.5', 'G1:11-9 G2:9-11 G3:5-11 G4:7-11', 'L W'],
    ['darts counts sets', 'darts', 'asian_handicap:-1.5', 'S1:3-0 S2:3-1 S3:0-3', 'L W'],
    ['snooker counts frames', 'snooker', 'asian_handicap:-2.5', 'F1:80-0 F2:70-10 F3:60-20 F4:0-90 F5:75-0', 'W L'],
    ['cs2 map handicap counts maps', 'cs2', 'asian_handicap:-1.5', 'M1:13-9 M2:11-13 M3:13-4', 'L W'],
    ['cs2 round handicap on one map', 'cs2', 'asian_handicap@m2:-3.5', 'M1:13-9 M2:13-11 M3:13-4', 'L W'],
    ['cs2 round handicap with overtime rounds', 'cs2', 'asian_handicap@m1:3.5', 'M1:14-16 M2:13-4', 'W L'],
    ['lol game handicap counts games', 'lol', 'asian_handicap:1.5', 'G1:0-1 G2:1-0 G3:0-1', 'W L'],
    ['cs2 round handicap on a map never played', 'cs2', 'asian_handicap@m3:-3.5', 'M1:13-9 M2:13-11', 'P P'],
  ];
  for (const [name, sport, key, rows, expected] of cases) {
    test(`${name}: ${key} with ${rows} is ${expected}`, () => {
      assert.equal(line(sport, key, TWO_WAY, result({ rows })), expected);
    });
  }
});
