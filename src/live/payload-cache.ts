// A byte-bounded LRU of the large payloads (odds, detail, batch items), kept as patchable UTF-8 bytes.
import type { PatchablePayload } from './patchable-payload.js';

/**
 * Payloads are held as Buffers because sending a JS string re-encodes it to UTF-8 on every write,
 * which for a 400 KB odds payload costs several times the rest of the request.
 * Entries carry the markets version of the event they were built from; a lookup with a newer one
 * misses, so a change of shape never needs to find and delete its stale payloads. Price moves keep
 * the entry: its owner refreshes it in place and reports the new size through `resized`.
 */
export class PayloadCache {
  private readonly entries = new Map<string, PatchablePayload>();
  /** Keys cached per owner (an event), so a change can free its stale payloads at once. */
  private readonly byOwner = new Map<string, Set<string>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Called with each payload that leaves the cache (its memory may be recycled). */
    private readonly onDrop: (payload: PatchablePayload) => void = () => undefined,
  ) {}

  get(key: string, marketsVersion: number): PatchablePayload | undefined {
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

  set(key: string, payload: PatchablePayload, owner?: string): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key, old);
    if (payload.body.length > this.maxBytes) return;
    this.entries.set(key, payload);
    this.bytes += payload.body.length;
    if (owner !== undefined) {
      let keys = this.byOwner.get(owner);
      if (keys === undefined) this.byOwner.set(owner, (keys = new Set()));
      keys.add(key);
    }
    this.evict();
  }

  /** Accounts for a cached payload whose body was refreshed from `oldBytes` to its current size. */
  resized(payload: PatchablePayload, oldBytes: number): void {
    this.bytes += payload.body.length - oldBytes;
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

  get usedBytes(): number {
    return this.bytes;
  }

  private evict(): void {
    while (this.bytes > this.maxBytes) {
      const first = this.entries.keys().next();
      if (first.done) break;
      const victim = this.entries.get(first.value);
      if (victim) this.drop(first.value, victim);
    }
  }

  private drop(key: string, e: PatchablePayload): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
    this.onDrop(e);
  }
}
