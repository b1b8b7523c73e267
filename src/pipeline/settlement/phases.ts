// Settlement order: main markets first, then period and exotic markets, player props once final stats arrive.
import { parseMarketKey } from '../../domain/market-key.js';

const MAIN_FAMILIES = new Set(['1x2', 'moneyline', 'totals', 'asian_handicap', 'double_chance', 'draw_no_bet', 'btts']);

export type Phase = 0 | 1 | 2;

/** 0 = main (full game), 1 = period and exotic markets, 2 = player props. */
export function phaseOf(key: string): Phase {
  const k = parseMarketKey(key);
  if (k === null) return 1;
  if (k.family.startsWith('player_')) return 2;
  return k.period === null && MAIN_FAMILIES.has(k.family) ? 0 : 1;
}
