// The domain model: events, markets, outcomes, scores and results as the service holds them internally.

/** Statuses of an event as reported in event payloads (`prematch` is interface.md's `upcoming`). */
export const EVENT_STATUSES = [
  'prematch',
  'live',
  'ended',
  'cancelled',
  'postponed',
  'suspended',
  'delayed',
  'interrupted',
  'abandoned',
  'retired',
  'walkover',
] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** Statuses reported by the result endpoint. */
export const RESULT_STATUSES = [
  'ended',
  'not_ended',
  'postponed',
  'delayed',
  'cancelled',
  'abandoned',
  'retired',
  'suspended',
  'interrupted',
  'walkover',
] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

export type TeamSide = 'home' | 'away';

export interface Score {
  home: number;
  away: number;
}

export interface PeriodScore {
  period: string;
  home: number;
  away: number;
}

export interface Scoreboard {
  headers: string[];
  home: Array<number | string>;
  away: Array<number | string>;
}

export interface League {
  slug: string;
  name: string;
  country: string;
  /** 1 = top tier; drives featured events. */
  tier: number;
}

export interface Outcome {
  selectionId: number;
  /** Canonical machine code (`home`, `over`, `2-1`…); grading reads this, never the label. */
  code: string;
  label: string;
  /** Decimal odds, always >= 1.01. A locked outcome keeps its last odds. */
  odds: number;
  teamSide: TeamSide | null;
  isLocked: boolean;
  /** The first price (kept by the read model; absent on a feed message). */
  openingOdds?: number;
  /** The last prematch price once the event went live; null when the market was added live. */
  closingOdds?: number | null;
}

export interface Market {
  marketId: number;
  /** Canonical market key `family[@period][:line]`. */
  key: string;
  name: string;
  outcomes: Outcome[];
  /**
   * Withdrawn by the producer (`remove_markets`): no longer offered or returned, but kept so the
   * bets taken on it before still settle. Absent means offered.
   */
  withdrawn?: boolean;
}

/** One player's line of statistics: counters such as goals, assists, points, cards, kills. */
export interface PlayerLine {
  playerId: string | number;
  name: string;
  team: TeamSide;
  counters: Record<string, number>;
}

/** The latest player statistics of an event; `final` lets player-prop markets settle. */
export interface PlayerStats {
  players: PlayerLine[];
  final: boolean;
}

/** An event without its markets: fixture, state and live score. Times are epoch milliseconds. */
export interface SportEvent {
  id: string;
  sport: string;
  league: League;
  homeTeam: string;
  awayTeam: string;
  homeLogoId: string | null;
  awayLogoId: string | null;
  startTime: number;
  status: EventStatus;
  score: Score;
  /** Empty string before kick-off. */
  period: string;
  clock: string | null;
  periodScores: PeriodScore[];
  sportData: Record<string, unknown> | null;
  scoreboard: Scoreboard | null;
  updatedAt: number;
  /** When the status last changed (the 48-hour rule and the scores buffer read it). */
  statusChangedAt: number;
  /**
   * When the event first went live (world ms): the instant its closing prices were fixed. Absent
   * before kick-off, and in documents written before it was kept.
   */
  liveAt?: number;
  endedAt: number | null;
  /**
   * Whether the event was priced before its scheduled start while not live (or while delayed or
   * postponed): only then are the prices it has when it goes live its closing prices. `false`: first
   * priced after its start (a game in progress when a producer or the service started); absent
   * before it is priced, and in documents written before this was kept.
   */
  pricedPrematch?: boolean;
  /**
   * Markets first offered after the scheduled start while the event was still `prematch` (its live
   * status lagging): their prices are in-play ones, so they get no closing price when it goes live.
   * Absent when there are none.
   */
  lateMarkets?: number[];
  /** Latest player statistics, null until a `stats` message arrives. */
  playerStats: PlayerStats | null;
  /** The winner the official result named (absent until a result names one: the score tells). */
  winner?: TeamSide | null;
  /**
   * Only in the stored document: the event was locked for a stale feed when it was written (the
   * read model holds this as `LiveEvent.stale`), so a restart or a replica's reload keeps the lock.
   */
  feedStale?: true;
}

/** Statuses a `result` message may carry: `ended` or a final non-ended status. */
export type FinalStatus = 'ended' | 'cancelled' | 'abandoned' | 'retired' | 'walkover';

/** The official result of an event: kept forever. */
export interface EventResult {
  eventId: string;
  status: FinalStatus;
  score: Score;
  periodScores: PeriodScore[];
  winner: TeamSide | null;
  endedAt: number;
  /** 1 for the first result, raised by each correction. */
  revision: number;
  recordedAt: number;
}

export type OddsFormat = 'decimal' | 'american' | 'fractional' | 'fractional_exact';
export const ODDS_FORMATS: readonly OddsFormat[] = ['decimal', 'american', 'fractional', 'fractional_exact'];
