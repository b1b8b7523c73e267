// Checks tournament, outright_market and outright_result messages against the outright book: the change to commit.
import {
  normalizeWinners,
  outrightEntries,
  sameOutcome,
  type OutrightEntry,
  type OutrightSelection,
} from '../domain/outrights.js';
import { sportByKey } from '../domain/sports.js';
import type { OutrightMarketMessage, OutrightResultMessage, TournamentMessage } from '../feed/messages.js';
import type { OutrightBook, OutrightChange } from '../live/outright-book.js';

/**
 * What a message does: rejected with a reason, nothing (a re-delivery), or one change to store and
 * then apply to the book. A result carries the feed entries it replaces the market's entries with.
 * Nothing here mutates the book, so a change the store refuses leaves no trace.
 */
export type OutrightPlan =
  | { ok: false; message: string }
  | { ok: true; change: null }
  | { ok: true; change: OutrightChange; entries: OutrightEntry[] };

const unchanged: OutrightPlan = { ok: true, change: null };

export function planOutright(
  book: OutrightBook,
  msg: TournamentMessage | OutrightMarketMessage | OutrightResultMessage,
  at: number,
): OutrightPlan {
  switch (msg.type) {
    case 'tournament': {
      const sport = sportByKey(msg.sport);
      if (sport === undefined) return { ok: false, message: `unknown sport '${msg.sport}'` };
      const old = book.tournaments.get(msg.tournament_id);
      if (old !== undefined && old.tournament === msg.tournament && old.sport === sport.key) return unchanged;
      return {
        ok: true,
        change: {
          kind: 'tournament',
          tournament: {
            tournamentId: msg.tournament_id,
            tournament: msg.tournament,
            sport: sport.key,
            sportId: sport.sportId,
          },
        },
        entries: [],
      };
    }
    case 'outright_market': {
      const t = book.tournaments.get(msg.tournament_id);
      if (t === undefined) return { ok: false, message: `unknown tournament '${msg.tournament_id}' (send it first)` };
      if (t.results.has(msg.market_id)) {
        return { ok: false, message: `outright market ${msg.market_id} of '${msg.tournament_id}' is already settled` };
      }
      const selections = msg.selections.map((s): OutrightSelection => ({
        selectionId: s.selection_id,
        selection: s.selection,
        odds: s.odds,
        ...(s.eliminated === true ? { eliminated: true as const } : {}),
      }));
      const old = t.markets.get(msg.market_id);
      if (
        old !== undefined &&
        old.market === msg.market &&
        old.selections.length === selections.length &&
        old.selections.every((x, i) => {
          const y = selections[i];
          return (
            y !== undefined &&
            x.selectionId === y.selectionId &&
            x.selection === y.selection &&
            x.odds === y.odds &&
            x.eliminated === y.eliminated
          );
        })
      ) {
        return unchanged;
      }
      return {
        ok: true,
        change: {
          kind: 'market',
          tournamentId: t.tournamentId,
          market: { marketId: msg.market_id, market: msg.market, selections, updatedAt: at },
        },
        entries: [],
      };
    }
    case 'outright_result': {
      const t = book.tournaments.get(msg.tournament_id);
      if (t === undefined) return { ok: false, message: `unknown tournament '${msg.tournament_id}'` };
      const m = t.markets.get(msg.market_id);
      if (m === undefined) {
        return { ok: false, message: `unknown outright market ${msg.market_id} of '${msg.tournament_id}'` };
      }
      const ids = new Set(m.selections.map((x) => x.selectionId));
      const stranger = (msg.winners ?? []).find((w) => !ids.has(w.selection_id));
      if (stranger !== undefined) {
        return {
          ok: false,
          message: `selection_id ${stranger.selection_id} is not in outright market ${msg.market_id}`,
        };
      }
      const isVoid = msg.void === true;
      const result = {
        winners: isVoid
          ? []
          : normalizeWinners(
              (msg.winners ?? []).map((w) => ({ selectionId: w.selection_id, deadHeatFactor: w.dead_heat_factor })),
            ),
        void: isVoid,
        settledAt: at,
      };
      const old = t.results.get(msg.market_id);
      // The same result again changes nothing (not even settled_at); a different one is a correction.
      if (old !== undefined && sameOutcome(old, result)) return unchanged;
      return {
        ok: true,
        change: { kind: 'result', tournamentId: t.tournamentId, marketId: m.marketId, result },
        entries: outrightEntries(t, m, result),
      };
    }
  }
}
