// Applies tournament, outright_market and outright_result messages to the outright book.
import { sportByKey } from '../domain/sports.js';
import type { OutrightMarketMessage, OutrightResultMessage, TournamentMessage } from '../feed/messages.js';
import type { BookChange, OutrightBook } from '../live/outright-book.js';

export function applyOutright(
  book: OutrightBook,
  msg: TournamentMessage | OutrightMarketMessage | OutrightResultMessage,
  at: number,
): BookChange {
  switch (msg.type) {
    case 'tournament': {
      const sport = sportByKey(msg.sport);
      if (sport === undefined) return { ok: false, message: `unknown sport '${msg.sport}'` };
      return book.upsertTournament({
        tournamentId: msg.tournament_id,
        tournament: msg.tournament,
        sport: sport.key,
        sportId: sport.sportId,
      });
    }
    case 'outright_market':
      return book.upsertMarket(msg.tournament_id, {
        marketId: msg.market_id,
        market: msg.market,
        selections: msg.selections.map((s) => ({ selectionId: s.selection_id, selection: s.selection, odds: s.odds })),
        updatedAt: at,
      });
    case 'outright_result':
      return book.settle(msg.tournament_id, msg.market_id, {
        winners: (msg.winners ?? []).map((w) => ({
          selectionId: w.selection_id,
          deadHeatFactor: w.dead_heat_factor ?? null,
        })),
        void: msg.void === true,
        settledAt: at,
      });
  }
}
