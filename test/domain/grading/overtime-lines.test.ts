// North American ice hockey lines (puck line, totals, team totals) on the full game incl. overtime and the shoot-out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { explainMarket } from '../../../src/domain/grading/explain.js';
import { gradeWith, line, market, OVER_UNDER, result, TWO_WAY } from './helpers.js';
import type { EventResult } from '../../../src/domain/types.js';

const hockey = (key: string, codes: readonly string[], r: EventResult): string => line('ice_hockey', key, codes, r);

/** 3-2 in regulation. */
const REGULATION_WIN = result({ rows: 'P1:2-0 P2:1-1 P3:0-1' });
/** 2-2 after regulation, home scores in overtime: 3-2. */
const OT_WIN = result({ rows: 'P1:1-0 P2:0-1 P3:1-1 OT:1-0' });
/** 2-2 after overtime, home wins the shoot-out 2-1: it counts as 3-2. */
const SO_HOME = result({ rows: 'P1:1-1 P2:1-0 P3:0-1 OT:0-0 SO:2-1', winner: 'home' });
/** 1-1 after overtime, away wins the shoot-out 3-1: it counts as 1-2. */
const SO_AWAY = result({ rows: 'P1:0-0 P2:1-0 P3:0-1 OT:0-0 SO:1-3', winner: 'away' });

describe('puck_line_ot: the handicap on the full game incl. overtime and the shoot-out', () => {
  test('regulation win 3-2: -1.5 loses for home, +1.5 wins for away; -0.5 wins for home', () => {
    assert.equal(hockey('puck_line_ot:-1.5', TWO_WAY, REGULATION_WIN), 'L W');
    assert.equal(hockey('puck_line_ot:-0.5', TWO_WAY, REGULATION_WIN), 'W L');
  });
  test('overtime win 3-2: home -0.5 wins where the regulation puck line (2-2) loses it', () => {
    assert.equal(hockey('puck_line_ot:-0.5', TWO_WAY, OT_WIN), 'W L');
    assert.equal(hockey('asian_handicap:-0.5', TWO_WAY, OT_WIN), 'L W');
    assert.equal(hockey('puck_line_ot:1.5', TWO_WAY, OT_WIN), 'W L');
  });
  test('shoot-out won by home: one goal for home (3-2), so away +1.5 wins and home -1.5 loses', () => {
    assert.equal(hockey('puck_line_ot:-1.5', TWO_WAY, SO_HOME), 'L W');
    assert.equal(hockey('puck_line_ot:-0.5', TWO_WAY, SO_HOME), 'W L');
    // Regulation families read P1-P3 only: level 2-2.
    assert.equal(hockey('asian_handicap:-0.5', TWO_WAY, SO_HOME), 'L W');
  });
  test('shoot-out won by away: one goal for away (1-2)', () => {
    assert.equal(hockey('puck_line_ot:0.5', TWO_WAY, SO_AWAY), 'L W');
    assert.equal(hockey('puck_line_ot:1.5', TWO_WAY, SO_AWAY), 'W L');
  });
  test('a whole line landing is a push (refund both)', () => {
    assert.equal(hockey('puck_line_ot:-1', TWO_WAY, OT_WIN), 'P P');
    assert.equal(hockey('puck_line_ot:-1', TWO_WAY, SO_HOME), 'P P');
    assert.equal(hockey('puck_line_ot:1', TWO_WAY, SO_AWAY), 'P P');
  });
  test('a line of 0 never pushes after a shoot-out: a level score cannot remain', () => {
    assert.equal(hockey('puck_line_ot:0', TWO_WAY, SO_HOME), 'W L');
    assert.equal(hockey('puck_line_ot:0', TWO_WAY, SO_AWAY), 'L W');
  });
  test('quarter lines split as everywhere else', () => {
    assert.equal(hockey('puck_line_ot:-1.25', TWO_WAY, SO_HOME), 'HL HW');
  });
});

describe('totals_ot: goals of the full game incl. overtime, the shoot-out counting one', () => {
  test('regulation win 3-2: total 5', () => {
    assert.equal(hockey('totals_ot:4.5', OVER_UNDER, REGULATION_WIN), 'W L');
    assert.equal(hockey('totals_ot:5.5', OVER_UNDER, REGULATION_WIN), 'L W');
  });
  test('overtime win 3-2: total 5 where regulation had 4', () => {
    assert.equal(hockey('totals_ot:4.5', OVER_UNDER, OT_WIN), 'W L');
    assert.equal(hockey('totals:4.5', OVER_UNDER, OT_WIN), 'L W');
  });
  test('shoot-out: 2-2 plus the shoot-out goal is 5 (the shoot-out tally 2-1 does not count)', () => {
    assert.equal(hockey('totals_ot:4.5', OVER_UNDER, SO_HOME), 'W L');
    assert.equal(hockey('totals_ot:5.5', OVER_UNDER, SO_HOME), 'L W');
    assert.equal(hockey('totals_ot:3.5', OVER_UNDER, SO_AWAY), 'L W');
  });
  test('a whole line landing is a push', () => {
    assert.equal(hockey('totals_ot:5', OVER_UNDER, SO_HOME), 'P P');
    assert.equal(hockey('totals_ot:5', OVER_UNDER, OT_WIN), 'P P');
    assert.equal(hockey('totals_ot:5', OVER_UNDER, REGULATION_WIN), 'P P');
  });
});

