// Vectors of the winner markets: 1x2, double chance, draw no bet, moneyline, to qualify, 3-way handicap, unit winners.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { line, result, THREE_WAY, TWO_WAY, type ResultSpec } from './helpers.js';

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

run('1x2', THREE_WAY, [
  ['soccer home win', 'soccer', '1x2', { rows: '1H:1-0 2H:1-1' }, 'W L L'],
  ['soccer draw', 'soccer', '1x2', { rows: '1H:0-0 2H:2-2' }, 'L W L'],
  ['soccer away win', 'soccer', '1x2', { rows: '1H:0-1 2H:0-0' }, 'L L W'],
  ['soccer goalless draw', 'soccer', '1x2', { rows: '1H:0-0 2H:0-0' }, 'L W L'],
  ['soccer extra-time goal does not count', 'soccer', '1x2', { rows: '1H:0-0 2H:1-1 ET:1-0' }, 'L W L'],
  ['soccer penalties do not count', 'soccer', '1x2', { rows: '1H:0-0 2H:0-0 ET:0-0 PEN:5-3', winner: 'home' }, 'L W L'],
  ['soccer first half', 'soccer', '1x2@1h', { rows: '1H:2-1 2H:0-3' }, 'W L L'],
  ['soccer second half', 'soccer', '1x2@2h', { rows: '1H:2-1 2H:0-3' }, 'L L W'],
  ['soccer second half draw', 'soccer', '1x2@2h', { rows: '1H:2-0 2H:1-1' }, 'L W L'],
  ['soccer second half never played', 'soccer', '1x2@2h', { rows: '1H:2-0' }, 'P P P'],
  [
    'ice hockey 3-way is regulation: overtime winner still a draw',
    'ice_hockey',
    '1x2',
    { rows: 'P1:1-0 P2:0-1 P3:1-1 OT:1-0' },
    'L W L',
  ],
  [
    'ice hockey shoot-out winner still a draw',
    'ice_hockey',
    '1x2',
    { rows: 'P1:1-1 P2:0-0 P3:0-0 OT:0-0 SO:2-1', winner: 'home' },
    'L W L',
  ],
  ['ice hockey level after a third-period comeback', 'ice_hockey', '1x2', { rows: 'P1:0-1 P2:0-1 P3:2-0' }, 'L W L'],
  ['ice hockey regulation away win', 'ice_hockey', '1x2', { rows: 'P1:0-1 P2:0-1 P3:1-0' }, 'L L W'],
  ['ice hockey first period', 'ice_hockey', '1x2@p1', { rows: 'P1:2-1 P2:0-1 P3:0-0' }, 'W L L'],
  ['ice hockey third period', 'ice_hockey', '1x2@p3', { rows: 'P1:2-1 P2:0-1 P3:0-0' }, 'L W L'],
  ['basketball first quarter', 'basketball', '1x2@q1', { rows: 'Q1:30-28 Q2:20-20 Q3:20-20 Q4:20-20' }, 'W L L'],
  ['basketball second quarter draw', 'basketball', '1x2@q2', { rows: 'Q1:30-28 Q2:20-20 Q3:20-20 Q4:20-20' }, 'L W L'],
  ['basketball first half is Q1+Q2', 'basketball', '1x2@1h', { rows: 'Q1:30-20 Q2:10-21 Q3:20-20 Q4:20-20' }, 'L L W'],
  [
    'basketball second half leaves overtime out',
    'basketball',
    '1x2@2h',
    { rows: 'Q1:30-20 Q2:10-20 Q3:20-20 Q4:20-20 OT1:9-2' },
    'L W L',
  ],
  [
    'basketball overtime period never played',
    'basketball',
    '1x2@q5',
    { rows: 'Q1:30-20 Q2:10-20 Q3:20-20 Q4:20-20' },
    'P P P',
  ],
  ['american football first half', 'american_football', '1x2@1h', { rows: 'Q1:7-0 Q2:0-7 Q3:3-0 Q4:0-0' }, 'L W L'],
  ['american football second half', 'american_football', '1x2@2h', { rows: 'Q1:7-0 Q2:0-7 Q3:3-0 Q4:0-0' }, 'W L L'],
  ['baseball first inning', 'baseball', '1x2@i1', { rows: 'I1:0-1 I2:2-0' }, 'L L W'],
  ['handball full time', 'handball', '1x2', { rows: '1H:15-15 2H:14-14' }, 'L W L'],
  ['handball first half', 'handball', '1x2@1h', { rows: '1H:15-13 2H:14-17' }, 'W L L'],
  ['rugby full time', 'rugby', '1x2', { rows: '1H:3-10 2H:17-7' }, 'W L L'],
  ['boxing home win', 'boxing', '1x2', { rows: 'R1:10-9 R2:10-9 R3:0-0', score: [1, 0], winner: 'home' }, 'W L L'],
  ['boxing draw', 'boxing', '1x2', { rows: 'R1:10-9 R2:9-10', score: [0, 0] }, 'L W L'],
  ['boxing away win', 'boxing', '1x2', { rows: 'R1:10-9 R2:0-0', score: [0, 1], winner: 'away' }, 'L L W'],
]);

