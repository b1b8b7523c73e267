// What the stream's frame worker is sent and answers: odds entries' prices and which frames of them to write (format, kept changes, id).
import type { OddsFormat } from '../../domain/types.js';

/** An odds entry as the worker needs it: its event and its changes' columns (copied, not shared). */
export interface FrameWorkEntry {
  eventId: string;
  marketIds: Float64Array;
  selectionIds: Float64Array;
  odds: Float64Array;
  locked: Uint8Array;
}

/** One frame to write: entry `e` of the request, in `format`, every change or those at `kept`, with this SSE id. */
export interface FrameJob {
  e: number;
  format: OddsFormat;
  kept: Uint32Array | null;
  id: string;
}

export interface FrameWorkRequest {
  seq: number;
  entries: FrameWorkEntry[];
  jobs: FrameJob[];
}

/** Every job's frame, in job order, in one buffer: frame j is bytes [ends[j-1], ends[j]). */
export interface FrameWorkReply {
  seq: number;
  bytes: Uint8Array;
  ends: Uint32Array;
}
