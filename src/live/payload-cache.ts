// A byte-bounded LRU of the large payloads (odds, detail, batch items): patchable UTF-8 bytes and their compressed forms.
import type { CachedPayload } from './cached-payload.js';

/**
 * Payloads are held as Buffers because sending a JS string re-encodes it to UTF-8 on every write,
 * which for a 400 KB odds payload costs several times the rest of the request.
 * Entries carry the markets version of the event they were built from; a lookup with a newer one
 * misses, so a change of shape never needs to find and delete its stale payloads. Price moves keep
 * the entry: its owner refreshes it in place and reports the new size through `resized`.
 * The budget counts an entry's compressed forms with its body: at capacity scale (1,000 live events
 * of 1,000 markets) forms are ~1/14 (br) and ~1/12 (gzip) of their body, and an entry asked for in
 * both codings holds ~15% more than its body alone.
 */
export class PayloadCache {
  private readonly entries = new Map<string, CachedPayload>();
  /** Keys cached per owner (an event), so a change can free its stale payloads at once. */
  private readonly byOwner = new Map<string, Set<string>>();
  private bytes = 0;
  private compressed = 0;

  constructor(
    private readonly maxBytes: number,
    /** Called with each entry that leaves the cache (its memory may be recycled). */
    private readonly onDrop: (entry: CachedPayload) => void = () => undefined,
    /** Entries kept at most, whatever their size (a cache of many small payloads: filtered variants). */
    private readonly maxEntries = Infinity,
  ) {}

  get(key: string, marketsVersion: number): CachedPayload | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.marketsVersion !== marketsVersion) {
      this.drop(key, e);
      return undefined;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  set(entry: CachedPayload, owner?: string): void {
    const key = entry.key;
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key, old);
    if (entry.bytes > this.maxBytes) return;
    this.entries.set(key, entry);
    this.count(entry);
    if (owner !== undefined) {
      entry.owner = owner;
      let keys = this.byOwner.get(owner);
      if (keys === undefined) this.byOwner.set(owner, (keys = new Set()));
      keys.add(key);
    }
    this.evict();
  }

  /** Counts a cached entry again after its body was refreshed or a compressed form was kept or freed. */
  resized(entry: CachedPayload): void {
    // A compression that finished after its entry left the cache changes nothing here.
    if (this.entries.get(entry.key) !== entry) return;
    this.count(entry);
    this.evict();
  }

  /**
   * Frees every payload of an owner. Without this, the stale payloads of an event whose markets
   * changed shape (hundreds of KB each) would sit in the budget until the LRU reached them.
   */
  dropOwner(owner: string): void {
    const keys = this.byOwner.get(owner);
    if (keys === undefined) return;
    this.byOwner.delete(owner);
    for (const key of keys) {
      const e = this.entries.get(key);
      if (e !== undefined) this.drop(key, e);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held: bodies and compressed forms. */
  get usedBytes(): number {
    return this.bytes;
  }

  /** Of which compressed forms. */
  get compressedBytes(): number {
    return this.compressed;
  }

  private count(e: CachedPayload): void {
    const bytes = e.bytes;
    const compressed = e.forms.bytes;
    this.bytes += bytes - e.accountedBytes;
    this.compressed += compressed - e.accountedCompressedBytes;
    e.accountedBytes = bytes;
    e.accountedCompressedBytes = compressed;
  }

  private evict(): void {
    while (this.bytes > this.maxBytes || this.entries.size > this.maxEntries) {
      const first = this.entries.keys().next();
      if (first.done) break;
      const victim = this.entries.get(first.value);
      if (victim) this.drop(first.value, victim);
    }
  }

  private drop(key: string, e: CachedPayload): void {
    this.entries.delete(key);
    // An owner's set forgets the keys that left, so it never outgrows the entries it has (a cache of
    // filtered variants sees ever new keys for an event whose markets keep their shape for hours).
    if (e.owner !== undefined) {
      const keys = this.byOwner.get(e.owner);
      if (keys !== undefined && keys.delete(key) && keys.size === 0) this.byOwner.delete(e.owner);
    }
    this.bytes -= e.accountedBytes;
    this.compressed -= e.accountedCompressedBytes;
    e.accountedBytes = 0;
    e.accountedCompressedBytes = 0;
    this.onDrop(e);
  }
}
