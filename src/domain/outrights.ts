// Outright (futures) markets: tournaments, their markets, a market's result and the feed entries it yields.

export interface TournamentInfo {
  tournamentId: string;
  tournament: string;
  /** Sport key (`tennis`). */
  sport: string;
  /** The sport's catalog id (src/domain/sports.ts). */
  sportId: number;
}

export interface OutrightSelection {
  selectionId: number;
  selection: string;
  /** Last decimal odds fed. */
  odds: number;
  /** Knocked out or out of reach: not offered, still settled (lost) and checkable. Absent otherwise. */
  eliminated?: true;
}

/** Selections still offered: every one the feed has not marked eliminated. */
export function offeredSelections(m: OutrightMarket): OutrightSelection[] {
  return m.selections.filter((s) => s.eliminated !== true);
}

export interface OutrightMarket {
  marketId: number;
  market: string;
  /** In the producer's order. */
  selections: OutrightSelection[];
  updatedAt: number;
}

export interface OutrightWinner {
  selectionId: number;
  /** Share of the stake paid at full odds in a dead heat (< 1); null for a whole win. */
  deadHeatFactor: number | null;
}

/** How an outright market settled: its winners, or void (everything refunded). */
export interface OutrightResult {
  /** Sorted by selection id; empty when void. */
  winners: OutrightWinner[];
  void: boolean;
  settledAt: number;
}

export type OutrightEntryResult = 'won' | 'lost' | 'refund';

/** One row of the outright settlement feed: one selection of a settled market. */
export interface OutrightEntry {
  entryId: string;
  tournamentId: string;
  tournament: string;
  marketId: number;
  market: string;
  selectionId: number;
  selection: string;
  result: OutrightEntryResult;
  /** Present (< 1) on a winner of a dead heat. */
  deadHeatFactor: number | null;
  settledAt: number;
  /** Sport key. */
  sport: string;
}

/**
 * The canonical form of a result's winners: ordered by selection id, a factor of 1 (or more) meaning
 * a whole win. Two deliveries of the same result compare equal whatever order the producer used.
 */
export function normalizeWinners(winners: ReadonlyArray<{ selectionId: number; deadHeatFactor?: number | null }>) {
  return winners
    .map((w): OutrightWinner => ({
      selectionId: w.selectionId,
      deadHeatFactor:
        w.deadHeatFactor !== undefined && w.deadHeatFactor !== null && w.deadHeatFactor < 1 ? w.deadHeatFactor : null,
    }))
    .sort((a, b) => a.selectionId - b.selectionId);
}

/** Whether two results settle the market the same way (settled_at aside): a re-delivery, not a correction. */
export function sameOutcome(a: OutrightResult, b: OutrightResult): boolean {
  return (
    a.void === b.void &&
    a.winners.length === b.winners.length &&
    a.winners.every((w, i) => {
      const v = b.winners[i];
      return v !== undefined && v.selectionId === w.selectionId && v.deadHeatFactor === w.deadHeatFactor;
    })
  );
}

/** interface.md: the entry id joins tournament id, market id, selection id and result with colons. */
export function outrightEntryId(tournamentId: string, marketId: number, selectionId: number, result: string): string {
  return `${tournamentId}:${marketId}:${selectionId}:${result}`;
}

/** What a selection of a settled market returns: won (maybe a dead heat), lost, or refund when void. */
export function selectionOutcome(
  result: OutrightResult,
  selectionId: number,
): { result: OutrightEntryResult; deadHeatFactor: number | null } {
  if (result.void) return { result: 'refund', deadHeatFactor: null };
  const winner = result.winners.find((w) => w.selectionId === selectionId);
  return winner === undefined
    ? { result: 'lost', deadHeatFactor: null }
    : { result: 'won', deadHeatFactor: winner.deadHeatFactor };
}

/** The feed entries of a settled market: one per selection, in the market's selection order. */
export function outrightEntries(t: TournamentInfo, m: OutrightMarket, result: OutrightResult): OutrightEntry[] {
  return m.selections.map((s) => {
    const o = selectionOutcome(result, s.selectionId);
    return {
      entryId: outrightEntryId(t.tournamentId, m.marketId, s.selectionId, o.result),
      tournamentId: t.tournamentId,
      tournament: t.tournament,
      marketId: m.marketId,
      market: m.market,
      selectionId: s.selectionId,
      selection: s.selection,
      result: o.result,
      deadHeatFactor: o.deadHeatFactor,
      settledAt: result.settledAt,
      sport: t.sport,
    };
  });
}
