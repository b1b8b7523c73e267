// Events that did not finish: cancelled, walkover, abandoned, tennis retirement and esports forfeits, with each policy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_GRADING_POLICY, type GradingPolicy } from '../../../src/domain/grading/types.js';
import { line, OVER_UNDER, result, stats, THREE_WAY, TWO_WAY } from './helpers.js';

const policy = (p: Partial<GradingPolicy>): GradingPolicy => ({ ...DEFAULT_GRADING_POLICY, ...p });

describe('cancelled', () => {
  const r = result({ status: 'cancelled' });
  test('every market is refunded, known or not', () => {
    assert.equal(line('soccer', '1x2', THREE_WAY, r), 'P P P');
    assert.equal(line('soccer', 'totals:2.5', OVER_UNDER, r), 'P P');
    assert.equal(line('soccer', 'some_future_family', ['a', 'b'], r), 'P P');
    assert.equal(line('soccer', 'player_goals_p1:0.5', OVER_UNDER, r), 'P P');
  });
});

describe('walkover', () => {
  const r = result({ status: 'walkover', winner: 'home', score: [0, 0] });
  test('refunds every market by default, the match winner included', () => {
    assert.equal(line('tennis', 'moneyline', TWO_WAY, r), 'P P');
    assert.equal(line('tennis', 'set_betting', ['2-0', '0-2'], r), 'P P');
    assert.equal(line('tennis', 'totals:21.5', OVER_UNDER, r), 'P P');
  });
  test('with award_moneyline the player who advances wins the match winner; the rest is refunded', () => {
    const p = policy({ walkover: 'award_moneyline' });
    assert.equal(line('tennis', 'moneyline', TWO_WAY, r, { policy: p }), 'W L');
    assert.equal(line('tennis', 'set_winner@s1', TWO_WAY, r, { policy: p }), 'P P');
    assert.equal(
      line('darts', 'moneyline', TWO_WAY, result({ status: 'walkover', winner: 'away' }), { policy: p }),
      'L W',
    );
  });
  test('an esports walkover before any map is refunded', () => {
    assert.equal(line('cs2', 'moneyline', TWO_WAY, r), 'P P');
  });
});

