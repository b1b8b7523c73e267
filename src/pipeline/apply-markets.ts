// Applies markets, odds and remove_markets messages: validates them against the event, then mutates.
import { acceptsLiveData } from '../domain/lifecycle.js';
import type { Market } from '../domain/types.js';
import type { MarketsMessage } from '../feed/messages.js';
import type { PackedChanges } from '../feed/packed-odds.js';
import type { LiveEvent } from '../live/live-event.js';
import { marketOf } from './map-messages.js';

export function rejectUnlessOpen(le: LiveEvent): string | null {
  if (acceptsLiveData(le.event.status)) return null;
  return `event '${le.event.id}' is '${le.event.status}': its markets can no longer change`;
}

/** The markets of the message that differ from what the event holds, or a reason to reject it. */
export function changedMarkets(
  le: LiveEvent,
  msg: MarketsMessage,
): { ok: true; markets: Market[] } | { ok: false; message: string } {
  const closed = rejectUnlessOpen(le);
  if (closed !== null) return { ok: false, message: closed };
  const book = le.book;
  const markets = msg.markets.map(marketOf);
  for (const m of markets) {
    for (const o of m.outcomes) {
      const at = book.indexOfSelection(o.selectionId);
      if (at < 0) continue;
      const owner = book.marketId(book.marketOfOutcome(at));
      if (owner !== m.marketId) {
        return {
          ok: false,
          message: `selection_id ${o.selectionId} already belongs to market ${owner} of event '${le.event.id}'`,
        };
      }
    }
  }
  return {
    ok: true,
    markets: markets.filter((m) => {
      const i = book.indexOfMarket(m.marketId);
      return i < 0 || !book.sameAs(i, m);
    }),
  };
}

/** What an odds message asks the read model to set: per change, the outcome index in the book, its price (NaN: none) and lock (-1: none). */
export interface PricePlan {
  outcomes: Int32Array;
  odds: Float64Array;
  locks: Int8Array;
}

/**
 * Decides an odds message (all or nothing): every selection must exist in an open market. Pure:
 * the read model applies the plan (ReadModel.applyPrices). The hot path of a live feed (100,000
 * changes a tick): plain loops, no intermediate arrays.
 */
export function planOddsChanges(
  le: LiveEvent,
  changes: PackedChanges,
): ({ ok: true } & PricePlan) | { ok: false; message: string } {
  const closed = rejectUnlessOpen(le);
  if (closed !== null) return { ok: false, message: closed };
  const book = le.book;
  const { ids, odds, locks } = changes;
  const at = new Int32Array(ids.length);
  const withdrawals = book.hasWithdrawn;
  let unknown: number[] | null = null;
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k]!;
    const o = book.indexOfSelection(id);
    // Selections of withdrawn markets no longer take prices: they count as unknown.
    if (o < 0 || (withdrawals && book.isWithdrawn(book.marketOfOutcome(o)))) (unknown ??= []).push(id);
    at[k] = o;
  }
  if (unknown !== null) {
    const shown = unknown.slice(0, 10).join(', ');
    return {
      ok: false,
      message: `unknown selection_id ${shown}${unknown.length > 10 ? ` (+${unknown.length - 10} more)` : ''} for event '${le.event.id}'`,
    };
  }
  return { ok: true, outcomes: at, odds, locks };
}
