// The compressed forms (br, gzip) of one cached payload's current bytes: built on first demand, dropped when the bytes change.
import { compress, type Coding } from './compression.js';

/** How compressed forms were built and reused (read_model_payload_* metrics, tests). */
export interface CompressionStats {
  /** Forms built (a payload compressed in one coding). */
  builds: number;
  /** Bytes of the forms built. */
  builtBytes: number;
  /** Requests answered with a form built earlier (or being built for another request). */
  reuses: number;
}

export function newCompressionStats(): CompressionStats {
  return { builds: 0, builtBytes: 0, reuses: 0 };
}

/**
 * Why lazily: most clients of a payload may never ask for one of the codings, and a ticking
 * event's bytes change several times a second; a form is built by the first request that wants
 * it after a change and served to every later one until the next change (`clear`).
 */
export class CompressedForms {
  private br: Buffer | Promise<Buffer> | null = null;
  private gzip: Buffer | Promise<Buffer> | null = null;
  /** Raised by `clear`: a compression started before it finishes for its requests only. */
  private epoch = 0;
  /** Bytes of the finished forms. */
  bytes = 0;

  constructor(
    private readonly stats: CompressionStats,
    /** Called when a finished form is kept (its owner accounts for the memory). */
    private readonly grown: () => void = () => undefined,
  ) {}

  /**
   * `body` (the payload's current bytes) in `coding`. A body of pooled memory is held by `hold`
   * while the thread pool compresses it, so it is not recycled under the compressor.
   */
  get(coding: Coding, body: Buffer, hold?: (b: Buffer) => () => void): Buffer | Promise<Buffer> {
    const have = coding === 'br' ? this.br : this.gzip;
    if (have !== null) {
      this.stats.reuses++;
      return have;
    }
    this.stats.builds++;
    const out = compress(coding, body);
    if (Buffer.isBuffer(out)) {
      this.keep(coding, out);
      return out;
    }
    const epoch = this.epoch;
    const release = hold?.(body);
    const pending = out.then(
      (buf) => {
        release?.();
        if (this.epoch === epoch) this.keep(coding, buf);
        return buf;
      },
      (err: unknown) => {
        release?.();
        if (this.epoch === epoch) this.set(coding, null);
        throw err;
      },
    );
    this.set(coding, pending);
    return pending;
  }

  /** Forgets every form (the bytes changed, or the payload left the cache); returns the bytes freed. */
  clear(): number {
    const freed = this.bytes;
    this.br = null;
    this.gzip = null;
    this.bytes = 0;
    this.epoch++;
    return freed;
  }

  private keep(coding: Coding, buf: Buffer): void {
    this.set(coding, buf);
    this.bytes += buf.length;
    this.stats.builtBytes += buf.length;
    this.grown();
  }

  private set(coding: Coding, value: Buffer | Promise<Buffer> | null): void {
    if (coding === 'br') this.br = value;
    else this.gzip = value;
  }
}
