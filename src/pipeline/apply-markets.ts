// Applies markets, odds and remove_markets messages: validates them against the event, then mutates.
import { acceptsLiveData } from '../domain/lifecycle.js';
import type { Market } from '../domain/types.js';
import type { MarketsMessage, OddsMessage } from '../feed/messages.js';
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

/** Applies price/lock changes in place after checking every selection exists (all or nothing). */
export function applyOddsChanges(
  le: LiveEvent,
  msg: OddsMessage,
): { ok: true; changedSelections: number[] } | { ok: false; message: string } {
  const closed = rejectUnlessOpen(le);
  if (closed !== null) return { ok: false, message: closed };
  const book = le.book;
  // Selections of withdrawn markets no longer take prices: they count as unknown.
  const at = msg.changes.map((c) => {
    const o = book.indexOfSelection(c.selection_id);
    return o >= 0 && book.isWithdrawn(book.marketOfOutcome(o)) ? -1 : o;
  });
  const unknown = msg.changes.filter((_c, k) => (at[k] as number) < 0).map((c) => c.selection_id);
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 10).join(', ');
    return {
      ok: false,
      message: `unknown selection_id ${shown}${unknown.length > 10 ? ` (+${unknown.length - 10} more)` : ''} for event '${le.event.id}'`,
    };
  }
  const changed: number[] = [];
  msg.changes.forEach((c, k) => {
    const o = at[k] as number;
    let moved = false;
    if (c.odds !== undefined) moved = book.setOdds(o, c.odds) || moved;
    if (c.is_locked !== undefined) moved = book.setLocked(o, c.is_locked) || moved;
    if (moved) changed.push(c.selection_id);
  });
  return { ok: true, changedSelections: changed };
}
