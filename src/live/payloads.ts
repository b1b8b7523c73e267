// Serializes read-model events into the exact JSON payloads of interface.md and decisions.md.
import { formatOdds } from '../domain/odds.js';
import { sportByKey } from '../domain/sports.js';
import { decisionOf, type DecidedBy, type DecisionInput } from '../domain/decision.js';
import type { EventStatus, OddsFormat, TeamSide } from '../domain/types.js';
import type { LiveEvent } from './live-event.js';
import type { MarketBook } from './market-book.js';
import { clockOf, periodOf } from './event-fields.js';

/** Statuses whose markets are not returned at all (interface.md: after `ended`, no markets). */
const NO_MARKETS: ReadonlySet<EventStatus> = new Set(['ended', 'cancelled', 'abandoned', 'retired', 'walkover']);
/** Statuses in which every selection is reported locked: play is stopped, nothing can be bet. */
const ALL_LOCKED: ReadonlySet<EventStatus> = new Set(['suspended', 'interrupted', 'postponed']);

export function iso(ms: number): string {
  // A payload's frame is rendered again at every refresh, with the time of the event's last change:
  // the events of one feed body share a few such times, and a Date per refresh was a visible part
  // of reading a ticking world. A small direct-mapped memo (by the low bits of the time).
  const slot = ms & (ISO_SLOTS - 1);
  if (isoKeys[slot] === ms) return isoTexts[slot] as string;
  const text = new Date(ms).toISOString();
  isoKeys[slot] = ms;
  isoTexts[slot] = text;
  return text;
}

const ISO_SLOTS = 256;
const isoKeys = new Float64Array(ISO_SLOTS).fill(NaN);
const isoTexts: string[] = new Array<string>(ISO_SLOTS).fill('');

export function logoUrl(baseUrl: string, logoId: string | null): string {
  return `${baseUrl}/api/logo/${encodeURIComponent(logoId ?? 'default')}`;
}

export function marketsVisible(le: LiveEvent): boolean {
  return !NO_MARKETS.has(le.event.status);
}

/** Whether every selection is reported locked: play is stopped, or the feed went quiet on a live event (stale). */
export function forcedLock(le: LiveEvent): boolean {
  return ALL_LOCKED.has(le.event.status) || le.stale;
}

/** Whether the status alone locks every selection (a stale feed aside). */
export function statusLocks(le: LiveEvent): boolean {
  return ALL_LOCKED.has(le.event.status);
}

/** Markets a client can bet on now: at least one unlocked selection (0 near the end, when all are locked). */
export function openMarketsCount(le: LiveEvent): number {
  if (!marketsVisible(le) || forcedLock(le)) return 0;
  return le.book.openMarketCount();
}

/** Index of the main market: 1x2 where the sport has a draw, else the two-way moneyline; -1 if none. */
export function mainMarketIndex(le: LiveEvent): number {
  const i = le.book.indexOfKey('1x2');
  return i >= 0 ? i : le.book.indexOfKey('moneyline');
}

function mainOdds(le: LiveEvent, format: OddsFormat): { home: unknown; draw: unknown; away: unknown } {
  const odds = { home: null as unknown, draw: null as unknown, away: null as unknown };
  if (!marketsVisible(le)) return odds;
  const i = mainMarketIndex(le);
  if (i < 0) return odds;
  const [a, b] = le.book.outcomeRange(i);
  for (let o = a; o < b; o++) {
    const code = le.book.code(o);
    if (code === 'home' || code === 'draw' || code === 'away') odds[code] = formatOdds(le.book.odds(o), format);
  }
  return odds;
}

/** The Event list item of interface.md. */
export function listItem(le: LiveEvent, format: OddsFormat, baseUrl: string): Record<string, unknown> {
  const e = le.event;
  const sport = sportByKey(e.sport);
  return {
    id: e.id,
    sport: { key: e.sport, name: sport ? sport.name : e.sport },
    league: { slug: e.league.slug, name: e.league.name, country: e.league.country },
    home_team: e.homeTeam,
    away_team: e.awayTeam,
    home_logo: logoUrl(baseUrl, e.homeLogoId),
    away_logo: logoUrl(baseUrl, e.awayLogoId),
    status: e.status,
    start_time: iso(e.startTime),
    score: { home: e.score.home, away: e.score.away },
    clock: clockOf(e),
    period: periodOf(e),
    odds: mainOdds(le, format),
    odds_format: format,
    markets_count: openMarketsCount(le),
    ...decisionFields(e),
    updated_at: iso(e.updatedAt),
  };
}

