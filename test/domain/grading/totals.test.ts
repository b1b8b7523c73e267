// Totals and team totals vectors: every total 0..6 against lines 0..4.5 (quarter lines split), and each sport's count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { line, OVER_UNDER, result } from './helpers.js';

/** The `over` grade for totals 0, 1, …, 6, from the published rule; `under` is its opposite. */
const OVER_BY_LINE: ReadonlyArray<readonly [number, string]> = [
  [0, 'P W W W W W W'],
  [0.25, 'HL W W W W W W'],
  [0.5, 'L W W W W W W'],
  [0.75, 'L HW W W W W W'],
  [1, 'L P W W W W W'],
  [1.25, 'L HL W W W W W'],
  [1.5, 'L L W W W W W'],
  [1.75, 'L L HW W W W W'],
  [2, 'L L P W W W W'],
  [2.25, 'L L HL W W W W'],
  [2.5, 'L L L W W W W'],
  [2.75, 'L L L HW W W W'],
  [3, 'L L L P W W W'],
  [3.25, 'L L L HL W W W'],
  [3.5, 'L L L L W W W'],
  [3.75, 'L L L L HW W W'],
  [4, 'L L L L P W W'],
  [4.25, 'L L L L HL W W'],
  [4.5, 'L L L L L W W'],
];

const OPPOSITE: Record<string, string> = { W: 'L', L: 'W', P: 'P', HW: 'HL', HL: 'HW' };

describe('totals: every total 0..6 and line 0..4.5', () => {
  for (const [l, row] of OVER_BY_LINE) {
    row.split(' ').forEach((over, total) => {
      const under = OPPOSITE[over]!;
      test(`totals:${l} with ${total} goals: over ${over}, under ${under}`, () => {
        // Goals split over both halves and sides, so only the total matters.
        const h1 = Math.floor(total / 2);
        const r = result({ rows: `1H:${h1}-0 2H:0-${total - h1}` });
        assert.equal(line('soccer', `totals:${l}`, OVER_UNDER, r), `${over} ${under}`);
      });
    });
  }
});

describe('totals: what each sport counts', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string, string]> = [
    ['soccer ignores extra time and penalties', 'soccer', 'totals:2.5', '1H:1-0 2H:0-1 ET:1-0 PEN:5-4', 'L W'],
    ['soccer first half', 'soccer', 'totals@1h:0.75', '1H:1-0 2H:2-2', 'HW HL'],
    ['soccer second half', 'soccer', 'totals@2h:1.25', '1H:3-0 2H:1-0', 'HL HW'],
    ['ice hockey full game is regulation', 'ice_hockey', 'totals:5.5', 'P1:2-1 P2:1-1 P3:0-0 OT:1-0', 'L W'],
    ['ice hockey shoot-out goals never count', 'ice_hockey', 'totals:4', 'P1:1-1 P2:1-1 P3:0-0 OT:0-0 SO:3-2', 'P P'],
    ['ice hockey one period', 'ice_hockey', 'totals@p2:1.5', 'P1:0-0 P2:1-1 P3:0-0', 'W L'],
    [
      'basketball includes overtime',
      'basketball',
      'totals:200.5',
      'Q1:25-25 Q2:25-25 Q3:25-25 Q4:25-25 OT1:1-0',
      'W L',
    ],
    [
      'basketball second half excludes overtime',
      'basketball',
      'totals@2h:99.5',
      'Q1:25-25 Q2:25-25 Q3:25-25 Q4:25-24 OT1:10-0',
      'L W',
    ],
    ['basketball quarter', 'basketball', 'totals@q4:44.5', 'Q1:25-25 Q2:25-25 Q3:25-25 Q4:20-24', 'L W'],
    [
      'american football includes overtime',
      'american_football',
      'totals:39.5',
      'Q1:7-7 Q2:7-7 Q3:0-0 Q4:3-3 OT:0-6',
      'W L',
    ],
    [
      'baseball extra innings',
      'baseball',
      'totals:8.5',
      'I1:1-1 I2:0-0 I3:1-1 I4:0-0 I5:0-0 I6:0-0 I7:0-0 I8:0-0 I9:2-2 I10:1-0',
      'W L',
    ],
    ['baseball first inning', 'baseball', 'totals@i1:0.5', 'I1:0-0 I2:3-3 I3:0-0', 'L W'],
    ['handball first half', 'handball', 'totals@1h:28.5', '1H:15-14 2H:10-10', 'W L'],
    ['rugby', 'rugby', 'totals:45.5', '1H:10-13 2H:12-10', 'L W'],
    ['cricket runs of both sides', 'cricket', 'totals:300.5', 'INN1:160-0 INN2:0-141', 'W L'],
    ['tennis games, a tie-break counting one', 'tennis', 'totals:22.5', 'S1:7-6 S2:6-3', 'L W'],
    ['tennis games over three sets', 'tennis', 'totals:22.5', 'S1:7-6 S2:4-6 S3:6-0', 'W L'],
    ['volleyball sets', 'volleyball', 'totals:3.5', 'S1:25-20 S2:25-20 S3:25-20', 'L W'],
    ['volleyball points of set 1', 'volleyball', 'totals@s1:45.5', 'S1:25-22 S2:25-20 S3:25-20', 'W L'],
    ['table tennis games', 'table_tennis', 'totals:4.5', 'G1:11-9 G2:9-11 G3:11-5 G4:11-7', 'L W'],
    ['table tennis points of game 1', 'table_tennis', 'totals@g1:19.5', 'G1:12-10 G2:9-11 G3:11-5 G4:11-7', 'W L'],
    ['darts sets', 'darts', 'totals:2.5', 'S1:3-1 S2:3-2', 'L W'],
    ['snooker frames', 'snooker', 'totals:4.5', 'F1:80-0 F2:0-70 F3:66-20 F4:70-1 F5:3-60', 'W L'],
    ['cs2 maps', 'cs2', 'totals:2.5', 'M1:13-9 M2:11-13 M3:13-4', 'W L'],
    ['cs2 rounds of map 2 with overtime', 'cs2', 'totals@m2:21.5', 'M1:13-9 M2:16-14', 'W L'],
    ['cs2 map 3 never played refunds', 'cs2', 'totals@m3:21.5', 'M1:13-9 M2:13-5', 'P P'],
    ['dota2 games', 'dota2', 'totals:2.5', 'G1:1-0 G2:1-0', 'L W'],
    ['soccer second half never played refunds', 'soccer', 'totals@2h:0.5', '1H:0-0', 'P P'],
  ];
  for (const [name, sport, key, rows, expected] of cases) {
    test(`${name}: ${key} with ${rows} is ${expected}`, () => {
      assert.equal(line(sport, key, OVER_UNDER, result({ rows })), expected);
    });
  }
});

