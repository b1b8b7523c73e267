// Finished simulated games for the settlement benchmarks: their feed messages, and their final book as domain markets.
import { settlementPhase } from '../src/domain/families/index.js';
import type { GradingInput } from '../src/domain/grading/types.js';
import { parseMarketKey } from '../src/domain/market-key.js';
import type { EventResult, Market, PlayerStats } from '../src/domain/types.js';
import { playerCounters, type FeedMessage } from '../src/feed/messages.js';
import { NO_DISRUPTIONS } from '../src/feed/simulator/config.js';
import { playOneGame } from '../src/feed/simulator/single-game.js';
import { buildWorld, type World } from '../src/feed/simulator/world.js';

const DAY_MS = 86_400_000;

export interface FinishedGame {
  eventId: string;
  sport: string;
  messages: FeedMessage[];
}

export interface GameOptions {
  seed: number;
  sport: string;
  /** Fixtures of one league on one day share an id: distinct days give distinct events. */
  day: number;
  teams?: [number, number];
  world: World;
}

/** The simulator's worlds are deterministic, so one per seed is enough for every game of a run. */
export function benchWorld(seed = 1): World {
  return buildWorld(seed);
}

/**
 * One whole game without disruptions (so it always ends with a result and final stats), published
 * at noon of `day` days after 2025-01-01 (a fixed date: the figures do not depend on the calendar).
 */
export function finishedGame(o: GameOptions): FinishedGame {
  const publishAt = Date.parse('2025-01-01T12:00:00Z') + o.day * DAY_MS;
  const { messages } = playOneGame({
    seed: o.seed,
    sport: o.sport,
    tier: 1,
    publishAt,
    world: o.world,
    config: { disruptions: NO_DISRUPTIONS },
    ...(o.teams !== undefined ? { teams: o.teams } : {}),
  });
  const fixture = messages.find((m) => m.type === 'fixture');
  if (fixture === undefined) throw new Error(`the ${o.sport} game of seed ${o.seed} has no fixture`);
  if (!messages.some((m) => m.type === 'result'))
    throw new Error(`the ${o.sport} game of seed ${o.seed} has no result`);
  return { eventId: fixture.event_id, sport: fixture.sport, messages };
}

export interface FinalBook {
  eventId: string;
  sport: string;
  markets: Market[];
  input: GradingInput;
}

/** The book as it stood at the end (every `markets` message merged, the last odds applied), with the result and final stats. */
export function finalBook(game: FinishedGame): FinalBook {
  const markets = new Map<number, Market>();
  const bySelection = new Map<number, Market['outcomes'][number]>();
  let result: EventResult | null = null;
  let playerStats: PlayerStats | null = null;
  for (const m of game.messages) {
    if (m.type === 'markets') {
      for (const def of m.markets) {
        const market: Market = {
          marketId: def.market_id,
          key: def.key,
          name: def.name,
          outcomes: def.outcomes.map((o) => ({
            selectionId: o.selection_id,
            code: o.code,
            label: o.label,
            odds: o.odds,
            teamSide: o.team_side ?? null,
            isLocked: o.is_locked ?? false,
          })),
        };
        markets.set(def.market_id, market);
        for (const o of market.outcomes) bySelection.set(o.selectionId, o);
      }
    } else if (m.type === 'odds') {
      for (const c of m.changes) {
        const o = bySelection.get(c.selection_id);
        if (o === undefined) continue;
        if (c.odds !== undefined) o.odds = c.odds;
        if (c.is_locked !== undefined) o.isLocked = c.is_locked;
      }
    } else if (m.type === 'result') {
      // As the pipeline archives it (src/pipeline/apply-result.ts): the winner only when the feed names one.
      const endedAt = Date.parse(m.ended_at ?? m.ts ?? '');
      result = {
        eventId: m.event_id,
        status: m.status,
        score: { home: m.score.home, away: m.score.away },
        periodScores: (m.period_scores ?? []).map((p) => ({ period: p.period, home: p.home, away: p.away })),
        winner: m.winner ?? null,
        endedAt,
        revision: 1,
        recordedAt: endedAt,
      };
    } else if (m.type === 'stats') {
      playerStats = {
        players: m.players.map((p) => ({
          playerId: p.player_id,
          name: p.name,
          team: p.team,
          counters: playerCounters(p),
        })),
        final: m.final ?? false,
      };
    }
  }
  if (result === null) throw new Error(`${game.eventId} has no result`);
  return {
    eventId: game.eventId,
    sport: game.sport,
    markets: [...markets.values()],
    input: { sport: game.sport, result, playerStats },
  };
}

/** Full-game main markets, the ones the requirement times: settlement's phase 0, from the family descriptors. */
export function isMainMarket(key: string): boolean {
  const k = parseMarketKey(key);
  return k !== null && settlementPhase(k.family, k.period) === 0;
}

export function isPlayerProp(key: string): boolean {
  const k = parseMarketKey(key);
  return k !== null && settlementPhase(k.family, k.period) === 2;
}
