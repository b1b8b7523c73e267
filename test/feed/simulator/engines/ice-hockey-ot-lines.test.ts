// Ice hockey lines incl. overtime and the shoot-out: priced next to the regulation ones, sane prices, and graded at the end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gradeMarket } from '../../../../src/domain/grading/catalog.js';
import type { EventResult, Market } from '../../../../src/domain/types.js';
import type { FeedMessage, MarketDef, ResultMessage } from '../../../../src/feed/messages.js';
import { Dist, Grid, poissonDist } from '../../../../src/feed/simulator/pricing/dist.js';
import { countsWithDecider, marginWithDecider } from '../../../../src/feed/simulator/pricing/overtime.js';
import { buildWorld, NO_DISRUPTIONS, playOneGame } from '../../../../src/feed/simulator/index.js';
import { marketOf, periodScoresOf } from '../../../../src/pipeline/map-messages.js';

const world = buildWorld(11);
const PUBLISH_AT = Date.UTC(2025, 0, 6, 8);
const OT_FAMILIES = ['puck_line_ot', 'totals_ot', 'team_totals_home_ot', 'team_totals_away_ot'];
const familyOf = (key: string): string => key.split(/[@:]/)[0]!;
const implied = (m: MarketDef): number => m.outcomes.reduce((s, o) => s + 1 / o.odds, 0);
const sum = (d: Dist): number => d.p.reduce((s, x) => s + x, 0);

/**
 * Every price the feed shows an open two-way `_ot` market at, in play included: the implied
 * probabilities of its two outcomes summed, after each message (both outcomes open, neither a long
 * shot at the price bounds).
 */
function impliedThroughout(messages: readonly FeedMessage[]): Array<[string, number]> {
  const sel = new Map<number, { key: string; odds: number; locked: boolean }>();
  const byMarket = new Map<string, number[]>();
  const out: Array<[string, number]> = [];
  for (const m of messages) {
    const touched = new Set<string>();
    if (m.type === 'markets') {
      for (const def of m.markets) {
        if (!OT_FAMILIES.includes(familyOf(def.key))) continue;
        byMarket.set(
          def.key,
          def.outcomes.map((o) => o.selection_id),
        );
        for (const o of def.outcomes)
          sel.set(o.selection_id, { key: def.key, odds: o.odds, locked: o.is_locked === true });
        touched.add(def.key);
      }
    }
    if (m.type === 'odds') {
      for (const c of m.changes) {
        const s = sel.get(c.selection_id);
        if (s === undefined) continue;
        if (c.odds !== undefined) s.odds = c.odds;
        if (c.is_locked !== undefined) s.locked = c.is_locked;
        touched.add(s.key);
      }
    }
    for (const key of touched) {
      const outcomes = (byMarket.get(key) ?? []).map((id) => sel.get(id)!);
      if (outcomes.length !== 2 || outcomes.some((o) => o.locked || o.odds > 50)) continue;
      out.push([key, outcomes.reduce((t, o) => t + 1 / o.odds, 0)]);
    }
  }
  return out;
}

function play(seed: number): {
  first: Map<string, MarketDef>;
  markets: Market[];
  result: EventResult;
  messages: FeedMessage[];
} {
  const { messages } = playOneGame({
    seed,
    sport: 'ice_hockey',
    league: 'NHL',
    publishAt: PUBLISH_AT,
    world,
    config: { disruptions: NO_DISRUPTIONS },
  });
  const first = new Map<string, MarketDef>();
  const markets = new Map<number, Market>();
  let res: ResultMessage | undefined;
  for (const m of messages) {
    if (m.type === 'markets') {
      for (const def of m.markets) {
        if (!first.has(def.key)) first.set(def.key, def);
        markets.set(def.market_id, marketOf(def));
      }
    }
    if (m.type === 'result') res = m;
  }
  assert.ok(res !== undefined, 'the game ends with a result');
  const result: EventResult = {
    eventId: res.event_id,
    status: res.status,
    score: res.score,
    periodScores: periodScoresOf(res.period_scores ?? []),
    winner: res.winner ?? null,
    endedAt: 0,
    revision: 1,
    recordedAt: 0,
  };
  return { first, markets: [...markets.values()], result, messages };
}

describe('pricing incl. overtime and the shoot-out', () => {
  it('a level regulation margin becomes a one-goal win either way; nothing else moves', () => {
    const margin = new Dist(-2, Float64Array.of(0.1, 0.2, 0.3, 0.25, 0.15));
    const ot = marginWithDecider(margin, 0.6);
    assert.equal(ot.at(0), 0);
    assert.ok(Math.abs(ot.at(1) - (0.25 + 0.3 * 0.6)) < 1e-12);
    assert.ok(Math.abs(ot.at(-1) - (0.2 + 0.3 * 0.4)) < 1e-12);
    assert.equal(ot.at(2), 0.15);
    assert.ok(Math.abs(sum(ot) - 1) < 1e-12);
  });

  it('the shoot-out goal adds one to the total of every level score and to the winner only', () => {
    const grid = new Grid(poissonDist(2.9, 12), poissonDist(2.6, 12));
    const c = countsWithDecider(grid, 0.55);
    for (const d of [c.home, c.away, c.total]) assert.ok(Math.abs(sum(d) - 1) < 1e-9);
    let level = 0;
    for (let k = 0; k <= 12; k++) level += grid.cell(k, k);
    assert.ok(Math.abs(c.total.mean() - (grid.total().mean() + level)) < 1e-9);
    assert.ok(Math.abs(c.home.mean() - (grid.home.mean() + 0.55 * level)) < 1e-9);
    assert.ok(Math.abs(c.away.mean() - (grid.away.mean() + 0.45 * level)) < 1e-9);
    // No total is even after a level score: 0-0 goes to 1, never stays 0.
    assert.equal(c.total.at(0), 0);
  });
});