describe('team totals incl. overtime and the shoot-out', () => {
  test('regulation win 3-2', () => {
    assert.equal(hockey('team_totals_home_ot:2.5', OVER_UNDER, REGULATION_WIN), 'W L');
    assert.equal(hockey('team_totals_away_ot:2.5', OVER_UNDER, REGULATION_WIN), 'L W');
  });
  test('overtime win: the overtime goal counts for its side only', () => {
    assert.equal(hockey('team_totals_home_ot:2.5', OVER_UNDER, OT_WIN), 'W L');
    assert.equal(hockey('team_totals_home:2.5', OVER_UNDER, OT_WIN), 'L W');
    assert.equal(hockey('team_totals_away_ot:2', OVER_UNDER, OT_WIN), 'P P');
  });
  test('shoot-out: the winner gets one goal, the loser none', () => {
    assert.equal(hockey('team_totals_home_ot:2.5', OVER_UNDER, SO_HOME), 'W L');
    assert.equal(hockey('team_totals_away_ot:2.5', OVER_UNDER, SO_HOME), 'L W');
    assert.equal(hockey('team_totals_away_ot:2', OVER_UNDER, SO_AWAY), 'P P');
    assert.equal(hockey('team_totals_home_ot:1', OVER_UNDER, SO_AWAY), 'P P');
  });
});

describe('how the shoot-out winner is read', () => {
  test('without `winner`, the SO row names the shoot-out winner', () => {
    const r = result({ rows: 'P1:1-1 P2:0-0 P3:0-0 OT:0-0 SO:1-3' });
    assert.equal(hockey('puck_line_ot:0.5', TWO_WAY, r), 'L W');
    assert.equal(hockey('team_totals_away_ot:1.5', OVER_UNDER, r), 'W L');
  });
  test('a final score that already counts the shoot-out goal (3-2, the NHL convention) is not counted twice', () => {
    const r = result({ rows: '', score: [3, 2], winner: 'home' });
    assert.equal(hockey('totals_ot:5', OVER_UNDER, r), 'P P');
    assert.equal(hockey('puck_line_ot:-1', TWO_WAY, r), 'P P');
  });
  test('a final score alone (no period rows), as an upstream adapter reports it', () => {
    const r = result({ rows: '', score: [4, 1] });
    assert.equal(hockey('puck_line_ot:-1.5', TWO_WAY, r), 'W L');
    assert.equal(hockey('totals_ot:5.5', OVER_UNDER, r), 'L W');
  });
  test('a level score with no decider to read is refunded (tie_refund), never graded as a draw', () => {
    const r = result({ rows: 'P1:1-1 P2:0-0 P3:0-0 OT:0-0' });
    assert.equal(hockey('puck_line_ot:0', TWO_WAY, r), 'P P');
    assert.equal(hockey('totals_ot:2.5', OVER_UNDER, r), 'P P');
  });
});

describe('scope and shape', () => {
  test('the families take no period and belong to ice hockey', () => {
    assert.equal(gradeWith('ice_hockey', 'totals_ot@p1:1.5', OVER_UNDER, OT_WIN).status, 'ungradeable');
    assert.equal(gradeWith('ice_hockey', 'totals_ot', OVER_UNDER, OT_WIN).status, 'ungradeable');
    assert.equal(gradeWith('basketball', 'totals_ot:200.5', OVER_UNDER, OT_WIN).status, 'ungradeable');
  });
  test('abandoned: an over already won stands, the rest is refunded', () => {
    const r = result({ status: 'abandoned', rows: 'P1:3-2 P2:1-0' });
    assert.equal(hockey('totals_ot:5.5', OVER_UNDER, r), 'W L');
    assert.equal(hockey('totals_ot:6.5', OVER_UNDER, r), 'P P');
    assert.equal(hockey('puck_line_ot:-1.5', TWO_WAY, r), 'P P');
  });
  test('cancelled refunds everything', () => {
    const r = result({ status: 'cancelled', rows: '' });
    assert.equal(hockey('puck_line_ot:-1.5', TWO_WAY, r), 'P P');
  });
});

describe('explanations name the scope incl. overtime and the shoot-out', () => {
  const explain = (key: string, codes: readonly string[], r: EventResult) => {
    const { explanations } = explainMarket(market(key, codes), { sport: 'ice_hockey', result: r, playerStats: null });
    assert.ok(explanations !== null);
    return explanations;
  };

  test('shoot-out win: score 3-2 with the shoot-out goal, its winner named, the arithmetic on it', () => {
    const [home, away] = explain('puck_line_ot:-1.5', TWO_WAY, SO_HOME);
    assert.equal(home!.scope, 'full_game_shootout');
    assert.deepEqual(home!.score, { home: 3, away: 2 });
    assert.equal(home!.winner, 'home');
    assert.equal(home!.rule, 'handicap');
    assert.equal(away!.line, 1.5);
    assert.match(home!.text, /^The full game incl\. OT and shoot-out 3-2/);
    assert.match(home!.text, /2-2 after overtime, home won the shoot-out/);
    assert.match(home!.text, /home margin \+1 with -1\.5 = -0\.5 → lost\.$/);
    assert.match(away!.text, /→ won\.$/);
  });

  test('overtime win: no shoot-out named', () => {
    const [over] = explain('totals_ot:5', OVER_UNDER, OT_WIN);
    assert.equal(over!.scope, 'full_game_shootout');
    assert.equal(over!.winner, null);
    assert.equal(over!.rule, 'total_push');
    assert.doesNotMatch(over!.text, /shoot-out won|won the shoot-out/);
    assert.match(over!.text, /total 5 against 5: over 0 \(the whole line lands: push\) → refunded\.$/);
  });

  test('a level score without a decider says so', () => {
    const [home] = explain('puck_line_ot:0', TWO_WAY, result({ rows: 'P1:1-1 P2:0-0 P3:0-0 OT:0-0' }));
    assert.equal(home!.rule, 'tie_refund');
    assert.match(home!.text, /level score with no decider/);
  });
});
