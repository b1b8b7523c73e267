// What a stored event's markets are, whichever way the store holds them (a book image, documents written after it).
import type { Market } from '../../src/domain/types.js';
import { MarketBook } from '../../src/live/market-book.js';
import type { StoredEvent } from '../../src/store/store.js';

/** The markets as a restart would build them before odds rows: the image, then any documents on top. */
export function storedMarkets(stored: StoredEvent | undefined): Market[] {
  if (stored === undefined) return [];
  const book = new MarketBook();
  if (stored.image !== null) book.restoreImage(stored.image.data);
  if (stored.markets.length > 0) book.upsert(stored.markets, stored.positions);
  return book.markets();
}
