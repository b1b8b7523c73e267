// A Server-Sent Events client for tests: opens GET /v1/stream on a listening service and parses its events.
import { request, type ClientRequest, type IncomingMessage } from 'node:http';

export interface SseEvent {
  id: string | null;
  event: string;
  /** Parsed JSON data. */
  data: Record<string, unknown>;
  /** The data line as sent. */
  text: string;
}

export interface SseRefusal {
  status: number;
  body: { error: string; message: string };
  headers: IncomingMessage['headers'];
}

export class SseClient {
  readonly events: SseEvent[] = [];
  private buffer = '';
  private waiters: Array<() => void> = [];
  ended = false;

  private constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.push(chunk));
    res.on('end', () => this.finish());
    res.on('close', () => this.finish());
    res.on('error', () => this.finish());
  }

  /** Opens a stream; resolves with the client, or the JSON refusal of a non-200 answer. */
  static open(base: string, path: string, headers: Record<string, string> = {}): Promise<SseClient | SseRefusal> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              body: JSON.parse(body) as SseRefusal['body'],
              headers: res.headers,
            }),
          );
          return;
        }
        resolve(new SseClient(req, res));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** Opens a stream that must be accepted. */
  static async connect(base: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const c = await SseClient.open(base, path, headers);
    if (!(c instanceof SseClient)) throw new Error(`stream refused: ${c.status} ${JSON.stringify(c.body)}`);
    return c;
  }

  /** Events other than heartbeats. */
  get changes(): SseEvent[] {
    return this.events.filter((e) => e.event !== 'heartbeat');
  }

  /** The id a reconnecting EventSource would send: the last id seen. */
  get lastId(): string | null {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const id = this.events[i]?.id;
      if (id !== null && id !== undefined) return id;
    }
    return null;
  }

  /** Waits until `pred` holds for the events received (fails after `timeoutMs`). */
  async until(pred: (events: SseEvent[]) => boolean, timeoutMs = 5000, what = 'events'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.ended && !pred(this.events)) throw new Error(`stream ended before ${what}; got ${this.describe()}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${this.describe()}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits for at least n change events. */
  untilCount(n: number, timeoutMs = 5000): Promise<void> {
    return this.until((e) => e.filter((x) => x.event !== 'heartbeat').length >= n, timeoutMs, `${n} events`);
  }

  close(): void {
    this.req.destroy();
    this.finish();
  }

  /** Stops reading from the socket (a slow client). */
  pause(): void {
    this.res.pause();
  }

  private describe(): string {
    return this.events.map((e) => `${e.event}(${e.id ?? ''})`).join(' ') || 'nothing';
  }

  private push(chunk: string): void {
    this.buffer += chunk;
    let sep: number;
    while ((sep = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, sep);
      this.buffer = this.buffer.slice(sep + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length === 0) continue;
      const text = data.join('\n');
      this.events.push({ id, event, data: JSON.parse(text) as Record<string, unknown>, text });
    }
    this.wake();
  }

  private finish(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}
