// Simulator settings: margin, price limits, update pacing, fixture horizons, disruption rates and outrights.

export interface DisruptionRates {
  /** Share of fixtures postponed at kick-off. */
  postponed: number;
  /** Share of postponed fixtures that are played within 48 hours; the rest stay postponed and are cancelled later. */
  postponedResumeShare: number;
  /** Share of fixtures cancelled before kick-off. */
  cancelled: number;
  /** Share of fixtures whose kick-off is delayed by a few minutes. */
  delayed: number;
  /** Share of individual-sport fixtures (tennis, darts, snooker, table tennis, MMA, boxing) decided by walkover. */
  walkover: number;
  /** Share of tennis matches ending by retirement. */
  retired: number;
  /** Share of games abandoned while live. */
  abandoned: number;
  /** Share of games interrupted for a while (weather, floodlights) and then resumed. */
  interrupted: number;
}

export interface SimConfig {
  /** Bookmaker margin: implied probabilities of a complete market sum to 1 + margin. */
  margin: number;
  /** Longest price offered; fair prices beyond it are shown at this value. */
  maxOdds: number;
  /** An outcome less likely than this is locked (not offered) rather than priced. */
  minProbability: number;
  /** Shortest simulated interval between two price updates of one live event. */
  repriceMs: number;
  /** Shortest wall-clock interval between price updates of one event (scaled by the speed). */
  repriceWallMs: number;
  /**
   * While a game's clock runs between its engine's steps (a soccer minute), its open book is
   * repriced this often for the time gone by (simulated ms; a real in-play book moves every few
   * seconds), or every `liveTickWallMs × speed` when that is longer. 0: at steps only.
   */
  liveTickMs: number;
  /** Shortest wall-clock interval between two such reprices (scaled by the speed). */
  liveTickWallMs: number;
  /** Clock-only score updates (no score change) at most this often, simulated ms. */
  clockUpdateMs: number;
  /**
   * A live game the simulator has sent nothing about for this long (wall ms, scaled by the speed)
   * gets its current score again, as a real feed's heartbeat: the service locks a live event its
   * feed goes quiet on (STALE_LOCK_SECONDS), and games have quiet spells (a minute between steps,
   * half time). 0: never.
   */
  keepAliveWallMs: number;
  /** Fixture horizon by league tier, hours ahead of now. */
  horizonHours: Readonly<Record<1 | 2 | 3, number>>;
  /** Full market depth (all lines, player props) is published this long before kick-off. */
  fullMarketsLeadMs: number;
  /** Final player stats follow the result after this long. */
  finalStatsDelayMs: number;
  /** Postponed fixtures not resumed are cancelled after this long. */
  postponedCancelAfterMs: number;
  disruptions: DisruptionRates;
  /** Outright (tournament) markets: price refresh interval, simulated ms (interface.md: every 3 hours). */
  outrightRefreshMs: number;
  /** Share of outright markets voided at the end of their tournament instead of settled. */
  outrightVoidRate: number;
  /** Monte Carlo runs behind each outright price. */
  outrightSimulations: number;
  /** Whether the world runs tournaments with outright markets at all. */
  outrights: boolean;
  /** Only these sports (tests); all when absent. */
  sports?: readonly string[];
  /** Only leagues of these tiers (tests); all when absent. */
  tiers?: ReadonlyArray<1 | 2 | 3>;
}

export const DEFAULT_DISRUPTIONS: DisruptionRates = {
  postponed: 0.006,
  postponedResumeShare: 0.5,
  cancelled: 0.003,
  delayed: 0.02,
  walkover: 0.01,
  retired: 0.03,
  abandoned: 0.002,
  interrupted: 0.01,
};

export const NO_DISRUPTIONS: DisruptionRates = {
  postponed: 0,
  postponedResumeShare: 0,
  cancelled: 0,
  delayed: 0,
  walkover: 0,
  retired: 0,
  abandoned: 0,
  interrupted: 0,
};

/** Outright prices are recomputed on this simulated-time grid (interface.md: "every 3 hours"). */
export const OUTRIGHT_REFRESH_MS = 3 * 3_600_000;

export const DEFAULT_SIM_CONFIG: SimConfig = {
  margin: 0.05,
  maxOdds: 1000,
  minProbability: 0.0002,
  repriceMs: 5_000,
  repriceWallMs: 300,
  liveTickMs: 5_000,
  liveTickWallMs: 1_000,
  clockUpdateMs: 30_000,
  keepAliveWallMs: 10_000,
  horizonHours: { 1: 14 * 24, 2: 4 * 24, 3: 36 },
  // A week: a client browsing the coming round sees every market (docs/simulator.md, Depth).
  fullMarketsLeadMs: 7 * 24 * 3_600_000,
  finalStatsDelayMs: 3 * 60_000,
  postponedCancelAfterMs: 72 * 3_600_000,
  disruptions: DEFAULT_DISRUPTIONS,
  outrightRefreshMs: OUTRIGHT_REFRESH_MS,
  outrightVoidRate: 0.02,
  outrightSimulations: 2_000,
  outrights: true,
};

export type SimConfigInput = Partial<Omit<SimConfig, 'disruptions'>> & { disruptions?: Partial<DisruptionRates> };

/** Defaults overlaid with the given settings (disruption rates merged one by one). */
export function resolveConfig(partial: SimConfigInput = {}): SimConfig {
  return {
    ...DEFAULT_SIM_CONFIG,
    ...partial,
    disruptions: { ...DEFAULT_DISRUPTIONS, ...(partial.disruptions ?? {}) },
  };
}