describe('the simulator prices the NHL lines incl. overtime next to the regulation ones', () => {
  const { first, markets, result, messages } = play(3);

  it('puck line, totals and team totals incl. OT/SO are offered prematch, named as such', () => {
    for (const key of [
      'puck_line_ot:-1.5',
      'puck_line_ot:1.5',
      'totals_ot:5.5',
      'totals_ot:6',
      'team_totals_home_ot:2.5',
      'team_totals_away_ot:3.5',
    ]) {
      assert.ok(first.has(key), `${key} is priced`);
    }
    assert.match(first.get('puck_line_ot:-1.5')!.name, /^Puck Line incl\. OT\/SO -1\.5$/);
    assert.match(first.get('totals_ot:5.5')!.name, /^Total Goals incl\. OT\/SO 5\.5$/);
    // The regulation families are still there, as they were.
    for (const key of ['asian_handicap:-1.5', 'totals:5.5', 'team_totals_home:2.5', '1x2', 'moneyline'])
      assert.ok(first.has(key), key);
  });

  it('complementary outcomes imply 1 + margin (5%) between them', () => {
    const ot = [...first.values()].filter((m) => OT_FAMILIES.includes(familyOf(m.key)));
    assert.ok(ot.length >= 16, `${ot.length} markets`);
    for (const m of ot) {
      assert.equal(m.outcomes.length, 2, m.key);
      const s = implied(m);
      assert.ok(s > 1.02 && s < 1.08, `${m.key}: implied ${s.toFixed(3)}`);
      for (const o of m.outcomes) assert.ok(o.odds >= 1.01 && o.odds <= 1000, `${m.key} ${o.code} ${o.odds}`);
    }
  });

  it('in play too: every open price pair implies 1 + margin, within rounding and the 1.01 floor', () => {
    const seen = impliedThroughout(messages);
    assert.ok(seen.length > 50, `${seen.length} price pairs`);
    for (const [key, sum] of seen) assert.ok(sum > 1.0 && sum < 1.1, `${key}: implied ${sum.toFixed(3)}`);
  });

  it('prices agree with the regulation lines where they must', () => {
    const p = (key: string, code: string): number => {
      const m = first.get(key)!;
      const o = m.outcomes.find((x) => x.code === code)!;
      return 1 / o.odds / implied(m);
    };
    // An overtime or shoot-out win is by one goal: -1.5 wins exactly when it does in regulation.
    assert.ok(Math.abs(p('puck_line_ot:-1.5', 'home') - p('asian_handicap:-1.5', 'home')) < 0.02);
    // A level score's total is even, and the deciding goal makes it odd: over 6.5 is likelier (3-3
    // becomes 7), over 5.5 is not (2-2 becomes 5, 3-3 was over already).
    assert.ok(p('totals_ot:6.5', 'over') > p('totals:6.5', 'over') + 0.03);
    assert.ok(Math.abs(p('totals_ot:5.5', 'over') - p('totals:5.5', 'over')) < 0.02);
    // So is +1.5: a level game stays within it either way. A whole line is where overtime matters:
    // home -1 loses a level game in regulation but pushes when home wins after it.
    assert.ok(Math.abs(p('puck_line_ot:1.5', 'home') - p('asian_handicap:1.5', 'home')) < 0.02);
    assert.ok(p('puck_line_ot:-1', 'home') > p('asian_handicap:-1', 'home') + 0.03);
    assert.ok(p('team_totals_home_ot:2.5', 'over') > p('team_totals_home:2.5', 'over'));
  });

  it('every market incl. OT/SO grades at the end; a half line never pushes, a level score never remains', () => {
    let graded = 0;
    for (const m of markets.filter((x) => OT_FAMILIES.includes(familyOf(x.key)))) {
      const g = gradeMarket(m, { sport: 'ice_hockey', result, playerStats: null });
      assert.equal(g.status, 'graded', m.key);
      if (g.status !== 'graded') continue;
      if (!Number.isInteger(Number(m.key.split(':')[1])))
        assert.ok(
          g.outcomes.every((o) => o.result !== 'refund'),
          m.key,
        );
      assert.notEqual(g.basis?.score?.home, g.basis?.score?.away, `${m.key}: level score ${JSON.stringify(result)}`);
      graded++;
    }
    assert.ok(graded >= 16);
  });
});