describe('abandoned: decided markets stand, the rest is refunded', () => {
  // Soccer abandoned in the second half at 2-1 (1H 1-1, 2H 1-0 so far).
  const r = result({ status: 'abandoned', rows: '1H:1-1 2H:1-0' });
  const cases: ReadonlyArray<readonly [string, string, readonly string[], string]> = [
    ['full-time 1x2 undecided', '1x2', THREE_WAY, 'P P P'],
    ['first half finished: its 1x2 stands', '1x2@1h', THREE_WAY, 'L W L'],
    ['first half totals stand', 'totals@1h:1.5', OVER_UNDER, 'W L'],
    ['second half in progress refunds', '1x2@2h', THREE_WAY, 'P P P'],
    ['over 2.5 already reached stands', 'totals:2.5', OVER_UNDER, 'W L'],
    ['over 2.75 only half won so far refunds', 'totals:2.75', OVER_UNDER, 'P P'],
    ['over 3 not yet reached refunds', 'totals:3', OVER_UNDER, 'P P'],
    ['over 3.5 not reached refunds', 'totals:3.5', OVER_UNDER, 'P P'],
    ['over 2.25 already wholly won stands', 'totals:2.25', OVER_UNDER, 'W L'],
    ['team total already over stands', 'team_totals_home:1.5', OVER_UNDER, 'W L'],
    ['team total not yet over refunds', 'team_totals_away:1.5', OVER_UNDER, 'P P'],
    ['both teams already scored stands', 'btts', ['yes', 'no'], 'W L'],
    ['odd/even refunds', 'odd_even', ['odd', 'even'], 'P P'],
    ['asian handicap refunds', 'asian_handicap:-0.5', TWO_WAY, 'P P'],
    ['draw no bet refunds', 'draw_no_bet', TWO_WAY, 'P P'],
    ['HT/FT refunds', 'ht_ft', ['home/home', 'draw/home'], 'P P'],
    ['winning margin refunds', 'winning_margin', ['home_1', 'draw'], 'P P'],
    ['exact total 3+ reached stands', 'exact_total@1h', ['0', '1', '2', '3+'], 'L L W L'],
    ['exact total with 3 still possible refunds', 'exact_total', ['0', '1', '2', '3', '4+'], 'P P P P P'],
    ['exact total with every code decided stands', 'exact_total', ['0', '1', '2', '3+'], 'L L L W'],
    [
      'correct score with listed scores still reachable refunds',
      'correct_score',
      ['0-0', '2-1', '3-3', 'other'],
      'P P P P',
    ],
  ];
  for (const [name, key, codes, expected] of cases) {
    test(`${name}: ${key} is ${expected}`, () => {
      assert.equal(line('soccer', key, codes, r), expected);
    });
  }
  test('correct score with no listed score reachable: other wins', () => {
    const big = result({ status: 'abandoned', rows: '1H:3-2 2H:1-0' });
    assert.equal(line('soccer', 'correct_score', ['0-0', '1-0', '3-3', 'other'], big), 'L L L W');
  });
  test('abandoned in extra time: the regulation-time markets stand', () => {
    const et = result({ status: 'abandoned', rows: '1H:1-1 2H:0-0 ET:1-0' });
    assert.equal(line('soccer', '1x2', THREE_WAY, et), 'L W L');
    assert.equal(line('soccer', 'ht_ft', ['draw/draw', 'home/home'], et), 'W L');
    assert.equal(line('soccer', 'to_qualify', TWO_WAY, et), 'P P');
  });
  test('ice hockey abandoned in overtime: 3-way stands, moneyline refunded', () => {
    const ot = result({ status: 'abandoned', rows: 'P1:1-0 P2:0-1 P3:0-0 OT:0-0' });
    assert.equal(line('ice_hockey', '1x2', THREE_WAY, ot), 'L W L');
    assert.equal(line('ice_hockey', 'moneyline', TWO_WAY, ot), 'P P');
    assert.equal(line('ice_hockey', '1x2@p2', THREE_WAY, ot), 'L L W');
  });
  test('basketball abandoned in the third quarter: first half stands, second half refunded', () => {
    const b = result({ status: 'abandoned', rows: 'Q1:20-25 Q2:20-25 Q3:10-2' });
    assert.equal(line('basketball', '1x2@1h', THREE_WAY, b), 'L L W');
    assert.equal(line('basketball', 'totals@2h:5.5', OVER_UNDER, b), 'W L');
    assert.equal(line('basketball', 'totals@2h:100.5', OVER_UNDER, b), 'P P');
    assert.equal(line('basketball', 'moneyline', TWO_WAY, b), 'P P');
    assert.equal(line('basketball', '1x2@q3', THREE_WAY, b), 'P P P');
  });
  test('player props: an over already reached stands, the rest refunds', () => {
    const s = stats([['p1', 'home', { goals: 2 }]], false);
    assert.equal(line('soccer', 'player_goals_p1:1.5', OVER_UNDER, r, { stats: s }), 'W L');
    assert.equal(line('soccer', 'player_goals_p1:2.5', OVER_UNDER, r, { stats: s }), 'P P');
    assert.equal(line('soccer', 'player_goals_p1:0.5', OVER_UNDER, r), 'P P');
  });
  test('fight rounds: an over already reached stands', () => {
    const f = result({ status: 'abandoned', rows: 'R1:10-9 R2:10-9 R3:0-0', score: [0, 0] });
    assert.equal(line('boxing', 'fight_rounds:2.5', OVER_UNDER, f), 'W L');
    assert.equal(line('boxing', 'fight_rounds:4.5', OVER_UNDER, f), 'P P');
    assert.equal(line('boxing', '1x2', THREE_WAY, f), 'P P P');
  });
});

