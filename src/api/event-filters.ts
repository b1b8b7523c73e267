// Parses the events-list query (dates, windows, status, sport) into the read model's EventQuery.
import { badRequest } from '../domain/errors.js';
import { sportByKey, SPORT_KEYS } from '../domain/sports.js';
import type { EventQuery, StatusFilter } from '../live/event-query.js';
import { daysIn } from './instants.js';

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY_MS };

/**
 * `YYYY-MM-DD` (a real calendar day, as JSON Schema's `format: date` says) → epoch ms of 00:00 UTC,
 * or a 400 naming the parameter. The route's schema has checked it already (schemas/params.ts).
 */
export function parseDay(value: string, param: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = m === null ? [0, 0, 0] : [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m === null || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) {
    throw badRequest(`query parameter '${param}' must be a date YYYY-MM-DD (UTC), got '${value}'`);
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getTime();
}

/** `{number}{m|h|d}` → milliseconds (the route's schema has checked its range: schemas/params.ts). */
export function parseWindow(value: string, param: string): number {
  const m = /^(\d{1,6})([mhd])$/.exec(value);
  const n = m ? Number(m[1]) : 0;
  if (!m || n < 1 || n * (UNIT_MS[m[2] as string] as number) > 366 * DAY_MS) {
    throw badRequest(`query parameter '${param}' must look like 30m, 6h or 2d (at most 366 days), got '${value}'`);
  }
  return n * (UNIT_MS[m[2] as string] as number);
}

/** A sport key, `all`, or absent (the route's schema has checked it is one: SportParam); an unknown key is a 400. */
export function parseSport(value: string | undefined): string | null {
  if (value === undefined || value === 'all') return null;
  if (sportByKey(value) === undefined) {
    throw badRequest(
      `query parameter 'sport' is not a known sport key: '${value}' (use all, ${SPORT_KEYS.join(', ')})`,
    );
  }
  return value;
}

export interface EventListParams {
  sport?: string;
  status?: string;
  league?: string;
  country?: string;
  date?: string;
  from?: string;
  to?: string;
  starts_within?: string;
  limit?: number;
  offset?: number;
}

const STATUS: Record<string, StatusFilter> = {
  live: 'live',
  prematch: 'prematch',
  upcoming: 'prematch',
  ended: 'ended',
  all: 'all',
};

export function toEventQuery(q: EventListParams, fixedStatus?: StatusFilter): EventQuery {
  if (q.date !== undefined && (q.from !== undefined || q.to !== undefined)) {
    throw badRequest("query parameter 'date' cannot be combined with 'from' or 'to'");
  }
  let fromMs: number | null = null;
  let toMs: number | null = null;
  if (q.date !== undefined) {
    fromMs = parseDay(q.date, 'date');
    toMs = fromMs + DAY_MS;
  }
  if (q.from !== undefined) fromMs = parseDay(q.from, 'from');
  if (q.to !== undefined) toMs = parseDay(q.to, 'to') + DAY_MS;
  if (fromMs !== null && toMs !== null && toMs <= fromMs) {
    throw badRequest("query parameter 'to' must not be before 'from'");
  }
  let status: StatusFilter = fixedStatus ?? 'default';
  if (fixedStatus === undefined && q.status !== undefined) {
    const s = STATUS[q.status];
    if (s === undefined) {
      throw badRequest(
        `query parameter 'status' must be one of: live, prematch, upcoming, ended, all (got '${q.status}')`,
      );
    }
    status = s;
  }
  const startsWithinMs = q.starts_within === undefined ? null : parseWindow(q.starts_within, 'starts_within');
  return {
    status,
    sport: parseSport(q.sport),
    league: q.league ?? null,
    country: q.country ?? null,
    fromMs,
    toMs,
    startsWithinMs,
    limit: q.limit ?? 50,
    offset: q.offset ?? 0,
  };
}
