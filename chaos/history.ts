// What a chaos campaign records as it runs: every answer, stream event, fault and probe, with its time; the verdict reads only this.

/** Milliseconds since the campaign started (performance.now() based: never jumps). */
export type At = number;

export type FaultKind =
  | 'leader-kill'
  | 'api-node-kill'
  | 'pg-refuse'
  | 'pg-drop'
  | 'redis-kill'
  | 'redis-restart'
  | 'redis-stall'
  | 'redis-client-kill';

export interface FaultRecord {
  kind: FaultKind;
  /** When the fault began (the kill, the ALTER, the SLEEP sent). */
  start: At;
  /** When it was undone (the component answers again); equal to start for instant faults. */
  end: At;
  /** What health must name on every API node while it lasts, if anything. */
  component: 'datastore' | 'usage_counters' | null;
  /** Free-form facts (the node killed, the sessions ended, the sleep length). */
  detail: string;
  /** Kill of the leader: kill to fresh data on every API node, ms (null: not within the bound). */
  takeoverMs?: number | null;
}

export interface AnswerRecord {
  at: At;
  node: string;
  path: string;
  /** HTTP status; 0 when the node could not be reached. */
  status: number;
  retryAfter: boolean;
  /** The start of the body of a 5xx. */
  body?: string;
}

export interface HealthRecord {
  /** When the probe was sent and when its answer came. */
  sent: At;
  at: At;
  node: string;
  status: number;
  component: string | null;
}

export interface StreamEventRecord {
  at: At;
  node: string;
  event: string;
  id: string | null;
  reason?: string;
}

export interface StreamClientHistory {
  name: string;
  events: StreamEventRecord[];
  /** Connections opened (the first one and every resume). */
  connects: number;
  /** Opens refused (an HTTP error before the stream started): status counts. */
  refusals: Record<string, number>;
}

export interface FeedRecord {
  at: At;
  line: string;
  error: string;
  message: string;
}

export class History {
  readonly t0 = performance.now();
  readonly startedAt = new Date().toISOString();
  readonly faults: FaultRecord[] = [];
  readonly answers: AnswerRecord[] = [];
  readonly health: HealthRecord[] = [];
  readonly streams: StreamClientHistory[] = [];
  /** Feed lines refused for a reason that is not "retry" (a message the campaign built valid). */
  readonly feedRejections: FeedRecord[] = [];
  /** Feed bodies sent, lines resent after a retryable refusal, bodies no candidate took, games sent again from their fixture. */
  readonly feed = { bodies: 0, lines: 0, resentLines: 0, refusedBodies: 0, restartedGames: 0 };
  /** Node processes that ended without the campaign stopping them. */
  readonly crashes: Array<{ at: At; node: string; how: string; lastLines: string[] }> = [];
  /** Facts of the campaign's own (a node that would not restart, a fault that could not be undone). */
  readonly notes: Array<{ at: At; text: string }> = [];

  now(): At {
    return performance.now() - this.t0;
  }

  note(text: string): void {
    this.notes.push({ at: this.now(), text });
  }
}
