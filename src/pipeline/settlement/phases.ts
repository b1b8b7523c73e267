// Settlement order: main markets first, then period and exotic markets, player props once final stats arrive.
import { settlementPhase, type SettlementPhase } from '../../domain/families/index.js';
import { parseMarketKey } from '../../domain/market-key.js';

export type Phase = SettlementPhase;

/** 0 = main (full game), 1 = period and exotic markets, 2 = player props (domain/families/ says which are main). */
export function phaseOf(key: string): Phase {
  const k = parseMarketKey(key);
  if (k === null) return 1;
  return settlementPhase(k.family, k.period);
}
