// Mapping between domain objects and the store's rows (JSON documents for events and markets).
import type { EventResult, FinalStatus, Market, PeriodScore, SportEvent, TeamSide } from '../domain/types.js';
import type { ApiKeysTable, EventsTable, MarketsTable, ResultsTable } from './schema.js';
import type { ApiKeyRecord } from './store.js';

/**
 * JSON.stringify that fails loudly: `undefined` (a function, a bare undefined) would otherwise be
 * stored as nothing and come back as a different object.
 */
function toJson(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (typeof text !== 'string') throw new TypeError(`${what} cannot be stored as JSON`);
  return text;
}

// Documents are only ever written by this module, so a parsed document has the shape it was
// written with; the casts below trust our own writes rather than re-validating every restart.
function fromJson<T>(text: string): T {
  const value: unknown = JSON.parse(text);
  return value as T;
}

export function eventToRow(event: SportEvent): EventsTable {
  return {
    id: event.id,
    sport: event.sport,
    league_slug: event.league.slug,
    status: event.status,
    start_time: event.startTime,
    updated_at: event.updatedAt,
    ended_at: event.endedAt,
    doc: toJson(event, `event ${event.id}`),
  };
}

export function rowToEvent(row: Pick<EventsTable, 'doc'>): SportEvent {
  const event = fromJson<SportEvent>(row.doc);
  // Documents written before player statistics existed have no such field.
  event.playerStats ??= null;
  return event;
}

export function marketToRow(eventId: string, position: number, market: Market, seq = 0): MarketsTable {
  return {
    event_id: eventId,
    market_id: market.marketId,
    position,
    seq,
    doc: toJson(market, `market ${market.marketId} of event ${eventId}`),
  };
}

export function rowToMarket(row: Pick<MarketsTable, 'doc'>): Market {
  return fromJson<Market>(row.doc);
}

export function resultToRow(result: EventResult): ResultsTable {
  return {
    event_id: result.eventId,
    status: result.status,
    home: result.score.home,
    away: result.score.away,
    period_scores: toJson(result.periodScores, `period scores of result ${result.eventId}`),
    winner: result.winner,
    ended_at: result.endedAt,
    revision: result.revision,
    recorded_at: result.recordedAt,
  };
}

export function rowToResult(row: ResultsTable): EventResult {
  return {
    eventId: row.event_id,
    status: row.status as FinalStatus,
    score: { home: Number(row.home), away: Number(row.away) },
    periodScores: fromJson<PeriodScore[]>(row.period_scores),
    winner: row.winner as TeamSide | null,
    endedAt: Number(row.ended_at),
    revision: Number(row.revision),
    recordedAt: Number(row.recorded_at),
  };
}

export function apiKeyToRow(key: ApiKeyRecord): ApiKeysTable {
  return {
    id: key.id,
    key_hash: key.keyHash,
    name: key.name,
    plan: key.plan,
    created_at: key.createdAt,
    last_used_at: key.lastUsedAt,
    revoked_at: key.revokedAt,
    account_id: key.accountId,
  };
}

// Number() because some drivers (node-postgres) hand 64-bit integers back as strings.
const nullableNumber = (v: number | null): number | null => (v === null ? null : Number(v));

export function rowToApiKey(row: ApiKeysTable): ApiKeyRecord {
  return {
    id: row.id,
    keyHash: row.key_hash,
    name: row.name,
    plan: row.plan,
    createdAt: Number(row.created_at),
    lastUsedAt: nullableNumber(row.last_used_at),
    revokedAt: nullableNumber(row.revoked_at),
    accountId: row.account_id,
  };
}
