// The pipeline's feed ingress, the one part of the pipeline the API holds: feed bodies in, a report of what was applied out.
import type { FeedReport } from './outcome.js';

export type { FeedLineError, FeedReport } from './outcome.js';
/** What a body's lines may be: the feed message schemas (the API documents the ingress's body with them). */
export { FEED_MESSAGE_SCHEMAS } from '../feed/messages.js';

/** Where the time of one feed body went (for the ingress's debug log). */
export interface FeedTiming {
  parseMs: number;
  /** Waiting for earlier bodies, then applying every line. */
  applyMs: number;
}

/** Applies feed bodies in order (the pipeline of the node that takes the feed: POST /admin/v1/feed). */
export interface FeedIngress {
  /** An NDJSON body, its lines numbered from 1. */
  applyNdjson(body: Uint8Array, timing?: FeedTiming): Promise<FeedReport>;
  /** JSON values (a JSON body's messages), numbered from 1 like the lines of a body. */
  applyJson(values: readonly unknown[]): Promise<FeedReport>;
}
