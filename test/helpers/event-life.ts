// A soccer event's whole life as feed bodies (fixture, markets, prices, goals, result), seeded: what the scale-out stream tests feed.
import type { Rng } from '../../src/feed/simulator/rng.js';
import { clusterMarkets } from './cluster.js';
import type { SseEvent } from './sse.js';

const MARKETS = 4; // selections 1-3 (1x2), then two a market: 9 in all

function fixture(id: string): object {
  return {
    type: 'fixture',
    event_id: id,
    sport: 'soccer',
    league: { slug: 'nodes', name: 'Nodes League', country: 'Testland' },
    home_team: `${id} Home`,
    away_team: `${id} Away`,
    start_time: new Date(Date.now() - 30 * 60_000).toISOString(),
  };
}

/** An event's whole life in feed bodies: fixture and markets, live, moving prices and goals, the result. */
export function lifeOf(id: string, rng: Rng): object[][] {
  const bodies: object[][] = [
    [fixture(id), clusterMarkets(id, MARKETS)],
    [{ type: 'status', event_id: id, status: 'live' }],
  ];
  let home = 0;
  for (let i = 0; i < 10; i++) {
    bodies.push([
      {
        type: 'odds',
        event_id: id,
        changes: [
          { selection_id: 1 + Math.floor(rng.next() * 9), odds: Math.round(rng.uniform(1.2, 6) * 100) / 100 },
          {
            selection_id: 1 + Math.floor(rng.next() * 9),
            odds: Math.round(rng.uniform(1.2, 6) * 100) / 100,
            is_locked: rng.next() < 0.2,
          },
        ],
      },
    ]);
    if (rng.next() < 0.3) bodies.push([{ type: 'score', event_id: id, score: { home: ++home, away: 0 } }]);
  }
  bodies.push([{ type: 'result', event_id: id, status: 'ended', score: { home, away: 0 } }]);
  return bodies;
}

/** Whether every event's settlement has arrived complete. */
export const settled = (ids: readonly string[]) => (events: SseEvent[]) =>
  ids.every((id) => events.some((e) => e.event === 'settlement' && e.data.event_id === id && e.data.settled === true));

/** An event as compared between clients: its id, name and data. */
export const view = (e: SseEvent): string => `${e.id ?? ''} ${e.event} ${e.text}`;