run(
  'double chance',
  ['home_draw', 'home_away', 'draw_away'],
  [
    ['home win', 'soccer', 'double_chance', { rows: '1H:1-0 2H:0-0' }, 'W W L'],
    ['draw', 'soccer', 'double_chance', { rows: '1H:1-1 2H:0-0' }, 'W L W'],
    ['away win', 'soccer', 'double_chance', { rows: '1H:0-0 2H:0-3' }, 'L W W'],
    ['extra time ignored', 'soccer', 'double_chance', { rows: '1H:0-0 2H:0-0 ET:0-1' }, 'W L W'],
    ['first half', 'soccer', 'double_chance@1h', { rows: '1H:0-1 2H:3-0' }, 'L W W'],
    ['second half', 'soccer', 'double_chance@2h', { rows: '1H:0-1 2H:3-0' }, 'W W L'],
    ['ice hockey regulation draw', 'ice_hockey', 'double_chance', { rows: 'P1:1-1 P2:0-0 P3:0-0 OT:0-1' }, 'W L W'],
    ['handball', 'handball', 'double_chance', { rows: '1H:10-12 2H:12-12' }, 'L W W'],
    ['rugby', 'rugby', 'double_chance', { rows: '1H:10-12 2H:12-10' }, 'W L W'],
  ],
);

run('draw no bet', TWO_WAY, [
  ['home win', 'soccer', 'draw_no_bet', { rows: '1H:1-0 2H:0-0' }, 'W L'],
  ['draw refunds', 'soccer', 'draw_no_bet', { rows: '1H:1-0 2H:0-1' }, 'P P'],
  ['away win', 'soccer', 'draw_no_bet', { rows: '1H:0-0 2H:0-1' }, 'L W'],
  ['extra-time winner still a draw', 'soccer', 'draw_no_bet', { rows: '1H:0-0 2H:0-0 ET:2-0' }, 'P P'],
  ['first half', 'soccer', 'draw_no_bet@1h', { rows: '1H:0-0 2H:0-1' }, 'P P'],
  ['second half', 'soccer', 'draw_no_bet@2h', { rows: '1H:0-0 2H:0-1' }, 'L W'],
  ['handball draw', 'handball', 'draw_no_bet', { rows: '1H:14-12 2H:12-14' }, 'P P'],
  ['rugby', 'rugby', 'draw_no_bet', { rows: '1H:14-12 2H:12-10' }, 'W L'],
]);

