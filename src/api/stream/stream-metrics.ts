// Prometheus metrics of GET /v1/stream: connections, events sent, conflated and dropped, resumes, losses, bytes.
import { Counter, Gauge, type Registry } from 'prom-client';

/** What the replay window holds now (the change log's figures). */
export interface ReplayWindowFigures {
  sizeBytes: number;
  windowBytes: number;
  storedOnlyCount: number;
  size: number;
  windowSpanMs: number;
}

export class StreamMetrics {
  readonly eventsSent: Counter<'event'>;
  readonly conflated: Counter;
  readonly closed: Counter<'reason'>;
  readonly resumes: Counter<'outcome'>;
  readonly bytesSent: Counter<'encoding'>;
  readonly lost: Counter;
  readonly flushes: Counter<'frames'>;

  constructor(registry: Registry, connections: () => number, window?: ReplayWindowFigures) {
    const registers = [registry];
    if (window !== undefined) {
      new Gauge({
        name: 'stream_replay_window_bytes',
        help: 'Memory the replay window holds (encoded segments and the newest entries): bounded by STREAM_REPLAY_MEMORY_MB once stored, else STREAM_REPLAY_MB',
        registers,
        collect() {
          this.set(window.sizeBytes);
        },
      });
      new Gauge({
        name: 'stream_replay_window_total_bytes',
        help: 'Bytes of the whole replay window, in memory and held only in the store: bounded by STREAM_REPLAY_MB',
        registers,
        collect() {
          this.set(window.windowBytes);
        },
      });
      new Gauge({
        name: 'stream_replay_window_store_only_segments',
        help: 'Segments of the replay window let go from memory: a resume that reaches them reads them back from the store',
        registers,
        collect() {
          this.set(window.storedOnlyCount);
        },
      });
      new Gauge({
        name: 'stream_replay_window_entries',
        help: 'Change-log entries in the replay window',
        registers,
        collect() {
          this.set(window.size);
        },
      });
      new Gauge({
        name: 'stream_replay_window_seconds',
        help: 'How far back a Last-Event-ID resumes now (shorter than STREAM_REPLAY_SECONDS when the byte budget binds)',
        registers,
        collect() {
          this.set(window.windowSpanMs / 1000);
        },
      });
    }
    new Gauge({
      name: 'stream_connections',
      help: 'Open GET /v1/stream connections on this node',
      registers,
      collect() {
        this.set(connections());
      },
    });
    this.eventsSent = new Counter({
      name: 'stream_events_sent_total',
      help: 'Stream events written to clients, by event name',
      labelNames: ['event'],
      registers,
    });
    this.conflated = new Counter({
      name: 'stream_events_conflated_total',
      help: 'Odds entries merged into a later price for a client that read too slowly',
      registers,
    });
    this.closed = new Counter({
      name: 'stream_clients_closed_total',
      help: 'Streams the service closed, by reason (too_slow, quota_exhausted, shutting_down)',
      labelNames: ['reason'],
      registers,
    });
    this.resumes = new Counter({
      name: 'stream_resumes_total',
      help: 'Streams opened with a Last-Event-ID, by outcome (exact, snapshot_required)',
      labelNames: ['outcome'],
      registers,
    });
    this.lost = new Counter({
      name: 'stream_lost_total',
      help: 'Open streams told snapshot_required (reason lost) because this node reloaded and cannot replay what it missed (scale-out)',
      registers,
    });
    this.flushes = new Counter({
      name: 'stream_flushes_total',
      help: 'Batches of change-log entries handed to the open streams, by who wrote their odds frames (main, worker)',
      labelNames: ['frames'],
      registers,
    });
    this.bytesSent = new Counter({
      name: 'stream_bytes_sent_total',
      help: 'Bytes of stream events written, by content encoding',
      labelNames: ['encoding'],
      registers,
    });
  }
}