describe('team totals', () => {
  const cases: ReadonlyArray<readonly [string, string, string, string, string]> = [
    ['home side only', 'soccer', 'team_totals_home:1.5', '1H:1-3 2H:1-0', 'W L'],
    ['away side only', 'soccer', 'team_totals_away:1.5', '1H:1-3 2H:1-0', 'W L'],
    ['whole line push', 'soccer', 'team_totals_away:1', '1H:0-1 2H:5-0', 'P P'],
    ['quarter line half lost', 'soccer', 'team_totals_home:1.25', '1H:1-0 2H:0-0', 'HL HW'],
    ['quarter line half won', 'soccer', 'team_totals_home:0.75', '1H:1-0 2H:0-0', 'HW HL'],
    ['first half', 'soccer', 'team_totals_home@1h:0.5', '1H:0-2 2H:3-0', 'L W'],
    ['extra time excluded', 'soccer', 'team_totals_home:1.5', '1H:1-0 2H:0-1 ET:2-0', 'L W'],
    ['ice hockey regulation', 'ice_hockey', 'team_totals_home:2.5', 'P1:1-0 P2:1-0 P3:0-2 OT:1-0', 'L W'],
    [
      'basketball with overtime',
      'basketball',
      'team_totals_away:99.5',
      'Q1:25-25 Q2:25-25 Q3:25-25 Q4:24-24 OT1:5-1',
      'W L',
    ],
    [
      'baseball',
      'baseball',
      'team_totals_away:3.5',
      'I1:0-4 I2:0-0 I3:0-0 I4:0-0 I5:0-0 I6:0-0 I7:0-0 I8:0-0 I9:0-0',
      'W L',
    ],
    ['cricket a side’s runs', 'cricket', 'team_totals_home:150.5', 'INN1:151-0 INN2:0-152', 'W L'],
  ];
  for (const [name, sport, key, rows, expected] of cases) {
    test(`${name}: ${key} with ${rows} is ${expected}`, () => {
      assert.equal(line(sport, key, OVER_UNDER, result({ rows })), expected);
    });
  }
});

describe('set totals', () => {
  test('total_sets counts sets in tennis, not games', () => {
    assert.equal(line('tennis', 'total_sets:2.5', OVER_UNDER, result({ rows: 'S1:6-4 S2:3-6 S3:7-5' })), 'W L');
    assert.equal(line('tennis', 'total_sets:2.5', OVER_UNDER, result({ rows: 'S1:6-4 S2:7-5' })), 'L W');
  });
  test('set_handicap counts sets in tennis', () => {
    assert.equal(line('tennis', 'set_handicap:-1.5', ['home', 'away'], result({ rows: 'S1:6-4 S2:7-5' })), 'W L');
    assert.equal(
      line('tennis', 'set_handicap:-1.5', ['home', 'away'], result({ rows: 'S1:6-0 S2:0-6 S3:6-0' })),
      'L W',
    );
    assert.equal(line('tennis', 'set_handicap:1.5', ['home', 'away'], result({ rows: 'S1:0-6 S2:6-0 S3:0-6' })), 'W L');
  });
});
