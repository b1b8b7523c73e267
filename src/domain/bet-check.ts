// Bet check arithmetic: what a single or a parlay returns from its legs' results (exact, half outcomes included).

/**
 * Bounds of what a client may send (docs/api.md): with at most 20 legs, odds up to MAX_ODDS and a
 * stake up to MAX_STAKE, combined odds (<= 1e120) and payout (<= 1e132) are always finite numbers.
 */
export const MAX_LEGS = 20;
export const MAX_ODDS = 1_000_000;
export const MAX_STAKE = 1_000_000_000_000;

export type LegResult = 'won' | 'lost' | 'refund' | 'pending';

export interface LegOutcome {
  result: LegResult;
  /** Decimal odds the leg was taken at (>= 1). */
  odds: number;
  /** Refunded share of a half-won or half-lost leg (quarter lines): 0.5. */
  voidFactor?: number;
  /** Share of the win paid in a dead heat (outrights): e.g. 0.5. */
  deadHeatFactor?: number;
}

export interface BetCheck {
  status: 'won' | 'lost' | 'refund' | 'pending';
  /**
   * Product of the legs' odds: a refund counts 1.00, a half outcome or dead heat its effective odds,
   * a wholly lost leg the odds it was taken at (the parlay's real price; its payout is 0).
   */
  combinedOdds: number;
  /** What the bet returns for `stake` (0 if lost, the stake if refunded); null while pending. */
  payout: number | null;
}

/** What one unit staked on a settled leg returns. */
export function legFactor(leg: LegOutcome): number {
  const v = leg.voidFactor ?? 0;
  const dh = leg.deadHeatFactor ?? 1;
  switch (leg.result) {
    case 'won':
      // The refunded share comes back at 1.00; of the rest, the dead-heat share wins at the odds.
      return v + (1 - v) * dh * leg.odds;
    case 'lost':
      return v;
    case 'refund':
      return 1;
    case 'pending':
      return leg.odds;
  }
}

const round = (x: number, digits: number): number => {
  // Beyond 2^53 a double has no fractional digits to round, and scaling it up could overflow.
  if (!(Math.abs(x) < 1e15)) return x;
  const f = 10 ** digits;
  return Math.round((x + Number.EPSILON) * f) / f;
};

/**
 * Settles a bet of one or more legs; `stake` defaults to 1 for deciding the status. Odds the
 * service took from its feed are not bounded like a client's: the caller checks that the figures
 * are finite (`isFiniteCheck`) before answering with them.
 */
export function checkBet(legs: readonly LegOutcome[], stake = 1): BetCheck {
  const combined = legs.reduce((p, leg) => p * (whollyLost(leg) ? leg.odds : legFactor(leg)), 1);
  const lost = legs.some(whollyLost);
  const pending = legs.some((l) => l.result === 'pending');
  if (pending && !lost) return { status: 'pending', combinedOdds: round(combined, 4), payout: null };
  const payout = lost ? 0 : round(stake * combined, 2);
  const status = payout > stake ? 'won' : payout === round(stake, 2) ? 'refund' : 'lost';
  return { status, combinedOdds: round(combined, 4), payout };
}

/** A lost leg with nothing refunded: the whole bet is lost, whatever the other legs do. */
function whollyLost(leg: LegOutcome): boolean {
  return leg.result === 'lost' && (leg.voidFactor ?? 0) === 0;
}

/** Whether every figure of a check is a finite number (a product of huge odds can overflow to Infinity). */
export function isFiniteCheck(check: BetCheck): boolean {
  return Number.isFinite(check.combinedOdds) && (check.payout === null || Number.isFinite(check.payout));
}
