// The stream's events by name, each with the type of its data (the service's stream event schemas).

/** Event names the service sends on GET /v1/stream (docs/streaming.md). */
export const STREAM_EVENT_NAMES = [
  'odds',
  'markets',
  'score',
  'status',
  'result',
  'settlement',
  'outright',
  'heartbeat',
  'snapshot_required',
  'close',
] as const;
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];

/** The data of each event. */
export interface StreamEventDataMap {
  odds: { event_id: string; [field: string]: unknown };
  markets: { event_id: string; [field: string]: unknown };
  score: { event_id: string; [field: string]: unknown };
  status: { event_id: string; [field: string]: unknown };
  result: { event_id: string; [field: string]: unknown };
  settlement: { event_id: string; [field: string]: unknown };
  outright: { tournament_id: string; [field: string]: unknown };
  heartbeat: { position: string; time: string };
  snapshot_required: { reason: string; last_event_id: string | null; position: string };
  close: { reason: string; message: string };
}

/** One event of the stream: its name, its id (its position; null on heartbeats) and its parsed data. */
export type StreamEvent = {
  [K in StreamEventName]: { event: K; id: string | null; data: StreamEventDataMap[K] };
}[StreamEventName];
