// A byte-bounded LRU of serialized payloads kept as UTF-8 bytes: encoded once per change, not per request.

interface Entry {
  version: number;
  body: Buffer;
}

/**
 * Payloads are held as Buffers because sending a JS string re-encodes it to UTF-8 on every write,
 * which for a 400 KB odds payload costs several times the rest of the request.
 * Entries carry the version of the data they were built from; a lookup with a newer version misses,
 * so a change never needs to find and delete its stale payloads — they age out of the LRU instead.
 */
export class PayloadCache {
  private readonly entries = new Map<string, Entry>();
  /** Keys cached per owner (an event), so a change can free its stale payloads at once. */
  private readonly byOwner = new Map<string, Set<string>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): Buffer | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.version !== version) {
      this.drop(key, e);
      return undefined;
    }
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.body;
  }

  set(key: string, version: number, body: Buffer, owner?: string): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.drop(key, old);
    if (body.length > this.maxBytes) return;
    this.entries.set(key, { version, body });
    this.bytes += body.length;
    if (owner !== undefined) {
      let keys = this.byOwner.get(owner);
      if (keys === undefined) this.byOwner.set(owner, (keys = new Set()));
      keys.add(key);
    }
    while (this.bytes > this.maxBytes) {
      const first = this.entries.keys().next();
      if (first.done) break;
      const victim = this.entries.get(first.value);
      if (victim) this.drop(first.value, victim);
    }
  }

  /**
   * Frees every payload of an owner. Live events change several times a second; without this their
   * stale payloads (hundreds of KB each) would sit in the budget until the LRU reached them.
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

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.body.length;
  }
}
