// Parses NDJSON feed bodies: small ones inline, large ones on a worker thread (same lines, same errors).
import { Worker } from 'node:worker_threads';
import { parseNdjson } from './ndjson.js';
import type { IngressLine } from './packed-body.js';
import type { ParseReply, ParseRequest } from './parse-worker.js';

/** Below this a body is parsed inline: the hop to the worker would cost more than it saves. */
export const DEFAULT_INLINE_BELOW_BYTES = 256 * 1024;

const decoder = new TextDecoder();

/**
 * Why a worker: JSON.parse and schema checks of a 100,000-change tick take ~20 ms and leave
 * ~100,000 objects for the garbage collector, all on the thread that answers every API request.
 * On the worker they run on the other core, and the changes come back packed in typed arrays.
 */
export class FeedBodyParser {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (l: IngressLine[]) => void; body: Uint8Array }>();
  private readonly inlineBelow: number;

  constructor(opts: { inlineBelowBytes?: number } = {}) {
    this.inlineBelow = opts.inlineBelowBytes ?? DEFAULT_INLINE_BELOW_BYTES;
  }

  /** The lines of a body, numbered from 1; the body must not be used by the caller afterwards. */
  parse(body: Uint8Array): Promise<IngressLine[]> {
    if (body.byteLength < this.inlineBelow) return Promise.resolve(parseNdjson(decoder.decode(body)));
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, body });
      this.ensureWorker().postMessage({ id, body } satisfies ParseRequest);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w !== null) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker !== null) return this.worker;
    const w = new Worker(new URL('./parse-worker.js', import.meta.url));
    w.unref();
    w.on('message', (reply: ParseReply) => {
      const p = this.pending.get(reply.id);
      if (p === undefined) return;
      this.pending.delete(reply.id);
      // A failure of the worker itself (not of the body: bad lines are results) falls back inline.
      p.resolve('lines' in reply ? reply.lines : parseNdjson(decoder.decode(p.body)));
    });
    w.on('error', () => this.failAll(w));
    w.on('exit', () => this.failAll(w));
    this.worker = w;
    return w;
  }

  /** The worker died: whatever it held is parsed inline, and the next large body starts a new one. */
  private failAll(w: Worker): void {
    if (this.worker === w) this.worker = null;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.resolve(parseNdjson(decoder.decode(p.body)));
    }
  }
}
