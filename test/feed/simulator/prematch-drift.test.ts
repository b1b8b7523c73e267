// Prematch books move before kick-off (drift.ts): prices change over world hours, seeded, the same after a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage, MarketDef } from '../../../src/feed/messages.js';
import { NO_DISRUPTIONS, resolveConfig } from '../../../src/feed/simulator/config.js';
import { DRIFT, driftAt, nextDriftAt } from '../../../src/feed/simulator/drift.js';
import { SimGame } from '../../../src/feed/simulator/game.js';
import { playOneGame } from '../../../src/feed/simulator/single-game.js';
import { epochDayOf, eventNumber } from '../../../src/feed/simulator/ids.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-09T15:00:00Z');
const PUBLISH = START - 60 * HOUR;
const world = buildWorld(2026);
const config = resolveConfig({ disruptions: NO_DISRUPTIONS });

function game(sport: string, seed = 7): SimGame {
  const league = world.leagues.find((l) => l.sport === sport)!;
  return new SimGame(
    {
      eventNum: eventNumber(league.index, epochDayOf(START), 0),
      league,
      home: league.teams[0]!,
      away: league.teams[1]!,
      startTime: START,
      publishAt: PUBLISH,
    },
    { seed, config, repriceMs: config.repriceMs },
  );
}

/** Plays the game's prematch from `from` (opening it there) up to `until`; the messages, in order. */
function prematch(g: SimGame, from: number, until: number): FeedMessage[] {
  if (from > PUBLISH) g.playSilentlyTo(from);
  const out = g.open(from);
  for (let at = g.nextAt(); at <= until; at = g.nextAt()) out.push(...g.run(at));
  return out;
}

/** The price of every selection after the messages, by selection id. */
function prices(ms: FeedMessage[]): Map<number, number> {
  const p = new Map<number, number>();
  for (const m of ms) {
    if (m.type === 'markets')
      for (const mk of m.markets as MarketDef[]) for (const o of mk.outcomes) p.set(o.selection_id, o.odds);
    if (m.type === 'odds') for (const c of m.changes) if (c.odds !== undefined) p.set(c.selection_id, c.odds);
  }
  return p;
}

describe('prematch drift', () => {
  it('moves main prices over 9 world hours in every sport, with odds messages stamped at world instants', () => {
    const sports = [...new Set(world.leagues.map((l) => l.sport))];
    for (const sport of sports) {
      const ms = prematch(game(sport), PUBLISH, PUBLISH + 9 * HOUR);
      const first = ms.find((m) => m.type === 'markets');
      assert.ok(first?.type === 'markets', sport);
      const main = first.markets[0]!;
      const later = prices(ms);
      const moved = main.outcomes.some((o) => later.get(o.selection_id) !== o.odds);
      assert.ok(moved, `${sport}: ${main.key} did not move in 9 world hours`);
      const odds = ms.filter((m) => m.type === 'odds');
      assert.ok(
        odds.length >= 1 && odds.length <= 3,
        `${sport}: ${odds.length} moves in 9 hours (at most one per 4 hours)`,
      );
      for (const m of odds) assert.ok(Date.parse(m.ts!) > PUBLISH && Date.parse(m.ts!) <= PUBLISH + 9 * HOUR);
    }
  });

  it('moves more often in the last hours before kick-off', () => {
    const ms = prematch(game('soccer'), START - 4 * HOUR, START - 1);
    const odds = ms.filter((m) => m.type === 'odds');
    assert.ok(odds.length >= 5, `${odds.length} moves in the last 4 hours`);
  });

  it('a restart with the same seed prices the event the same at the same world instant', () => {
    const at = PUBLISH + 30 * HOUR;
    const uninterrupted = prices(prematch(game('ice_hockey'), PUBLISH, at));
    const restarted = prices(prematch(game('ice_hockey'), at, at));
    assert.ok(restarted.size > 0);
    for (const [id, odds] of restarted) assert.equal(uninterrupted.get(id), odds, `selection ${id}`);
    const other = prices(prematch(game('ice_hockey', 8), at, at));
    assert.notDeepEqual([...other.values()], [...restarted.values()], 'another seed drifts otherwise');
  });

  it('the drift is a pure function of the seed, event and world time, bounded', () => {
    const t = START - 2 * HOUR;
    assert.equal(driftAt(1, 42, START, t), driftAt(1, 42, START, t));
    assert.notEqual(driftAt(1, 42, START, t), driftAt(1, 43, START, t));
    for (let e = 0; e < 200; e++) assert.ok(Math.abs(driftAt(3, e, START, START)) <= DRIFT.maxAbs);
    assert.equal(nextDriftAt(START, START), null);
    assert.equal(nextDriftAt(START, START - DRIFT.nearStepMs - 1), START - DRIFT.nearStepMs);
  });

  it('closes in on the engine by kick-off: the first in-play price follows on from the closing one', () => {
    // It used to jump at kick-off, 0-0, by the whole drift (basketball 1.42/2.91 -> 1.54/2.5).
    for (const sport of ['basketball', 'baseball', 'tennis', 'soccer', 'ice_hockey']) {
      for (const seed of [1, 2, 3, 4]) {
        const { messages } = playOneGame({
          seed,
          world,
          sport,
          tier: 1,
          publishAt: Date.parse('2026-03-07T10:00:00Z'),
          config: { disruptions: NO_DISRUPTIONS },
        });
        let main: number[] | null = null;
        const price = new Map<number, number>();
        let closing: number[] | null = null;
        let opening: number[] | null = null;
        for (const m of messages) {
          if (m.type === 'markets' && main === null) {
            const mk = m.markets.find((x) => x.key === 'moneyline' || x.key === '1x2');
            if (mk !== undefined) main = mk.outcomes.map((o) => o.selection_id);
          }
          if (m.type === 'markets')
            for (const mk of m.markets) for (const o of mk.outcomes) price.set(o.selection_id, o.odds);
          if (m.type === 'odds') for (const c of m.changes) if (c.odds !== undefined) price.set(c.selection_id, c.odds);
          if (main === null) continue;
          if (m.type === 'status' && m.status === 'live' && closing === null)
            closing = main.map((id) => price.get(id)!);
          else if (closing !== null && opening === null && m.type === 'odds') {
            if (m.changes.some((c) => main!.includes(c.selection_id) && c.odds !== undefined))
              opening = main.map((id) => price.get(id)!);
          }
        }
        assert.ok(closing !== null && opening !== null, `${sport} seed ${seed}: priced before and in play`);
        // Implied chances, each outcome: within 2 points (what 5 minutes of closing in and the first play move).
        closing.forEach((c, i) => {
          const gap = Math.abs(1 / c - 1 / opening![i]!);
          assert.ok(
            gap <= 0.02,
            `${sport} seed ${seed}: ${closing!.join('/')} at kick-off, then ${opening!.join('/')}`,
          );
        });
      }
    }
  });
});
