// Builds change-log entries from the read state at the moment it changes (their facts are copied, not referenced).
import type { OutrightMarket, OutrightResult, TournamentInfo } from '../domain/outrights.js';
import type { ResolvedMarket } from '../domain/resolved-market.js';
import type { EventResult, Market, Outcome, SportEvent } from '../domain/types.js';
import type { JsonEntry, MarketsEntry, OddsEntry, OutrightEntry } from './log-entry.js';
import type { LiveEvent } from './live-event.js';
import { decisionFields, iso } from './payloads.js';
import { clockOf, periodOf } from './event-fields.js';
import { ColumnSlab } from './column-slab.js';

/** Bytes an entry costs besides its facts (object, position, strings shared with the event). */
const ENTRY_OVERHEAD = 160;

/** Why every selection of an event is locked, or null: the stream's `status` events carry it. */
export type LockReason = 'suspended' | 'interrupted' | 'postponed' | 'stale_feed';

function base(e: SportEvent, at: number): { eventId: string; sport: string; league: string; at: number } {
  return { eventId: e.id, sport: e.sport, league: e.league.slug, at };
}

function jsonEntry(kind: JsonEntry['kind'], e: SportEvent, at: number, data: object): Omit<JsonEntry, 'position'> {
  const json = JSON.stringify(data);
  return { kind, ...base(e, at), json, bytes: jsonEntryBytes(json) };
}

// The memory estimates of each kind of entry, shared with the entries a restart decodes (log-codec.ts).
export function jsonEntryBytes(json: string): number {
  return ENTRY_OVERHEAD + 2 * json.length;
}

/** Where odds entries' columns are carved from, unless the caller keeps a slab of its own. */
const defaultSlab = new ColumnSlab();

export function oddsEntryBytes(n: number): number {
  return ENTRY_OVERHEAD + 29 * n;
}

export function marketsEntryBytes(added: readonly Market[], withdrawn: number, repriced: number): number {
  let bytes = ENTRY_OVERHEAD + 8 * withdrawn;
  for (const m of added) bytes += 120 + 2 * (m.key.length + m.name.length) + 96 * m.outcomes.length;
  return bytes + repriced;
}

export function outrightEntryBytes(market: OutrightMarket | null, resultJson: string | null): number {
  return ENTRY_OVERHEAD + (market === null ? 0 : 64 * market.selections.length) + (resultJson?.length ?? 0) * 2;
}

/** A new event, new fixture facts or a new status, with the event's lock. */
export function statusEntry(
  kind: 'fixture' | 'status',
  e: SportEvent,
  lockReason: LockReason | null,
): Omit<JsonEntry, 'position'> {
  return jsonEntry(kind, e, e.updatedAt, {
    event_id: e.id,
    sport: e.sport,
    league: { slug: e.league.slug, name: e.league.name, country: e.league.country },
    home_team: e.homeTeam,
    away_team: e.awayTeam,
    start_time: iso(e.startTime),
    status: e.status,
    is_locked: lockReason !== null,
    lock_reason: lockReason,
    updated_at: iso(e.updatedAt),
  });
}

export function scoreEntry(e: SportEvent): Omit<JsonEntry, 'position'> {
  return jsonEntry('score', e, e.updatedAt, {
    event_id: e.id,
    status: e.status,
    score: { home: e.score.home, away: e.score.away },
    clock: clockOf(e),
    period: periodOf(e),
    period_scores: e.periodScores.map((p) => ({ period: p.period, home: p.home, away: p.away })),
    sport_data: e.sportData,
    scoreboard: e.scoreboard,
    updated_at: iso(e.updatedAt),
  });
}

export function statsEntry(e: SportEvent): Omit<JsonEntry, 'position'> {
  return jsonEntry('stats', e, e.updatedAt, { event_id: e.id, final: e.playerStats?.final ?? false });
}

export function resultEntry(e: SportEvent, r: EventResult): Omit<JsonEntry, 'position'> {
  return jsonEntry('result', e, r.recordedAt, {
    event_id: e.id,
    status: r.status,
    score: { home: r.score.home, away: r.score.away },
    period_scores: r.periodScores.map((p) => ({ period: p.period, home: p.home, away: p.away })),
    ...decisionFields(r),
    ended_at: iso(r.endedAt),
    revision: r.revision,
  });
}

/** What a committed settlement batch changed: the entry's new counts and the markets it just resolved. */
export interface SettlementChange {
  revision: number;
  resolvedCount: number;
  totalCount: number;
  pendingCount: number;
  /** A correction re-graded every market (the result was revised). */
  correction: boolean;
  resolved: readonly ResolvedMarket[];
  updatedAt: number;
}

export function settlementEntry(e: SportEvent, s: SettlementChange): Omit<JsonEntry, 'position'> {
  return jsonEntry('settlement', e, s.updatedAt, {
    event_id: e.id,
    revision: s.revision,
    resolved_markets_count: s.resolvedCount,
    total_markets_count: s.totalCount,
    pending_markets_count: s.pendingCount,
    settled: s.pendingCount === 0,
    correction: s.correction,
    resolved_markets: s.resolved,
    updated_at: iso(s.updatedAt),
  });
}

