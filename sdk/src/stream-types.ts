// The stream's events by name, each with the type of its data: the service's stream event schemas, generated.
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** The data of each event name the service sends on GET /v1/stream (docs/streaming.md). */
export interface StreamEventDataMap {
  odds: Schemas['StreamOddsEvent'];
  markets: Schemas['StreamMarketsEvent'];
  status: Schemas['StreamStatusEvent'];
  score: Schemas['StreamScoreEvent'];
  result: Schemas['StreamResultEvent'];
  settlement: Schemas['StreamSettlementEvent'];
  outright: Schemas['StreamOutrightEvent'];
  heartbeat: Schemas['StreamHeartbeat'];
  snapshot_required: Schemas['StreamSnapshotRequired'];
  close: Schemas['StreamClose'];
}
export type StreamEventName = keyof StreamEventDataMap;

/** Every event name, for a `types` filter or a switch. */
export const STREAM_EVENT_NAMES: readonly StreamEventName[] = [
  'odds',
  'markets',
  'status',
  'score',
  'result',
  'settlement',
  'outright',
  'heartbeat',
  'snapshot_required',
  'close',
];

/** One event of the stream: its name, its id (its position; null on heartbeats) and its parsed data. */
export type StreamEvent = {
  [K in StreamEventName]: { event: K; id: string | null; data: StreamEventDataMap[K] };
}[StreamEventName];
