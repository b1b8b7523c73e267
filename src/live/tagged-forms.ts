// A byte-bounded LRU of compressed forms by payload tag, for responses assembled per request (batch lookups).
import { CompressedForms, type CompressionStats } from './compressed-forms.js';
import type { Coding } from './compression.js';

/** Tags kept at most, whatever their size (many small batches). */
const MAX_ENTRIES = 4096;

interface Entry {
  forms: CompressedForms;
  /** Bytes this entry was last counted at. */
  accounted: number;
}

/**
 * Why: a batch of 20 deep events is ~8 MB of JSON, a few milliseconds to assemble but ~50 ms to
 * compress with brotli. The same tag means the same bytes, so a client polling the same events
 * gets the form built for the first poll until one of them changes.
 */
export class TaggedForms {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly stats: CompressionStats,
  ) {}

  /** `body` (whose tag is `tag`) in `coding`: built once, then reused while it stays in the budget. */
  get(tag: string, coding: Coding, body: Buffer): Buffer | Promise<Buffer> {
    let entry = this.entries.get(tag);
    if (entry !== undefined) {
      // Most recently used last (Map keeps insertion order).
      this.entries.delete(tag);
    } else {
      const created: Entry = {
        forms: new CompressedForms(this.stats, () => this.grown(tag, created)),
        accounted: 0,
      };
      entry = created;
    }
    this.entries.set(tag, entry);
    if (this.entries.size > MAX_ENTRIES) this.evictOldest();
    return entry.forms.get(coding, body);
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  private grown(tag: string, entry: Entry): void {
    // A form that finished after its entry was evicted is not kept.
    if (this.entries.get(tag) !== entry) {
      entry.forms.clear();
      return;
    }
    this.bytes += entry.forms.bytes - entry.accounted;
    entry.accounted = entry.forms.bytes;
    while (this.bytes > this.maxBytes && this.entries.size > 0) this.evictOldest();
  }

  private evictOldest(): void {
    const first = this.entries.entries().next();
    if (first.done) return;
    const [tag, victim] = first.value;
    this.entries.delete(tag);
    this.bytes -= victim.accounted;
    victim.forms.clear();
  }
}
