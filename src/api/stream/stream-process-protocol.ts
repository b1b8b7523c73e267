// The messages between the service and its stream process (STREAM_PROCESS=on): entries, adopted sockets, quota charges, metrics.
import type { LogPosition } from '../../live/log-position.js';
import type { PackedBatch } from './stream-batch.js';
import type { HandedStream, HoldLimits } from './stream-connection.js';

/**
 * The service's clocks at an instant of this machine's clock (`wall`): its own wall clock (quota
 * periods; a test's clock may differ from the machine's) and world time with its pace (heartbeats).
 */
export interface ClockSample {
  wall: number;
  now: number;
  world: number;
  speed: number;
}

export type ToStreamProcess =
  | { t: 'init'; heartbeatMs: number; bufferBytes: number; limits: HoldLimits; clock: ClockSample }
  | { t: 'clock'; clock: ClockSample }
  /**
   * Entries appended since the last batch, in position order, packed (stream-batch.ts) with each
   * odds change's family number in the service's numbering (generation `gen`); `names` names the
   * numbers this process has not been told yet.
   */
  | { t: 'batch'; seq: number; batch: PackedBatch; names: Array<[number, string]>; gen: number }
  /** A stream moving here with its socket; the service's log stood at `head` (the stream is there). */
  | { t: 'adopt'; stream: HandedStream; chunked: boolean; continuity: number; head: LogPosition }
  | { t: 'charged'; id: number; ok: boolean }
  /** The service's log lost what streams opened before `continuity` followed (a replica reloaded). */
  | { t: 'lost'; before: LogPosition; continuity: number }
  | { t: 'close-all' }
  /** It fell too far behind: close every stream (`overloaded`); their clients resume at the service. */
  | { t: 'shed' };

/** A counter's increase since the last report, by label values. */
export interface CounterDelta {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export type FromStreamProcess =
  | { t: 'closed'; keyId: string }
  | { t: 'charge'; id: number; keyId: string }
  | { t: 'metrics'; deltas: CounterDelta[] }
  | { t: 'closed-all' }
  /** Batches up to `seq` have been handed to the streams. */
  | { t: 'ack'; seq: number };
