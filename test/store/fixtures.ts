// Sample domain objects for store tests: small, deterministic, every optional field exercised.
import type { EventResult, Market, SportEvent } from '../../src/domain/types.js';
import type { ApiKeyRecord, StoredEvent, WriteBatch } from '../../src/store/store.js';

export const T0 = Date.UTC(2025, 4, 17, 12, 0, 0);

export function sampleEvent(id: string, overrides: Partial<SportEvent> = {}): SportEvent {
  return {
    id,
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    homeTeam: `Home ${id}`,
    awayTeam: `Away ${id}`,
    homeLogoId: `logo-h-${id}`,
    awayLogoId: null,
    startTime: T0,
    status: 'prematch',
    score: { home: 0, away: 0 },
    period: '',
    clock: null,
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: T0 - 60_000,
    statusChangedAt: T0 - 60_000,
    endedAt: null,
    playerStats: null,
    ...overrides,
  };
}

export function liveEvent(id: string): SportEvent {
  return sampleEvent(id, {
    status: 'live',
    score: { home: 2, away: 1 },
    period: '2H',
    clock: '67:12',
    periodScores: [{ period: '1H', home: 1, away: 1 }],
    sportData: { possession: { home: 55, away: 45 }, cards: [{ side: 'home', minute: 12 }], var: true },
    scoreboard: { headers: ['1H', '2H', 'T'], home: [1, 1, 2], away: [1, 0, 1] },
    updatedAt: T0 + 67 * 60_000,
    statusChangedAt: T0,
  });
}

export function sampleMarket(marketId: number, odds = 1.9): Market {
  return {
    marketId,
    key: `totals:${(marketId % 7) + 0.5}`,
    name: `Total goals ${marketId}`,
    outcomes: [
      { selectionId: marketId * 10 + 1, code: 'over', label: 'Over', odds, teamSide: null, isLocked: false },
      { selectionId: marketId * 10 + 2, code: 'under', label: 'Under', odds: 2.05, teamSide: null, isLocked: true },
    ],
  };
}

export function sampleResult(eventId: string, overrides: Partial<EventResult> = {}): EventResult {
  return {
    eventId,
    status: 'ended',
    score: { home: 3, away: 1 },
    periodScores: [
      { period: '1H', home: 1, away: 1 },
      { period: '2H', home: 2, away: 0 },
    ],
    winner: 'home',
    endedAt: T0 + 115 * 60_000,
    revision: 1,
    recordedAt: T0 + 116 * 60_000,
    ...overrides,
  };
}

export function sampleKey(id: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id,
    keyHash: `sha256-${id}`.padEnd(64, '0'),
    name: `key ${id}`,
    plan: 'free',
    createdAt: T0,
    lastUsedAt: null,
    revokedAt: null,
    accountId: null,
    ...overrides,
  };
}

export const EMPTY_BATCH: WriteBatch = { events: [], markets: [], removedMarkets: [] };

export function batch(parts: Partial<WriteBatch>): WriteBatch {
  return { ...EMPTY_BATCH, ...parts };
}

/** An event with `count` markets at positions 0..count-1, as one batch. */
export function eventWithMarkets(event: SportEvent, marketIds: readonly number[]): WriteBatch {
  return batch({
    events: [event],
    markets: marketIds.map((id, position) => ({ eventId: event.id, position, market: sampleMarket(id) })),
  });
}

/** Loaded events without their stored positions, for comparing contents (positions are tested on their own). */
export function contentsOf(loaded: StoredEvent[]): Array<Pick<StoredEvent, 'event' | 'markets'>> {
  return loaded.map(({ event, markets }) => ({ event, markets }));
}
