// Every market the simulator prices is gradeable: one game per sport (and league formats), each market graded as expected.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { familyOf } from '../../../src/domain/families/index.js';
import { gradeMarket } from '../../../src/domain/grading/catalog.js';
import type { OutcomeGrade } from '../../../src/domain/grading/types.js';
import { parseMarketKey } from '../../../src/domain/market-key.js';
import type { EventResult, Market, PlayerStats } from '../../../src/domain/types.js';
import type { ResultMessage } from '../../../src/feed/messages.js';
import { SPORT_PLANS } from '../../../src/feed/simulator/catalog.js';
import { buildWorld, NO_DISRUPTIONS, playOneGame, type SimConfigInput } from '../../../src/feed/simulator/index.js';
import { marketOf, periodScoresOf, playerStatsOf } from '../../../src/pipeline/map-messages.js';

const world = buildWorld(7);
const PUBLISH_AT = Date.UTC(2025, 0, 6, 8);

interface PlayedGame {
  sport: string;
  markets: Market[];
  result: EventResult;
  stats: PlayerStats | null;
}

function play(sport: string, league: string, seed: number, config: SimConfigInput): PlayedGame {
  const { messages } = playOneGame({ seed, sport, league, publishAt: PUBLISH_AT, world, config });
  const markets = new Map<number, Market>();
  let res: ResultMessage | undefined;
  let stats: PlayerStats | null = null;
  for (const m of messages) {
    if (m.type === 'markets') for (const def of m.markets) markets.set(def.market_id, marketOf(def));
    if (m.type === 'result') res = m;
    if (m.type === 'stats') stats = playerStatsOf(m);
  }
  if (res === undefined) throw new Error(`${sport} ${league}: no result`);
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
  return { sport, markets: [...markets.values()], result, stats };
}

const count = (gs: OutcomeGrade[], result: OutcomeGrade['result']): number =>
  gs.filter((g) => g.result === result).length;

/** What every graded market of a finished game must look like, by family. */
function checkShape(key: string, gs: OutcomeGrade[]): void {
  const k = parseMarketKey(key)!;
  const allRefund = count(gs, 'refund') === gs.length;
  const f = k.family;
  if (f === 'double_chance') {
    assert.ok(allRefund || count(gs, 'won') === 2, `${key}: two outcomes win`);
    return;
  }
  // Quarter-line families (handicaps, totals, player props) have two complementary sides.
  const twoSided = k.line !== null && familyOf(f)?.line === 'quarters';
  if (twoSided) {
    assert.equal(gs.length, 2, `${key}: two outcomes`);
    const [x, y] = gs as [OutcomeGrade, OutcomeGrade];
    const opposite = x.result === 'refund' ? 'refund' : x.result === 'won' ? 'lost' : 'won';
    assert.equal(y.result, opposite, `${key}: the two sides are complementary`);
    assert.equal(x.voidFactor, y.voidFactor, `${key}: a half outcome on both sides`);
    const ln = k.line ?? 0;
    const quarter = !Number.isInteger(ln * 2);
    // Only a quarter line can leave half a stake refunded; a half line never pushes.
    if (!quarter) assert.equal(x.voidFactor, undefined, `${key}: no half outcome off a quarter line`);
    if (!Number.isInteger(ln) && !quarter && !allRefund) assert.notEqual(x.result, 'refund', `${key}: no push`);
    return;
  }
  // Everything else has exactly one winning outcome, or is refunded as a whole (draw no bet on a draw,
  // a period not played, a tie).
  assert.ok(allRefund || (count(gs, 'won') === 1 && count(gs, 'refund') === 0), `${key}: exactly one winner`);
  assert.ok(
    gs.every((g) => g.voidFactor === undefined),
    `${key}: no half outcomes`,
  );
}

function gradeAll(g: PlayedGame, withStats: boolean): Map<string, OutcomeGrade[]> {
  const out = new Map<string, OutcomeGrade[]>();
  for (const m of g.markets) {
    const grade = gradeMarket(m, { sport: g.sport, result: g.result, playerStats: withStats ? g.stats : null });
    if (grade.status === 'pending') {
      assert.ok(!withStats && m.key.startsWith('player_'), `${m.key}: only player props wait, for final stats`);
      continue;
    }
    assert.equal(grade.status, 'graded', `${g.sport} ${m.key}: ${grade.status === 'graded' ? '' : grade.reason}`);
    if (grade.status === 'graded') out.set(m.key, grade.outcomes);
  }
  return out;
}

describe('simulator books: every market of a finished game grades', () => {
  const leagues = SPORT_PLANS.flatMap((sp) => {
    // The first league of each sport, plus every other distinct format (best-of, knockout).
    const seen = new Set<string>();
    return sp.leagues
      .filter((l) => {
        const f = JSON.stringify(l.format ?? {});
        if (seen.has(f)) return false;
        seen.add(f);
        return true;
      })
      .map((l) => ({ sport: sp.key, league: l.name }));
  });
  for (const { sport, league } of leagues) {
    test(`${sport}, ${league}`, () => {
      const g = play(sport, league, 3, { disruptions: NO_DISRUPTIONS });
      assert.equal(g.result.status, 'ended');
      assert.ok(g.markets.length > 0);
      const withoutStats = gradeAll(g, false);
      const graded = gradeAll(g, true);
      assert.equal(graded.size, g.markets.length, 'with final stats every market grades');
      for (const [key, gs] of graded) checkShape(key, gs);
      const main = graded.get('moneyline') ?? graded.get('1x2');
      assert.ok(main !== undefined, 'the main market is graded');
      // The main market agrees with the result: the side ahead won.
      const ml = graded.get('moneyline');
      if (ml !== undefined) {
        const { home, away } = g.result.score;
        const side =
          home > away ? 0 : home < away ? 1 : g.result.winner === 'home' ? 0 : g.result.winner === 'away' ? 1 : -1;
        if (side === -1) assert.ok(ml.every((o) => o.result === 'refund'));
        else assert.equal(ml[side]!.result, 'won');
      }
      assert.ok(withoutStats.size <= graded.size);
    });
  }
});

describe('simulator books: unfinished games grade without waiting', () => {
  const cases: ReadonlyArray<readonly [string, string, SimConfigInput, string]> = [
    ['tennis', 'ATP Masters', { disruptions: { ...NO_DISRUPTIONS, retired: 1 } }, 'retired'],
    ['darts', 'Pro Tour', { disruptions: { ...NO_DISRUPTIONS, walkover: 1 } }, 'walkover'],
    ['soccer', 'Premier League', { disruptions: { ...NO_DISRUPTIONS, abandoned: 1 } }, 'abandoned'],
    ['cs2', 'CS2 Pro League', { disruptions: { ...NO_DISRUPTIONS, abandoned: 1 } }, 'abandoned'],
  ];
  for (const [sport, league, config, status] of cases) {
    test(`${sport} ${status}: every market is graded, undecided ones refunded`, () => {
      const g = play(sport, league, 5, config);
      assert.equal(g.result.status, status);
      for (const m of g.markets) {
        const grade = gradeMarket(m, { sport, result: g.result, playerStats: g.stats });
        assert.equal(grade.status, 'graded', m.key);
        if (grade.status === 'graded') checkShape(m.key, grade.outcomes);
      }
    });
  }
});
