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
  // Plain loops over one array (every price update of every market comes here): the same
  // arithmetic, in the same order, as mapping the chances through each step.
  const n = ps.length;
  let total = 0;
  let live = 0;
  for (let i = 0; i < n; i++) {
    const p = ps[i]!;
    total += Math.max(0, p);
    if (p > 0) live++;
  }
  const budget = (1 + opts.margin) * total;
  const floorImplied = 1 / MIN_DECIMAL_ODDS;
  const implied = new Array<number>(n);
  let over = false;
  for (let i = 0; i < n; i++) {
    const p = ps[i]!;
    const q = live === 2 ? (p > 0 ? p + (opts.margin * total) / 2 : 0) : Math.max(0, p) * (1 + opts.margin);
    implied[i] = q;
    if (q > floorImplied) over = true;
  }
  if (over) {
    // Rescaling the rest can push another outcome past the floor (double chance): repeat until stable.
    const clamped = new Array<boolean>(n).fill(false);
    for (let round = 0; round < n; round++) {
      let changed = false;
      for (let i = 0; i < n; i++) {
        if (!clamped[i] && implied[i]! > floorImplied) {
          clamped[i] = true;
          changed = true;
        }
      }
      if (!changed) break;
      let fixed = 0;
      let restP = 0;
      for (let i = 0; i < n; i++) {
        if (clamped[i]) fixed += floorImplied;
        else restP += Math.max(0, ps[i]!);
      }
      const restBudget = Math.max(0, budget - fixed);
      for (let i = 0; i < n; i++) {
        implied[i] = clamped[i] ? floorImplied : restP > 0 ? (Math.max(0, ps[i]!) / restP) * restBudget : 0;
      }
    }
  }
  for (let i = 0; i < n; i++) implied[i] = toOdds(implied[i]!, opts.maxOdds);
  return implied;
}

export function toOdds(implied: number, maxOdds: number): number {
  if (!(implied > 0)) return maxOdds;
  const raw = Math.min(maxOdds, Math.max(MIN_DECIMAL_ODDS, 1 / implied));
  // Any 2-decimal value is a valid price here, so plain rounding of the hundredths is enough.
  const r = Math.round(raw * 100) / 100;
  return r < MIN_DECIMAL_ODDS ? MIN_DECIMAL_ODDS : r;
}
