// EventStream: GET /v1/stream as an async iterable of typed events that reconnects, resumes by Last-Event-ID and re-snapshots.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { backoffDelay, type BackoffOptions } from './backoff.js';
import { errorFromResponse, SportsDataError } from './errors.js';
import { realSleep, retryDelayMs, urlOf, type Http, type Sleep } from './http.js';
import { STREAM_EVENT_NAMES, type StreamEvent, type StreamEventName } from './stream-types.js';
import type { StreamQuery } from './types.js';

export interface StreamOptions {
  /** Filters: sport, league, event_ids, types, markets, odds_format (docs/streaming.md). */
  query?: Omit<StreamQuery, 'api_key' | 'last_event_id' | 'snapshot'>;
  /** First connection: send the current state of every matching event before the changes. */
  snapshot?: boolean;
  /** Resume after this id (one kept from an earlier stream). */
  lastEventId?: string;
  /**
   * When the service cannot resume (its `snapshot_required`), fetch a snapshot: reconnections ask
   * `snapshot=true` (an exact resume still wins), and a connection that did not ask is re-opened
   * with it. Default true; false leaves the reload to the caller.
   */
  resnapshot?: boolean;
  /** Yield `heartbeat` events too (default false: they only keep the connection known alive). */
  heartbeats?: boolean;
  /** Reconnect when nothing, not even a heartbeat, arrived for this long (default 45 000 ms: three heartbeats). */
  idleTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** Consecutive failed attempts before the iteration throws (default: never gives up). */
  maxAttempts?: number;
  /** The longest Retry-After waited on a refused open (default 60 000 ms); a longer one throws. */
  maxRetryAfterMs?: number;
  /** Wait between attempts (tests inject one). */
  sleep?: Sleep;
  /** Ends the iteration. */
  signal?: AbortSignal;
  /** Told before each reconnection: why and how long until it. */
  onReconnect?: (info: ReconnectInfo) => void;
}

export interface ReconnectInfo {
  /** Consecutive failures so far (1 on the first). */
  attempt: number;
  delayMs: number;
  error: unknown;
  /** The id the next connection resumes after, or null. */
  lastEventId: string | null;
}

const NAMES = new Set<string>(STREAM_EVENT_NAMES);

export class EventStream implements AsyncIterable<StreamEvent> {
  private lastId: string | null;
  private readonly stop = new AbortController();

  constructor(
    private readonly http: Http,
    private readonly options: StreamOptions,
  ) {
    this.lastId = options.lastEventId ?? null;
    options.signal?.addEventListener('abort', () => this.stop.abort(options.signal?.reason), { once: true });
  }

  /** The id of the last event received (or the last heartbeat's position): keep it to resume a later stream exactly. */
  get lastEventId(): string | null {
    return this.lastId;
  }

