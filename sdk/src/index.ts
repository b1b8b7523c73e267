// @sports-data/sdk: a typed client of the sports data service (HTTP endpoints, settlement iterators, the SSE stream).
export { SportsDataClient, type SportsDataClientOptions, type CallOptions } from './client.js';
export { SportsDataError, type SportsDataErrorCode, parseRetryAfter } from './errors.js';
export { EventStream, type StreamOptions, type ReconnectInfo } from './stream.js';
export { backoffDelay, seededRandom, type BackoffOptions } from './backoff.js';
export type { FetchLike, RetryOptions, Sleep } from './http.js';
export type { SettlementPagingQuery, OutrightPagingQuery } from './paging.js';
export { STREAM_EVENT_NAMES, type StreamEvent, type StreamEventName, type StreamEventDataMap } from './stream-types.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookHeaders,
  type VerifyWebhookOptions,
} from './webhooks.js';
