// Turns validated wire-format feed messages into domain values (snake_case → the domain model).
import { canonicalMarketKey } from '../domain/market-key.js';
import type { League, Market, PeriodScore, PlayerStats, Scoreboard, SportEvent } from '../domain/types.js';
import { playerCounters, type FixtureMessage, type MarketDef, type StatsMessage } from '../feed/messages.js';

export const DEFAULT_TIER = 3;

export function leagueOf(msg: FixtureMessage): League {
  return {
    slug: msg.league.slug,
    name: msg.league.name,
    country: msg.league.country,
    tier: msg.league.tier ?? DEFAULT_TIER,
  };
}

export function newEventFromFixture(msg: FixtureMessage, at: number): SportEvent {
  return {
    id: msg.event_id,
    sport: msg.sport,
    league: leagueOf(msg),
    homeTeam: msg.home_team,
    awayTeam: msg.away_team,
    homeLogoId: msg.home_logo_id ?? null,
    awayLogoId: msg.away_logo_id ?? null,
    startTime: Date.parse(msg.start_time),
    status: 'prematch',
    score: { home: 0, away: 0 },
    period: '',
    clock: null,
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: at,
    statusChangedAt: at,
    endedAt: null,
    playerStats: null,
  };
}

export function playerStatsOf(msg: StatsMessage): PlayerStats {
  return {
    players: msg.players.map((p) => ({
      playerId: p.player_id,
      name: p.name,
      team: p.team,
      counters: playerCounters(p),
    })),
    final: msg.final ?? false,
  };
}

export function marketOf(def: MarketDef): Market {
  return {
    marketId: def.market_id,
    // The feed schema already checked the grammar; this writes the canonical spelling.
    key: canonicalMarketKey(def.key) ?? def.key,
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
}

export function periodScoresOf(list: Array<{ period: string; home: number; away: number }>): PeriodScore[] {
  return list.map((p) => ({ period: p.period, home: p.home, away: p.away }));
}

export function scoreboardOf(sb: {
  headers: string[];
  home: Array<number | string>;
  away: Array<number | string>;
}): Scoreboard {
  return { headers: [...sb.headers], home: [...sb.home], away: [...sb.away] };
}

/** Structural equality of plain JSON-like values (for no-op detection of re-delivered messages). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && sameJson(ra[k], rb[k]));
}
