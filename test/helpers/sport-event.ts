// A read model's event for unit tests: a soccer fixture at T0 + 1 h, prematch, with whatever a test overrides.
import type { SportEvent } from '../../src/domain/types.js';

export const EVENT_T0 = Date.parse('2026-03-01T12:00:00Z');

export function sportEvent(id: string, over: Partial<SportEvent> = {}): SportEvent {
  return {
    id,
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    homeTeam: `H ${id}`,
    awayTeam: `A ${id}`,
    homeLogoId: null,
    awayLogoId: null,
    startTime: EVENT_T0 + 3_600_000,
    status: 'prematch',
    score: { home: 0, away: 0 },
    period: '',
    clock: null,
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: EVENT_T0,
    statusChangedAt: EVENT_T0,
    endedAt: null,
    playerStats: null,
    ...over,
  };
}