/** `winner` and `decided_by` of an event as payloads write them (null until it is decided). */
export function decisionFields(e: DecisionInput): { winner: TeamSide | null; decided_by: DecidedBy | null } {
  const d = decisionOf(e);
  return { winner: d.winner, decided_by: d.decidedBy };
}

/** Receives a market's JSON in pieces, so the place of each outcome's odds and lock values can be kept. */
export interface MarketSink {
  /** Fixed text (everything but the odds and lock values). */
  text(s: string): void;
  /** The JSON of outcome o's odds value; `,"is_locked":` and its lock value follow at once. */
  odds(o: number, s: string): void;
  lock(s: string): void;
}

/** The JSON of an outcome's odds in a format. */
export function oddsText(book: MarketBook, o: number, format: OddsFormat): string {
  return JSON.stringify(formatOdds(book.odds(o), format));
}

/** The JSON text of an outcome's lock flag (every selection is locked while play is stopped). */
export function lockText(book: MarketBook, o: number, locked: boolean): string {
  return locked || book.isLocked(o) ? 'true' : 'false';
}

/** Writes one market of the book as JSON into a sink. */
export function writeMarket(book: MarketBook, i: number, format: OddsFormat, locked: boolean, sink: MarketSink): void {
  const [a, b] = book.outcomeRange(i);
  sink.text(
    `{"market_id":${book.marketId(i)},"key":${jsonString(book.key(i))},"name":${jsonString(book.name(i))},"outcomes":[`,
  );
  for (let o = a; o < b; o++) {
    const side = book.teamSide(o);
    sink.text(
      `${o === a ? '' : ','}{"selection_id":${book.selectionId(o)},"code":${jsonString(book.code(o))},"label":${jsonString(book.label(o))},"odds":`,
    );
    sink.odds(o, oddsText(book, o, format));
    sink.text(LOCK_MEMBER);
    sink.lock(lockText(book, o, locked));
    // Opening and closing prices are fixed text: a price change patches `odds` only (the opening
    // price of a book is its current one until the first move, and that move keeps it as it was).
    const closing = book.closingOdds(o);
    sink.text(
      `,"team_side":${side === null ? 'null' : `"${side}"`},"opening_odds":${JSON.stringify(formatOdds(book.openingOdds(o), format))},"closing_odds":${closing === null ? 'null' : JSON.stringify(formatOdds(closing, format))}}`,
    );
  }
  sink.text(']}');
}

/** What separates an outcome's odds value from its lock value. */
export const LOCK_MEMBER = ',"is_locked":';

/** Characters a JSON string must escape (JSON.stringify also escapes lone surrogates). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be found here
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * JSON text of a string. Names and labels almost never need escaping, so they are quoted as they
 * are; a cache keyed by string was tried and thrashed on the millions of distinct labels of a
 * big world.
 */
function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * The text around a payload's markets array (`{"id":…,"markets":` and `,"updated_at":…}`): small,
 * and rendered again at every refresh because it carries fields that move with every change.
 */
export interface PayloadFrame {
  prefix: string;
  suffix: string;
}

/** The Odds payload around its markets array: event id, status, format; then updated_at. */
export function oddsFrame(le: LiveEvent, format: OddsFormat): PayloadFrame {
  const head = JSON.stringify({ id: le.event.id, status: le.event.status, odds_format: format });
  return {
    prefix: `${head.slice(0, -1)},"markets":`,
    suffix: `,"updated_at":${JSON.stringify(iso(le.event.updatedAt))}}`,
  };
}

/** The single-event detail record around its markets: list item + commence_time, sport_data, scoreboard, period_scores. */
export function detailFrame(le: LiveEvent, format: OddsFormat, baseUrl: string): PayloadFrame {
  const e = le.event;
  const item = listItem(le, format, baseUrl);
  item.commence_time = iso(e.startTime);
  item.sport_data = e.sportData;
  item.scoreboard = e.scoreboard;
  item.period_scores = e.periodScores.map((p) => ({ period: p.period, home: p.home, away: p.away }));
  return { prefix: `${JSON.stringify(item).slice(0, -1)},"markets":`, suffix: '}' };
}

/** A batch lookup item around its markets: the list item, then every market in full. */
export function batchItemFrame(le: LiveEvent, format: OddsFormat, baseUrl: string): PayloadFrame {
  return { prefix: `${JSON.stringify(listItem(le, format, baseUrl)).slice(0, -1)},"markets":`, suffix: '}' };
}
