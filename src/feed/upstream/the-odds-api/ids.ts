// Stable numeric ids from the provider's ids: the first 48 bits of a SHA-256, so the same market is the same id on every node and restart.
import { createHash } from 'node:crypto';

/** Our event id for a provider event id (their ids are 32 hex digits). */
export function eventIdOf(providerId: string): string {
  return `toa-${providerId}`;
}

/** An integer below 2^48 (well below the feed's 2^53) derived from `text`; collisions are ~1 in 10^14 per pair. */
export function stableId(text: string): number {
  return createHash('sha256').update(text).digest().readUIntBE(0, 6);
}

/** market_id: provider event id and our market key (a moved line is a new market). */
export function marketIdOf(providerEventId: string, marketKey: string): number {
  return stableId(`the-odds-api|${providerEventId}|${marketKey}`);
}

/** selection_id: the market's and the outcome's code. */
export function selectionIdOf(providerEventId: string, marketKey: string, code: string): number {
  return stableId(`the-odds-api|${providerEventId}|${marketKey}|${code}`);
}
