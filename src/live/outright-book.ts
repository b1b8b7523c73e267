// Outright tournaments, their futures markets and results as last committed (listing, discovery, bet check).
import { sportOrder } from '../domain/sports.js';
import {
  offeredSelections,
  type OutrightMarket,
  type OutrightResult,
  type TournamentInfo,
} from '../domain/outrights.js';
import type { ChangeLog } from './change-log.js';
import { outrightEntry } from './log-entries.js';

export interface Tournament extends TournamentInfo {
  markets: Map<number, OutrightMarket>;
  /** Results of the settled markets; a market with a result is no longer offered. */
  results: Map<number, OutrightResult>;
}

/** A committed change, already checked against the book (see pipeline/apply-outright.ts). */
export type OutrightChange =
  | { kind: 'tournament'; tournament: TournamentInfo }
  | { kind: 'market'; tournamentId: string; market: OutrightMarket }
  | { kind: 'result'; tournamentId: string; marketId: number; result: OutrightResult };

/** A tournament as listed: its open markets by market id. */
export interface ListedTournament {
  tournament: Tournament;
  markets: OutrightMarket[];
}

export class OutrightBook {
  readonly tournaments = new Map<string, Tournament>();
  /** Raised by every change: payloads built before it are stale. */
  version = 0;

  /** `log`: where every change is appended (the stream's `outright` events). */
  constructor(private readonly log: ChangeLog | null = null) {}

  apply(change: OutrightChange): void {
    this.version++;
    this.applyToBook(change);
    if (this.log === null) return;
    const t = this.tournaments.get(change.kind === 'tournament' ? change.tournament.tournamentId : change.tournamentId);
    if (t === undefined) return;
    const at =
      change.kind === 'market' ? change.market.updatedAt : change.kind === 'result' ? change.result.settledAt : 0;
    this.log.append(
      outrightEntry(
        t,
        change.kind,
        at,
        change.kind === 'market' ? change.market : null,
        change.kind === 'result' ? { marketId: change.marketId, result: change.result } : null,
      ),
    );
  }

  private applyToBook(change: OutrightChange): void {
    switch (change.kind) {
      case 'tournament': {
        const { tournamentId, tournament, sport, sportId } = change.tournament;
        const old = this.tournaments.get(tournamentId);
        if (old === undefined) {
          this.tournaments.set(tournamentId, {
            tournamentId,
            tournament,
            sport,
            sportId,
            markets: new Map(),
            results: new Map(),
          });
        } else Object.assign(old, { tournament, sport, sportId });
        return;
      }
      case 'market':
        this.tournaments.get(change.tournamentId)?.markets.set(change.market.marketId, change.market);
        return;
      case 'result':
        this.tournaments.get(change.tournamentId)?.results.set(change.marketId, change.result);
        return;
    }
  }

  /** Markets still offered (not settled, with a selection not eliminated), by market id. */
  openMarkets(t: Tournament): OutrightMarket[] {
    return [...t.markets.values()]
      .filter((m) => !t.results.has(m.marketId) && offeredSelections(m).length > 0)
      .sort((a, b) => a.marketId - b.marketId);
  }

  /**
   * Tournaments with at least one open market (of one sport, or all), in catalog sport order, then
   * tournament name, then id: the order of `GET /v1/outrights`.
   */
  listed(sportKey?: string): ListedTournament[] {
    const out: ListedTournament[] = [];
    for (const t of this.tournaments.values()) {
      if (sportKey !== undefined && t.sport !== sportKey) continue;
      const markets = this.openMarkets(t);
      if (markets.length > 0) out.push({ tournament: t, markets });
    }
    return out.sort(
      (a, b) =>
        sportOrder(a.tournament.sport) - sportOrder(b.tournament.sport) ||
        a.tournament.tournament.localeCompare(b.tournament.tournament, 'en') ||
        (a.tournament.tournamentId < b.tournament.tournamentId
          ? -1
          : a.tournament.tournamentId > b.tournament.tournamentId
            ? 1
            : 0),
    );
  }

  /** Tournaments with an open market, counted per sport key. */
  tournamentCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const t of this.tournaments.values()) {
      if (this.openMarkets(t).length > 0) counts.set(t.sport, (counts.get(t.sport) ?? 0) + 1);
    }
    return counts;
  }

  /** Sport keys with at least one tournament that has an open market. */
  sports(): Set<string> {
    return new Set(this.tournamentCounts().keys());
  }
}
