// Turns fair probabilities into decimal odds: margin shared (evenly on two-way markets, else proportionally), clamped to [1.01, maxOdds], 2 decimals.
import { MIN_DECIMAL_ODDS } from '../../../domain/odds.js';

export interface MarginOptions {
  margin: number;
  maxOdds: number;
}

/**
 * Odds for the outcomes of one market. On a two-way market (two outcomes with a chance) the
 * overround is shared evenly: each implied probability is p + margin × Σp / 2, the way books lean
 * it on the long shot (a 95.5% favourite at 1.02 against 14.3, not 1.01 — off the board — against
 * 16.7, as a proportional margin gave in play). Otherwise each implied probability is p × (1 + margin). An outcome
 * that would fall below 1.01 is set to 1.01 and the rest of the overround is shared by the other
 * outcomes in proportion to their probabilities, so the implied probabilities still sum to
 * (1 + margin) × Σp — 1 + margin for a partition — up to rounding to 2 decimals and the maxOdds cap.
 */
export function oddsWithMargin(ps: readonly number[], opts: MarginOptions): number[] {
  let total = 0;
  for (const p of ps) total += Math.max(0, p);
  const budget = (1 + opts.margin) * total;
  const floorImplied = 1 / MIN_DECIMAL_ODDS;
  const live = ps.reduce((n, p) => n + (p > 0 ? 1 : 0), 0);
  const implied =
    live === 2
      ? ps.map((p) => (p > 0 ? p + (opts.margin * total) / 2 : 0))
      : ps.map((p) => Math.max(0, p) * (1 + opts.margin));
  // Rescaling the rest can push another outcome past the floor (double chance): repeat until stable.
  const clamped = implied.map(() => false);
  for (let round = 0; round < ps.length; round++) {
    let changed = false;
    implied.forEach((q, i) => {
      if (!clamped[i] && q > floorImplied) {
        clamped[i] = true;
        changed = true;
      }
    });
    if (!changed) break;
    let fixed = 0;
    let restP = 0;
    ps.forEach((p, i) => {
      if (clamped[i]) fixed += floorImplied;
      else restP += Math.max(0, p);
    });
    const restBudget = Math.max(0, budget - fixed);
    ps.forEach((p, i) => {
      implied[i] = clamped[i] ? floorImplied : restP > 0 ? (Math.max(0, p) / restP) * restBudget : 0;
    });
  }
  return implied.map((q) => toOdds(q, opts.maxOdds));
}

export function toOdds(implied: number, maxOdds: number): number {
  if (!(implied > 0)) return maxOdds;
  const raw = Math.min(maxOdds, Math.max(MIN_DECIMAL_ODDS, 1 / implied));
  // Any 2-decimal value is a valid price here, so plain rounding of the hundredths is enough.
  const r = Math.round(raw * 100) / 100;
  return r < MIN_DECIMAL_ODDS ? MIN_DECIMAL_ODDS : r;
}