  /** Ends the iteration and the connection. */
  close(): void {
    this.stop.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    const o = this.options;
    const sleep = o.sleep ?? realSleep;
    const resnapshot = o.resnapshot !== false;
    let snapshot = o.snapshot === true;
    let failures = 0;
    while (!this.stop.signal.aborted) {
      const conn = new AbortController();
      const onStop = (): void => conn.abort();
      this.stop.signal.addEventListener('abort', onStop, { once: true });
      let reopen = false;
      let error: unknown = null;
      /** The service closed the stream for good (its key's quota is spent): no reconnection helps. */
      let fatal: SportsDataError | null = null;
      try {
        const res = await this.open(snapshot, conn.signal);
        for await (const msg of this.read(res, conn)) {
          failures = 0;
          const ev = toEvent(msg);
          if (ev === null) continue;
          if (ev.id !== null) this.lastId = ev.id;
          // A heartbeat's position follows everything this stream was written: resuming after it is
          // exact, and a stream that has had no event yet is resumable from its first heartbeat.
          else if (ev.event === 'heartbeat' && typeof ev.data.position === 'string') this.lastId = ev.data.position;
          if (ev.event === 'heartbeat' && o.heartbeats !== true) continue;
          yield ev;
          if (ev.event === 'snapshot_required' && !snapshot && resnapshot) {
            // This connection will not send a snapshot: ask for one (from now, not from an id).
            reopen = true;
            break;
          }
          if (ev.event === 'close') {
            if (ev.data.reason === 'quota_exhausted') {
              fatal = new SportsDataError({ status: 429, code: 'rate_limited', message: ev.data.message });
            }
            break;
          }
        }
      } catch (err) {
        if (this.stop.signal.aborted) return;
        if (err instanceof SportsDataError && !this.retryable(err)) throw err;
        error = err;
      } finally {
        this.stop.signal.removeEventListener('abort', onStop);
        conn.abort();
      }
      if (fatal !== null) throw fatal;
      if (reopen) {
        this.lastId = null;
        snapshot = true;
        continue;
      }
      // A later connection resumes by id; an id it cannot serve is answered in band with a snapshot.
      snapshot = this.lastId !== null ? resnapshot : o.snapshot === true;
      failures++;
      if (o.maxAttempts !== undefined && failures > o.maxAttempts) {
        throw error ?? new SportsDataError({ status: 0, code: 'network_error', message: 'the stream ended' });
      }
      const retryAfter =
        error instanceof SportsDataError && error.retryAfter !== null ? retryDelayMs(error, this.retryBounds()) : null;
      const delayMs = retryAfter ?? backoffDelay(failures - 1, o.backoff);
      o.onReconnect?.({ attempt: failures, delayMs, error, lastEventId: this.lastId });
      try {
        await sleep(delayMs, this.stop.signal);
      } catch {
        return;
      }
    }
  }

  private retryBounds(): { maxRetries: number; maxWaitMs: number; sleep: Sleep } {
    return { maxRetries: 1, maxWaitMs: this.options.maxRetryAfterMs ?? 60_000, sleep: realSleep };
  }

  /**
   * Refusals worth another attempt: no answer, the service's own trouble, an answer that is no
   * stream, or a 429 (too many streams) whose Retry-After is within bounds. An exhausted monthly
   * quota (Retry-After: next month), a bad filter or key is thrown to the caller.
   */
  private retryable(err: SportsDataError): boolean {
    if (err.status === 429) return err.retryAfter === null || retryDelayMs(err, this.retryBounds()) !== null;
    return err.status === 0 || err.status >= 500 || err.code === 'invalid_response';
  }

  /** Opens one connection; a refusal is thrown as SportsDataError. */
  private async open(snapshot: boolean, signal: AbortSignal): Promise<Response> {
    const query = {
      ...this.options.query,
      ...(snapshot ? { snapshot: 'true' } : {}),
    };
    const headers = this.http.headers({ accept: 'text/event-stream' });
    if (this.lastId !== null) headers['last-event-id'] = this.lastId;
    let res: Response;
    try {
      res = await this.http.options.fetch(urlOf(this.http.options.baseUrl, '/v1/stream', query), {
        headers,
        signal,
      });
    } catch (cause) {
      throw new SportsDataError({ status: 0, code: 'network_error', message: 'the stream could not open', cause });
    }
    if (!res.ok) throw await errorFromResponse(res);
    if (res.body === null || !(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      throw new SportsDataError({
        status: res.status,
        code: 'invalid_response',
        message: 'the stream did not answer text/event-stream',
      });
    }
    return res;
  }

  /** The messages of one connection; a silence longer than idleTimeoutMs aborts it. */
  private async *read(res: Response, conn: AbortController): AsyncGenerator<EventSourceMessage> {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => queue.push(m) });
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => conn.abort(), idleMs);
    };
    try {
      arm();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        arm();
        parser.feed(decoder.decode(value, { stream: true }));
        while (queue.length > 0) yield queue.shift() as EventSourceMessage;
      }
    } finally {
      clearTimeout(timer);
      reader.cancel().catch(() => undefined);
    }
  }
}

function toEvent(msg: EventSourceMessage): StreamEvent | null {
  const name = msg.event ?? 'message';
  if (!NAMES.has(name)) return null;
  let data: unknown;
  try {
    data = JSON.parse(msg.data);
  } catch {
    return null;
  }
  return { event: name as StreamEventName, id: msg.id ?? null, data } as StreamEvent;
}
