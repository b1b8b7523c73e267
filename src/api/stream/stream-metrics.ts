// Prometheus metrics of GET /v1/stream: connections, events sent, conflated and dropped, resumes, losses, bytes.
import { Counter, Gauge, type Registry } from 'prom-client';

export class StreamMetrics {
  readonly eventsSent: Counter<'event'>;
  readonly conflated: Counter;
  readonly closed: Counter<'reason'>;
  readonly resumes: Counter<'outcome'>;
  readonly bytesSent: Counter<'encoding'>;
  readonly lost: Counter;

  constructor(registry: Registry, connections: () => number) {
    const registers = [registry];
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
    this.bytesSent = new Counter({
      name: 'stream_bytes_sent_total',
      help: 'Bytes of stream events written, by content encoding',
      labelNames: ['encoding'],
      registers,
    });
  }
}
