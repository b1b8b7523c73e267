// Every market family in one place: descriptors by key, the settlement phase of a key, what grading and docs read.
import { isPlayerPropFamily, PLAYER_PROP } from './player-props.js';
import { LINE_FAMILIES } from './lines.js';
import { RESULT_FAMILIES } from './result.js';
import type { FamilyDescriptor, SettlementPhase } from './types.js';

export * from './types.js';
export * from './result.js';
export * from './lines.js';
export { PLAYER_PROP, isPlayerPropFamily } from './player-props.js';

/** Every named family (player props aside), in docs/markets.md order. Adding a family: add it here. */
export const FAMILIES: readonly FamilyDescriptor[] = [...RESULT_FAMILIES, ...LINE_FAMILIES];

const byKey: ReadonlyMap<string, FamilyDescriptor> = new Map(FAMILIES.map((d) => [d.key, d]));
if (byKey.size !== FAMILIES.length) throw new Error('two market family descriptors share a key');

/** The descriptor of a family (`totals`, `player_goals_p12`…), or undefined when none describes it. */
export function familyOf(family: string): FamilyDescriptor | undefined {
  return byKey.get(family) ?? (isPlayerPropFamily(family) ? PLAYER_PROP : undefined);
}

/** The families whose full-game markets settle first. */
export const MAIN_FAMILIES: readonly string[] = FAMILIES.filter((d) => d.main).map((d) => d.key);
const mainFamilies: ReadonlySet<string> = new Set(MAIN_FAMILIES);

/**
 * Settlement order of a market by its key's family and period: main families' full-game markets
 * first (0), then period and exotic markets (1), player props once final stats arrive (2). A family
 * no descriptor knows settles with the exotic ones.
 */
export function settlementPhase(family: string, period: string | null): SettlementPhase {
  if (family.startsWith('player_')) return 2;
  return period === null && mainFamilies.has(family) ? 0 : 1;
}
