// Market depth of major leagues: every tier-1 soccer event offers 1,000+ markets once its full book is out, days ahead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { DEFAULT_SIM_CONFIG, resolveConfig } from '../../../src/feed/simulator/config.js';
import { SimGame } from '../../../src/feed/simulator/game.js';
import { epochDayOf, eventNumber } from '../../../src/feed/simulator/ids.js';
import { buildWorld } from '../../../src/feed/simulator/world.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-03-07T15:00:00Z');
const WORLD = buildWorld(42);

/** Markets of the published book with at least one selection open (what `markets_count` counts). */
function openMarkets(messages: readonly FeedMessage[]): number {
  const open = new Set<number>();
  for (const m of messages) {
    if (m.type !== 'markets') continue;
    for (const mk of m.markets) if (mk.outcomes.some((o) => o.is_locked !== true)) open.add(mk.market_id);
  }
  return open.size;
}

function publish(leagueIndex: number, home: number, away: number, leadMs: number): FeedMessage[] {
  const league = WORLD.leagues[leagueIndex]!;
  const config = resolveConfig({});
  const game = new SimGame(
    {
      eventNum: eventNumber(league.index, epochDayOf(START), 0),
      league,
      home: league.teams[home]!,
      away: league.teams[away]!,
      startTime: START,
      publishAt: START - leadMs,
    },
    { seed: 42, config, repriceMs: config.repriceMs },
  );
  return game.open(START - leadMs);
}

describe('market depth of major leagues', () => {
  const majors = WORLD.leagues.filter((l) => l.sport === 'soccer' && l.tier === 1);

  // Player props use lines each player can reach (pricing/soccer.ts, propLines): at kick-off no prop
  // is priced at the bounds and locked, so the whole full book is open.
  it('every tier-1 soccer event offers 1,000+ open markets on the day (many pairings, every league)', () => {
    for (const l of majors) {
      for (const [h, a] of [
        [0, 1],
        [2, 9],
        [5, 17],
        [11, 3],
        [15, 16],
      ] as const) {
        const n = openMarkets(publish(l.index, h, a, 3 * HOUR));
        assert.ok(n >= 1000, `${l.name} ${l.teams[h]!.name} v ${l.teams[a]!.name}: ${n} open markets`);
      }
    }
  });

  it('no player prop is published locked: each line is one the player can reach', () => {
    const l = majors[0]!;
    const props = new Map<number, boolean>();
    for (const m of publish(l.index, 0, 1, 3 * HOUR)) {
      if (m.type !== 'markets') continue;
      for (const mk of m.markets)
        if (mk.key.startsWith('player_'))
          props.set(
            mk.market_id,
            mk.outcomes.some((o) => o.is_locked !== true),
          );
    }
    assert.ok(props.size >= 700, `${props.size} player props`);
    const locked = [...props.values()].filter((open) => !open).length;
    assert.equal(locked, 0, `${locked} of ${props.size} player props published with every selection locked`);
  });

  it('the full book is out a week ahead, so a client browsing the next days sees it', () => {
    assert.ok(DEFAULT_SIM_CONFIG.fullMarketsLeadMs >= 7 * DAY);
    const l = majors[0]!;
    // As many open markets six days out as on the day.
    assert.equal(openMarkets(publish(l.index, 0, 1, 6 * DAY)), openMarkets(publish(l.index, 0, 1, 3 * HOUR)));
    assert.ok(openMarkets(publish(l.index, 0, 1, 6 * DAY)) >= 800);
  });
});
