// The events-list query as the read model understands it (already validated by the API).
import type { EventStatus } from '../domain/types.js';

export type StatusFilter = 'default' | 'all' | 'live' | 'prematch' | 'ended';

export interface EventQuery {
  status: StatusFilter;
  /** Sport key, or null for all sports. */
  sport: string | null;
  /** Exact league slug or a case-insensitive part of the league name. */
  league: string | null;
  /** Case-insensitive part of the country (an exact country matches too). */
  country: string | null;
  /** Start-time window, epoch ms: `fromMs` inclusive, `toMs` exclusive. */
  fromMs: number | null;
  toMs: number | null;
  /** Only prematch events starting before now + this many ms. */
  startsWithinMs: number | null;
  limit: number;
  offset: number;
}

const DEFAULT_HIDDEN: ReadonlySet<EventStatus> = new Set(['ended', 'cancelled', 'abandoned', 'retired', 'walkover']);

export function statusMatches(filter: StatusFilter, status: EventStatus): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'default':
      return !DEFAULT_HIDDEN.has(status);
    default:
      return status === filter;
  }
}

/** A stable cache key for a query (every field that changes the answer). */
export function queryKey(q: EventQuery): string {
  return [q.status, q.sport, q.league, q.country, q.fromMs, q.toMs, q.startsWithinMs, q.limit, q.offset].join('|');
}
