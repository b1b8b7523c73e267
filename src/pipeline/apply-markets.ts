// Applies markets, odds and remove_markets messages: validates them against the event, then mutates.
import { acceptsLiveData } from '../domain/lifecycle.js';
import type { Market } from '../domain/types.js';
import type { MarketsMessage, OddsMessage } from '../feed/messages.js';
import type { LiveEvent } from '../live/live-event.js';
import { marketOf, sameJson } from './map-messages.js';

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
  const markets = msg.markets.map(marketOf);
  for (const m of markets) {
    for (const o of m.outcomes) {
      const owner = le.selections.get(o.selectionId);
      if (owner !== undefined && owner.market.marketId !== m.marketId) {
        return {
          ok: false,
          message: `selection_id ${o.selectionId} already belongs to market ${owner.market.marketId} of event '${le.event.id}'`,
        };
      }
    }
  }
  return { ok: true, markets: markets.filter((m) => !sameJson(m, le.markets.get(m.marketId))) };
}

/** Applies price/lock changes in place after checking every selection exists (all or nothing). */
export function applyOddsChanges(
  le: LiveEvent,
  msg: OddsMessage,
): { ok: true; changedMarkets: Set<number> } | { ok: false; message: string } {
  const closed = rejectUnlessOpen(le);
  if (closed !== null) return { ok: false, message: closed };
  const unknown = msg.changes.filter((c) => !le.selections.has(c.selection_id)).map((c) => c.selection_id);
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 10).join(', ');
    return {
      ok: false,
      message: `unknown selection_id ${shown}${unknown.length > 10 ? ` (+${unknown.length - 10} more)` : ''} for event '${le.event.id}'`,
    };
  }
  const changed = new Set<number>();
  for (const c of msg.changes) {
    const ref = le.selections.get(c.selection_id);
    if (ref === undefined) continue;
    const o = ref.outcome;
    if (c.odds !== undefined && c.odds !== o.odds) {
      o.odds = c.odds;
      changed.add(ref.market.marketId);
    }
    if (c.is_locked !== undefined && c.is_locked !== o.isLocked) {
      o.isLocked = c.is_locked;
      changed.add(ref.market.marketId);
    }
  }
  return { ok: true, changedMarkets: changed };
}