run('moneyline', TWO_WAY, [
  ['basketball in regulation', 'basketball', 'moneyline', { rows: 'Q1:20-25 Q2:25-20 Q3:20-20 Q4:25-20' }, 'W L'],
  [
    'basketball overtime included',
    'basketball',
    'moneyline',
    { rows: 'Q1:20-20 Q2:20-20 Q3:20-20 Q4:20-20 OT1:10-10 OT2:5-9' },
    'L W',
  ],
  [
    'american football overtime included',
    'american_football',
    'moneyline',
    { rows: 'Q1:7-7 Q2:0-0 Q3:3-3 Q4:7-7 OT:0-3' },
    'L W',
  ],
  [
    'american football tie after overtime refunds',
    'american_football',
    'moneyline',
    { rows: 'Q1:7-7 Q2:0-0 Q3:3-3 Q4:7-7 OT:3-3' },
    'P P',
  ],
  ['ice hockey overtime winner', 'ice_hockey', 'moneyline', { rows: 'P1:1-1 P2:1-1 P3:0-0 OT:1-0' }, 'W L'],
  [
    'ice hockey shoot-out winner decides a level score',
    'ice_hockey',
    'moneyline',
    { rows: 'P1:1-1 P2:1-1 P3:0-0 OT:0-0 SO:1-2', winner: 'away' },
    'L W',
  ],
  ['ice hockey regulation win', 'ice_hockey', 'moneyline', { rows: 'P1:3-1 P2:1-1 P3:0-0' }, 'W L'],
  [
    'baseball extra innings',
    'baseball',
    'moneyline',
    { rows: 'I1:1-1 I2:0-0 I3:0-0 I4:0-0 I5:0-0 I6:0-0 I7:0-0 I8:0-0 I9:0-0 I10:0-1' },
    'L W',
  ],
  ['tennis sets', 'tennis', 'moneyline', { rows: 'S1:4-6 S2:6-4 S3:7-6' }, 'W L'],
  ['tennis more games but fewer sets', 'tennis', 'moneyline', { rows: 'S1:6-0 S2:6-7 S3:6-7' }, 'L W'],
  ['volleyball', 'volleyball', 'moneyline', { rows: 'S1:25-20 S2:20-25 S3:20-25 S4:25-20 S5:13-15' }, 'L W'],
  ['table tennis', 'table_tennis', 'moneyline', { rows: 'G1:11-2 G2:11-9 G3:11-5' }, 'W L'],
  ['darts', 'darts', 'moneyline', { rows: 'S1:3-0 S2:1-3 S3:2-3' }, 'L W'],
  ['snooker', 'snooker', 'moneyline', { rows: 'F1:80-1 F2:70-1 F3:1-80' }, 'W L'],
  ['cs2 maps', 'cs2', 'moneyline', { rows: 'M1:13-9 M2:11-13 M3:13-4' }, 'W L'],
  ['valorant', 'valorant', 'moneyline', { rows: 'M1:9-13 M2:11-13' }, 'L W'],
  ['dota2', 'dota2', 'moneyline', { rows: 'G1:0-1 G2:1-0 G3:1-0' }, 'W L'],
  ['lol best of one', 'lol', 'moneyline', { rows: 'G1:0-1' }, 'L W'],
  ['cricket', 'cricket', 'moneyline', { rows: 'INN1:150-0 INN2:0-151' }, 'L W'],
  ['cricket tie refunds', 'cricket', 'moneyline', { rows: 'INN1:150-0 INN2:0-150' }, 'P P'],
  ['mma win', 'mma', 'moneyline', { rows: 'R1:10-9 R2:0-0', score: [1, 0], winner: 'home' }, 'W L'],
  ['mma draw refunds', 'mma', 'moneyline', { rows: 'R1:10-9 R2:9-10 R3:10-10', score: [0, 0] }, 'P P'],
  [
    'a period moneyline on a level period refunds',
    'basketball',
    'moneyline@q1',
    { rows: 'Q1:20-20 Q2:1-0', winner: 'home' },
    'P P',
  ],
]);

run('to qualify', TWO_WAY, [
  ['win in normal time', 'soccer', 'to_qualify', { rows: '1H:1-0 2H:0-0' }, 'W L'],
  ['win in extra time', 'soccer', 'to_qualify', { rows: '1H:0-0 2H:1-1 ET:0-1' }, 'L W'],
  [
    'win on penalties',
    'soccer',
    'to_qualify',
    { rows: '1H:0-0 2H:1-1 ET:0-0 PEN:4-3', score: [1, 1], winner: 'home' },
    'W L',
  ],
  ['level without a winner refunds', 'soccer', 'to_qualify', { rows: '1H:0-0 2H:1-1', score: [1, 1] }, 'P P'],
]);

