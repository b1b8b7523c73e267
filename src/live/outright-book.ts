// Outright tournaments and their futures markets as last fed (listing and settlement build on it).

export interface OutrightSelection {
  selectionId: number;
  selection: string;
  odds: number;
}

export interface OutrightMarket {
  marketId: number;
  market: string;
  selections: OutrightSelection[];
  updatedAt: number;
}

export interface OutrightSettlement {
  winners: Array<{ selectionId: number; deadHeatFactor: number | null }>;
  void: boolean;
  settledAt: number;
}

export interface Tournament {
  tournamentId: string;
  tournament: string;
  sport: string;
  sportId: number;
  markets: Map<number, OutrightMarket>;
  settlements: Map<number, OutrightSettlement>;
}

export type BookChange = { ok: true; changed: boolean } | { ok: false; message: string };

export class OutrightBook {
  readonly tournaments = new Map<string, Tournament>();

  upsertTournament(t: { tournamentId: string; tournament: string; sport: string; sportId: number }): BookChange {
    const old = this.tournaments.get(t.tournamentId);
    if (old === undefined) {
      this.tournaments.set(t.tournamentId, { ...t, markets: new Map(), settlements: new Map() });
      return { ok: true, changed: true };
    }
    if (old.tournament === t.tournament && old.sport === t.sport && old.sportId === t.sportId) {
      return { ok: true, changed: false };
    }
    Object.assign(old, t);
    return { ok: true, changed: true };
  }

  upsertMarket(tournamentId: string, market: OutrightMarket): BookChange {
    const t = this.tournaments.get(tournamentId);
    if (t === undefined) return { ok: false, message: `unknown tournament '${tournamentId}' (send it first)` };
    if (t.settlements.has(market.marketId)) {
      return { ok: false, message: `outright market ${market.marketId} of '${tournamentId}' is already settled` };
    }
    const old = t.markets.get(market.marketId);
    if (old !== undefined && old.market === market.market && sameSelections(old.selections, market.selections)) {
      return { ok: true, changed: false };
    }
    t.markets.set(market.marketId, market);
    return { ok: true, changed: true };
  }

  settle(tournamentId: string, marketId: number, s: OutrightSettlement): BookChange {
    const t = this.tournaments.get(tournamentId);
    if (t === undefined) return { ok: false, message: `unknown tournament '${tournamentId}'` };
    const m = t.markets.get(marketId);
    if (m === undefined) return { ok: false, message: `unknown outright market ${marketId} of '${tournamentId}'` };
    const ids = new Set(m.selections.map((x) => x.selectionId));
    const stranger = s.winners.find((w) => !ids.has(w.selectionId));
    if (stranger !== undefined) {
      return { ok: false, message: `selection_id ${stranger.selectionId} is not in outright market ${marketId}` };
    }
    const old = t.settlements.get(marketId);
    if (old !== undefined && old.void === s.void && JSON.stringify(old.winners) === JSON.stringify(s.winners)) {
      return { ok: true, changed: false };
    }
    t.settlements.set(marketId, s);
    return { ok: true, changed: true };
  }

  /** Sport keys that have at least one tournament. */
  sports(): Set<string> {
    return new Set([...this.tournaments.values()].map((t) => t.sport));
  }
}

function sameSelections(a: OutrightSelection[], b: OutrightSelection[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i];
      return y !== undefined && x.selectionId === y.selectionId && x.selection === y.selection && x.odds === y.odds;
    })
  );
}
