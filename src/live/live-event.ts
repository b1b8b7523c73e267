// One event in the read model: its state, its market book and the versions cached payloads are checked against.
import type { SportEvent } from '../domain/types.js';
import { MarketBook } from './market-book.js';

export interface LiveEvent {
  event: SportEvent;
  /** Markets in the producer's order, held column-wise. */
  book: MarketBook;
  /** Raised on every change; cached payloads built from an older version are stale. */
  version: number;
  /**
   * Raised when the shape of the markets array changes (markets added or withdrawn, a status that
   * hides or locks them all). A payload built under an older one is rebuilt whole; one built under
   * the current one only re-renders the markets whose prices moved since (see `priceStamps`).
   */
  marketsVersion: number;
  /**
   * Per outcome index: the `version` of its last price or lock change. Kept only once a payload
   * has been built (events nobody reads pay nothing); reset when the markets array changes shape.
   * Per outcome rather than per market so the hot path never has to find an outcome's market.
   * 32 bits: half the memory and cache lines a tick touches of 64 (a capacity world's 2M
   * selections), and an event's version stays far below 2^32 (a change every millisecond for 49 days).
   */
  priceStamps: Uint32Array | null;
  /**
   * The feed stopped updating this live event for longer than STALE_LOCK_SECONDS: every selection
   * is reported locked until fresh data arrives (the pipeline leader decides, replicas follow).
   */
  stale: boolean;
  /**
   * Wall-clock ms of the last feed message accepted about this event, changed or not (0 before
   * the first): what the leader's stale-feed sweep measures silence from.
   */
  freshAt: number;
  /**
   * The event document changed without a log entry that writes it (`pricedPrematch` set at a price
   * change): the pipeline's write-behind writes it with the next flush.
   */
  eventDirty: boolean;
}

export function newLiveEvent(event: SportEvent, version = 1): LiveEvent {
  return {
    event,
    book: new MarketBook(),
    version,
    marketsVersion: version,
    priceStamps: null,
    stale: false,
    freshAt: 0,
    eventDirty: false,
  };
}