run('3-way handicap', THREE_WAY, [
  ['home -1 winning by 2', 'soccer', 'handicap_3way:-1', { rows: '1H:2-0 2H:0-0' }, 'W L L'],
  ['home -1 winning by 1 is the handicap draw', 'soccer', 'handicap_3way:-1', { rows: '1H:2-1 2H:0-0' }, 'L W L'],
  ['home -1 with a draw', 'soccer', 'handicap_3way:-1', { rows: '1H:1-1 2H:0-0' }, 'L L W'],
  ['home -2 winning by 3', 'soccer', 'handicap_3way:-2', { rows: '1H:3-0 2H:0-0' }, 'W L L'],
  ['home -3 winning by 3', 'soccer', 'handicap_3way:-3', { rows: '1H:3-0 2H:0-0' }, 'L W L'],
  ['home +1 losing by 1', 'soccer', 'handicap_3way:1', { rows: '1H:0-1 2H:0-0' }, 'L W L'],
  ['home +1 drawing', 'soccer', 'handicap_3way:1', { rows: '1H:0-0 2H:0-0' }, 'W L L'],
  ['home +2 losing by 3', 'soccer', 'handicap_3way:2', { rows: '1H:0-2 2H:0-1' }, 'L L W'],
  ['home +3 losing by 3', 'soccer', 'handicap_3way:3', { rows: '1H:0-2 2H:0-1' }, 'L W L'],
  ['extra time ignored', 'soccer', 'handicap_3way:-1', { rows: '1H:0-0 2H:1-0 ET:1-0' }, 'L W L'],
]);

run('set, game, frame and map winners', TWO_WAY, [
  ['tennis set 1', 'tennis', 'set_winner@s1', { rows: 'S1:7-6 S2:2-6 S3:1-6' }, 'W L'],
  ['tennis set 2', 'tennis', 'set_winner@s2', { rows: 'S1:7-6 S2:2-6 S3:1-6' }, 'L W'],
  ['tennis set 3 of a straight-sets match refunds', 'tennis', 'set_winner@s3', { rows: 'S1:6-3 S2:6-3' }, 'P P'],
  ['tennis set 5', 'tennis', 'set_winner@s5', { rows: 'S1:6-3 S2:3-6 S3:6-3 S4:3-6 S5:7-5' }, 'W L'],
  ['volleyball set 4', 'volleyball', 'set_winner@s4', { rows: 'S1:25-20 S2:20-25 S3:25-20 S4:26-28' }, 'L W'],
  [
    'volleyball set 5 of a 3-1 refunds',
    'volleyball',
    'set_winner@s5',
    { rows: 'S1:25-20 S2:20-25 S3:25-20 S4:28-26' },
    'P P',
  ],
  ['darts set on legs', 'darts', 'set_winner@s2', { rows: 'S1:3-0 S2:2-3' }, 'L W'],
  ['table tennis game 3', 'table_tennis', 'game_winner@g3', { rows: 'G1:11-2 G2:11-9 G3:12-14 G4:11-3' }, 'L W'],
  [
    'table tennis game 7 not played',
    'table_tennis',
    'game_winner@g7',
    { rows: 'G1:11-2 G2:11-9 G3:12-14 G4:11-3' },
    'P P',
  ],
  ['snooker frame 2', 'snooker', 'frame_winner@f2', { rows: 'F1:80-1 F2:64-65 F3:1-80' }, 'L W'],
  ['snooker frame 11 not played', 'snooker', 'frame_winner@f11', { rows: 'F1:80-1 F2:64-65 F3:1-80' }, 'P P'],
  ['cs2 map 2 on rounds', 'cs2', 'map_winner@m2', { rows: 'M1:13-9 M2:14-16 M3:13-4' }, 'L W'],
  ['cs2 map 3 of a 2-0 refunds', 'cs2', 'map_winner@m3', { rows: 'M1:13-9 M2:13-11' }, 'P P'],
  ['valorant map 1', 'valorant', 'map_winner@m1', { rows: 'M1:13-9 M2:9-13 M3:13-11' }, 'W L'],
  ['dota2 game 2 is row G2', 'dota2', 'map_winner@m2', { rows: 'G1:1-0 G2:0-1 G3:1-0' }, 'L W'],
  ['lol game 3', 'lol', 'map_winner@m3', { rows: 'G1:1-0 G2:0-1 G3:1-0' }, 'W L'],
  ['lol game 3 of a 2-0 refunds', 'lol', 'map_winner@m3', { rows: 'G1:1-0 G2:1-0' }, 'P P'],
]);
