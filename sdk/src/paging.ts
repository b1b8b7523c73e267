// Async iterators over the two settlement feeds, following each page's next_cursor until the feed says it is done.
import type { OutrightSettlementPage, QueryOf, SettlementPage } from './types.js';

/**
 * The settlement feed's filters for paging: without `updated_since` the feed runs newest first
 * (`ended_at`, then `event_id`, descending); with it, entries changed after that instant run
 * oldest change first, on a cursor of their own. `offset` is not for paging (cursors are exact).
 */
export type SettlementPagingQuery = Omit<QueryOf<'listSettlements'>, 'cursor' | 'offset'>;
export type OutrightPagingQuery = Omit<QueryOf<'listOutrightSettlements'>, 'cursor' | 'offset'>;

async function* byCursor<Q extends object, P extends { next_cursor: string | null }>(
  fetchPage: (query: Q & { cursor?: string }) => Promise<P>,
  query: Q,
): AsyncGenerator<P> {
  let cursor: string | null = null;
  do {
    const page: P = await fetchPage(cursor === null ? { ...query } : { ...query, cursor });
    yield page;
    cursor = page.next_cursor;
  } while (cursor !== null);
}

/** Pages of GET /v1/settlements, the first without a cursor and each next one with the previous next_cursor. */
export function settlementPages(
  fetchPage: (query: QueryOf<'listSettlements'>) => Promise<SettlementPage>,
  query: SettlementPagingQuery,
): AsyncGenerator<SettlementPage> {
  return byCursor(fetchPage, query);
}

/** Pages of GET /v1/settlements/outrights (newest first: `settled_at`, then `entry_id`, descending). */
export function outrightSettlementPages(
  fetchPage: (query: QueryOf<'listOutrightSettlements'>) => Promise<OutrightSettlementPage>,
  query: OutrightPagingQuery,
): AsyncGenerator<OutrightSettlementPage> {
  return byCursor(fetchPage, query);
}
