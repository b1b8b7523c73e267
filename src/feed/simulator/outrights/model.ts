// What a tournament model (league season or knockout) offers the edition: progress, fair prices, final results.
import type { Rng } from '../rng.js';
import type { PlaceShare } from './dead-heat.js';
import type { Racer } from './race.js';

/** The market kinds of a tournament; each one's index is part of its market id, so it never changes. */
export const MARKET_KINDS = ['winner', 'top', 'final', 'relegation', 'race', 'race_top'] as const;
export type MarketKind = (typeof MARKET_KINDS)[number];

/** Fair probabilities by market kind, indexed by team (league index) or racer position. */
export type FairTable = Partial<Record<MarketKind, Float64Array>>;

/** Winners by market kind: a team or racer position and its dead-heat factor. */
export type FinalTable = Partial<Record<MarketKind, PlaceShare[]>>;

export interface TournamentModel {
  /** Teams (league indices) taking part, favourites first: the selection order of team markets. */
  readonly entrants: readonly number[];
  readonly racers: readonly Racer[];
  /** Rounds played so far. */
  readonly played: number;
  /** Plays the rounds up to `rounds` (never backwards). */
  advanceTo(rounds: number): void;
  /** Fair probabilities of every market from the current state. */
  fair(sims: number, rng: Rng): FairTable;
  /** Winners of every market once all rounds are played. */
  final(): FinalTable;
  /**
   * Selections (team league indices or racer positions) of a market that can no longer win it
   * whatever happens in the rounds left: knocked out, or out of reach on points.
   */
  eliminated(kind: MarketKind): ReadonlySet<number>;
}
