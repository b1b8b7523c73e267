// Player props: counters of the final stats over or under the line; absent players refunded; pending until final stats.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeWith, line, OVER_UNDER, result, stats } from './helpers.js';

const ENDED = result({ rows: '1H:1-0 2H:1-1' });
const FINAL = stats([
  ['p10', 'home', { goals: 2, shots: 3, shots_on_target: 2, passes: 41, cards: 1, minutes: 90 }],
  ['p11', 'home', { goals: 0, shots: 0, passes: 12, cards: 0, minutes: 25 }],
  ['p20', 'away', { goals: 1, assists: 1, shots: 1, passes: 9, cards: 2, red_cards: 1, minutes: 60 }],
  ['p21', 'away', { goals: 0, minutes: 0 }],
  [87, 'away', { tackles: 4, minutes: 90 }],
]);

describe('player props on the final stats', () => {
  const cases: ReadonlyArray<readonly [string, string, string]> = [
    ['two goals: over 1.5', 'player_goals_p10:1.5', 'W L'],
    ['two goals: under 2.5', 'player_goals_p10:2.5', 'L W'],
    ['no goal: under 0.5', 'player_goals_p11:0.5', 'L W'],
    ['one goal: over 0.5', 'player_goals_p20:0.5', 'W L'],
    ['stat with underscores', 'player_shots_on_target_p10:1.5', 'W L'],
    ['passes', 'player_passes_p10:40.5', 'W L'],
    ['a second yellow counts two cards', 'player_cards_p20:1.5', 'W L'],
    ['a counter missing from the player line counts 0', 'player_shots_on_target_p11:0.5', 'L W'],
    ['a whole line can push', 'player_shots_p10:3', 'P P'],
    ['a numeric player_id matches p<digits>', 'player_tackles_p87:3.5', 'W L'],
    ['a player who did not play is refunded', 'player_goals_p99:0.5', 'P P'],
    ['a player listed with 0 minutes did not play: refunded', 'player_goals_p21:0.5', 'P P'],
  ];
  for (const [name, key, expected] of cases) {
    test(`${name}: ${key} is ${expected}`, () => {
      assert.equal(line('soccer', key, OVER_UNDER, ENDED, { stats: FINAL }), expected);
    });
  }

  test('other sports: basketball points, american football yards, baseball home runs', () => {
    const r = result({ rows: 'Q1:20-20 Q2:20-20 Q3:20-20 Q4:20-21' });
    const s = stats([['p6817', 'home', { points: 20, rebounds: 3, assists: 4 }]]);
    assert.equal(line('basketball', 'player_points_p6817:19.5', OVER_UNDER, r, { stats: s }), 'W L');
    assert.equal(line('basketball', 'player_rebounds_p6817:3.5', OVER_UNDER, r, { stats: s }), 'L W');
    const af = stats([['p11047', 'home', { passing_yards: 243, rushing_yards: 0, touchdowns: 0 }]]);
    assert.equal(line('american_football', 'player_passing_yards_p11047:242.5', OVER_UNDER, r, { stats: af }), 'W L');
    assert.equal(line('american_football', 'player_touchdowns_p11047:0.5', OVER_UNDER, r, { stats: af }), 'L W');
    const bb = stats([['p1', 'away', { hits: 2, home_runs: 1 }]]);
    assert.equal(line('baseball', 'player_home_runs_p1:0.5', OVER_UNDER, r, { stats: bb }), 'W L');
  });

  test('pending without stats, and with stats not yet final', () => {
    for (const s of [null, stats([['p10', 'home', { goals: 3 }]], false)]) {
      const g = gradeWith('soccer', 'player_goals_p10:0.5', OVER_UNDER, ENDED, { stats: s });
      assert.equal(g.status, 'pending');
    }
  });

  test('a counter no player has is not graded', () => {
    const g = gradeWith('soccer', 'player_saves_p10:0.5', OVER_UNDER, ENDED, { stats: FINAL });
    assert.equal(g.status, 'ungradeable');
  });

  test('a fractional counter is not graded', () => {
    const s = stats([['p1', 'home', { innings_pitched: 5.5 }]]);
    const g = gradeWith('baseball', 'player_innings_pitched_p1:5.5', OVER_UNDER, ENDED, { stats: s });
    assert.equal(g.status, 'ungradeable');
  });

  test('a key whose player id is not p<digits> has no rule', () => {
    const g = gradeWith('soccer', 'player_goals_messi:0.5', OVER_UNDER, ENDED, { stats: FINAL });
    assert.equal(g.status, 'ungradeable');
  });
});