export function evictedEntry(e: SportEvent, at: number): Omit<JsonEntry, 'position'> {
  return jsonEntry('evicted', e, at, { event_id: e.id });
}

/**
 * Selection ids the caller already holds for the outcomes of an odds entry: `ids[ks[k]]` is the id
 * of `outcomes[k]` (a feed message's own ids, in cache, where the book's id column is not).
 */
export interface KnownIds {
  ids: Float64Array;
  ks: ArrayLike<number>;
}

/** The prices and locks of the given outcomes as they are now. */
export function oddsEntry(
  le: LiveEvent,
  outcomes: ArrayLike<number>,
  allLocked: boolean,
  slab: ColumnSlab = defaultSlab,
  known: KnownIds | null = null,
): Omit<OddsEntry, 'position'> {
  const n = outcomes.length;
  const book = le.book;
  // The four columns side by side in a shared slab: many entries a tick, and a backing store of
  // their own cost more than the loop that fills them. (A feed's ticks take the packed path of
  // ReadModel.applyPrices instead; this one is for ids the compact form cannot hold.)
  const { buffer: buf, offset: at } = slab.take(25 * n);
  const marketIds = new Float64Array(buf, at, n);
  const selectionIds = new Float64Array(buf, at + 8 * n, n);
  const odds = new Float64Array(buf, at + 16 * n, n);
  const locked = new Uint8Array(buf, at + 24 * n, n);
  book.marketIdsOf(outcomes, marketIds);
  for (let k = 0; k < n; k++) {
    const o = outcomes[k] as number;
    selectionIds[k] = known === null ? book.selectionId(o) : (known.ids[known.ks[k] as number] as number);
    odds[k] = book.odds(o);
    locked[k] = allLocked || book.isLocked(o) ? 1 : 0;
  }
  const e = le.event;
  return {
    kind: 'odds',
    // Fields rather than a spread of base(): 1,000 of these a capacity tick.
    eventId: e.id,
    sport: e.sport,
    league: e.league.slug,
    at: e.updatedAt,
    count: n,
    layout: book.layout,
    packed: null,
    changes: { marketIds, selectionIds, odds, locked },
    bytes: oddsEntryBytes(n),
  };
}

/** Markets added or changed (copied with their prices now) and markets withdrawn. */
export function marketsEntry(
  le: LiveEvent,
  added: readonly Market[],
  withdrawn: readonly number[],
  allLocked: boolean,
  repriced: Uint8Array = new Uint8Array(0),
): Omit<MarketsEntry, 'position'> {
  // The book (already holding these markets) knows each selection's opening and closing price.
  const book = le.book;
  // Literals of one shape rather than spreads: a load copies 1,000 markets an event this way.
  const copies = added.map((m): Market => {
    const outcomes = m.outcomes.map((o): Outcome => {
      const i = book.indexOfSelection(o.selectionId);
      return {
        selectionId: o.selectionId,
        code: o.code,
        label: o.label,
        odds: o.odds,
        teamSide: o.teamSide,
        isLocked: allLocked || o.isLocked,
        openingOdds: i >= 0 ? book.openingOdds(i) : (o.openingOdds ?? o.odds),
        closingOdds: i >= 0 ? book.closingOdds(i) : (o.closingOdds ?? null),
      };
    });
    const copy: Market = { marketId: m.marketId, key: m.key, name: m.name, outcomes };
    if (m.withdrawn !== undefined) copy.withdrawn = m.withdrawn;
    return copy;
  });
  return {
    kind: 'markets',
    ...base(le.event, le.event.updatedAt),
    added: copies,
    withdrawn: [...withdrawn],
    repriced,
    bytes: marketsEntryBytes(copies, withdrawn.length, repriced.length),
  };
}

export function outrightEntry(
  t: TournamentInfo,
  change: OutrightEntry['change'],
  at: number,
  market: OutrightMarket | null,
  result: { marketId: number; result: OutrightResult } | null,
): Omit<OutrightEntry, 'position'> {
  const resultJson =
    result === null
      ? null
      : JSON.stringify({
          market_id: result.marketId,
          void: result.result.void,
          winners: result.result.winners.map((w) => ({
            selection_id: w.selectionId,
            dead_heat_factor: w.deadHeatFactor,
          })),
          settled_at: iso(result.result.settledAt),
        });
  const copy = market === null ? null : { ...market, selections: market.selections.map((s) => ({ ...s })) };
  return {
    kind: 'outright',
    eventId: t.tournamentId,
    sport: t.sport,
    league: '',
    at,
    tournament: t.tournament,
    change,
    market: copy,
    resultJson,
    bytes: outrightEntryBytes(copy, resultJson),
  };
}