describe('tennis retirement', () => {
  // Home retired in set 2 at 6-4 3-2: away advances.
  const afterSet = result({ status: 'retired', rows: 'S1:6-4 S2:3-2', score: [1, 0], winner: 'away' });
  const inFirstSet = result({ status: 'retired', rows: 'S1:3-2', score: [0, 0], winner: 'home' });
  test('by default the player who advances wins the match once a set was completed', () => {
    assert.equal(line('tennis', 'moneyline', TWO_WAY, afterSet), 'L W');
  });
  test('by default the match winner is refunded when no set was completed', () => {
    assert.equal(line('tennis', 'moneyline', TWO_WAY, inFirstSet), 'P P');
  });
  test('first_ball: the player who advances wins as soon as play started', () => {
    assert.equal(
      line('tennis', 'moneyline', TWO_WAY, inFirstSet, { policy: policy({ tennisRetirement: 'first_ball' }) }),
      'W L',
    );
  });
  test('refund: the match winner is always refunded', () => {
    assert.equal(
      line('tennis', 'moneyline', TWO_WAY, afterSet, { policy: policy({ tennisRetirement: 'refund' }) }),
      'P P',
    );
  });
  test('completed sets stand, the unfinished set and later ones refund', () => {
    assert.equal(line('tennis', 'set_winner@s1', TWO_WAY, afterSet), 'W L');
    assert.equal(line('tennis', 'set_winner@s2', TWO_WAY, afterSet), 'P P');
    assert.equal(line('tennis', 'set_winner@s3', TWO_WAY, afterSet), 'P P');
  });
  test('set betting, game handicap refunded; a games total already over stands', () => {
    assert.equal(line('tennis', 'set_betting', ['2-0', '2-1', '1-2', '0-2'], afterSet), 'P P P P');
    assert.equal(line('tennis', 'asian_handicap:-2.5', TWO_WAY, afterSet), 'P P');
    assert.equal(line('tennis', 'totals:14.5', OVER_UNDER, afterSet), 'W L');
    assert.equal(line('tennis', 'totals:21.5', OVER_UNDER, afterSet), 'P P');
  });
  test('other sports: a retirement refunds the match winner', () => {
    const r = result({ status: 'retired', rows: 'F1:80-0 F2:3-1', score: [1, 0], winner: 'home' });
    assert.equal(line('snooker', 'moneyline', TWO_WAY, r), 'P P');
    assert.equal(line('snooker', 'frame_winner@f1', TWO_WAY, r), 'W L');
    assert.equal(line('snooker', 'frame_winner@f2', TWO_WAY, r), 'P P');
  });
});

describe('esports forfeit', () => {
  const afterMap = result({ status: 'retired', rows: 'M1:13-7 M2:3-5', score: [1, 0], winner: 'away' });
  const beforeMap = result({ status: 'abandoned', rows: 'M1:3-5', score: [0, 0], winner: 'away' });
  test('by default the side that advances wins the series after a completed map', () => {
    assert.equal(line('cs2', 'moneyline', TWO_WAY, afterMap), 'L W');
  });
  test('by default refunded when no map was completed', () => {
    assert.equal(line('cs2', 'moneyline', TWO_WAY, beforeMap), 'P P');
  });
  test('the refund policy refunds it anyway', () => {
    assert.equal(line('cs2', 'moneyline', TWO_WAY, afterMap, { policy: policy({ esportsForfeit: 'refund' }) }), 'P P');
  });
  test('completed maps stand, the map in progress refunds, series markets refund', () => {
    assert.equal(line('cs2', 'map_winner@m1', TWO_WAY, afterMap), 'W L');
    assert.equal(line('cs2', 'totals@m1:21.5', OVER_UNDER, afterMap), 'L W');
    assert.equal(line('cs2', 'map_winner@m2', TWO_WAY, afterMap), 'P P');
    assert.equal(line('cs2', 'asian_handicap:-1.5', TWO_WAY, afterMap), 'P P');
    assert.equal(line('cs2', 'correct_score', ['2-0', '2-1', '1-2', '0-2'], afterMap), 'P P P P');
  });
  test('a forfeit reported as a walkover after a map is graded the same way', () => {
    const wo = result({ status: 'walkover', rows: 'G1:1-0', score: [1, 0], winner: 'home' });
    assert.equal(line('lol', 'moneyline', TWO_WAY, wo), 'W L');
    assert.equal(line('lol', 'map_winner@m1', TWO_WAY, wo), 'W L');
    assert.equal(line('lol', 'map_winner@m2', TWO_WAY, wo), 'P P');
  });
  test('without a winner the series is refunded', () => {
    const r = result({ status: 'abandoned', rows: 'M1:13-7 M2:3-5', score: [1, 0] });
    assert.equal(line('valorant', 'moneyline', TWO_WAY, r), 'P P');
  });
});
