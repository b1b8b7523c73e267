// One table of the strings every market book uses (keys, names, codes, labels), held as UTF-8 bytes outside the JS heap and counted by book.

/**
 * Why: a 1,000-market book has ~2,900 distinct strings, ~100 of them its own (player and team
 * names). Held as JS strings, 11,000 books made ~1.1M string objects plus the table's index: most
 * of the live V8 heap, which every full collection marks, and each one stalled the live tick it
 * fell in by ~50 ms. Here they are bytes in one buffer, with typed-array columns and an
 * open-addressing index: nothing the collector scans. Books hold 4-byte indexes; reading one
 * decodes it (payloads are rendered once and then patched, so reads are rare).
 *
 * A string is kept while any book uses it: a book acquires its strings once each when its columns
 * are built and releases them when they are replaced or the book is collected. A string nobody
 * uses stays findable (a book that comes back reuses it) until the dead ones are many, when the
 * bytes are compacted and their slots reused. A slot index never changes while the string is used.
 */
export class SharedStrings {
  private arena = Buffer.allocUnsafeSlow(1 << 16);
  private used = 0;
  /** Per slot: byte offset and length in the arena, users, and hash. */
  private start = new Uint32Array(1024);
  private len = new Uint32Array(1024);
  private refs = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  /** 1 for a string held as UTF-16 (one with a lone surrogate, which UTF-8 cannot hold exactly). */
  private wide = new Uint8Array(1024);
  private slots = 0;
  /** Slots free for reuse (after a compaction). */
  private readonly free: number[] = [];
  /** Slots whose string no book uses, and their bytes. */
  private dead = 0;
  private deadBytes = 0;
  /** Open addressing: slot + 1, or 0 for empty. Kept at most half full. */
  private index = new Uint32Array(4096);
  private scratch = Buffer.allocUnsafeSlow(256);
  /** Whether the last string encoded went in as UTF-16. */
  private encodedWide = 0;

  /** Strings in use. */
  get size(): number {
    return this.slots - this.free.length - this.dead;
  }

  /** Bytes held (arena and columns), for tests and metrics. */
  get heldBytes(): number {
    return this.arena.length + this.index.byteLength + 4 * this.start.byteLength;
  }

  get(i: number): string {
    const from = this.start[i] as number;
    return this.arena.toString(this.wide[i] === 1 ? 'utf16le' : 'utf8', from, from + (this.len[i] as number));
  }

  /** The index of `s`, counting one more user. */
  acquire(s: string): number {
    const n = this.encode(s);
    const hash = fnv1a(this.scratch, n);
    let slot = this.lookup(hash, n);
    if (slot < 0) slot = this.insert(hash, n, this.encodedWide);
    else if (this.refs[slot] === 0) {
      this.dead--;
      this.deadBytes -= this.len[slot] as number;
    }
    this.refs[slot] = (this.refs[slot] as number) + 1;
    return slot;
  }

  /** String i's stored bytes (a view of the table: copy before the table changes) and whether they are UTF-16. */
  encoded(i: number): { bytes: Uint8Array; wide: boolean } {
    const from = this.start[i] as number;
    return { bytes: this.arena.subarray(from, from + (this.len[i] as number)), wide: this.wide[i] === 1 };
  }

  /**
   * The index of the string whose stored bytes are `src[from, from + n)` (as encoded() gave them),
   * counting one more user: a book image's strings go in without being decoded to JS strings and
   * encoded again, and without a view object per string (a full world's restore enters ~30M).
   */
  acquireEncoded(src: Uint8Array, from: number, n: number, wide: boolean): number {
    let h = 0x811c9dc5;
    for (let k = from; k < from + n; k++) h = Math.imul(h ^ (src[k] as number), 0x01000193);
    const hash = h >>> 0;
    const w = wide ? 1 : 0;
    // Equal bytes in the two encodings are different texts: the encoding must match too.
    const mask = this.index.length - 1;
    let slot = -1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.index[at] as number;
      if (entry === 0) break;
      const s = entry - 1;
      if (this.hashes[s] !== hash || this.len[s] !== n || this.wide[s] !== w) continue;
      const start = this.start[s] as number;
      let same = true;
      for (let k = 0; k < n && same; k++) same = this.arena[start + k] === src[from + k];
      if (same) {
        slot = s;
        break;
      }
    }
    if (slot < 0) {
      if (n > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(n);
      for (let k = 0; k < n; k++) this.scratch[k] = src[from + k] as number;
      slot = this.insert(hash, n, w);
    } else if (this.refs[slot] === 0) {
      this.dead--;
      this.deadBytes -= this.len[slot] as number;
    }
    this.refs[slot] = (this.refs[slot] as number) + 1;
    return slot;
  }

  /** One more user of string i, which some user holds (a book keeping a string it had). */
  retain(i: number): void {
    if (this.refs[i] === 0) {
      this.dead--;
      this.deadBytes -= this.len[i] as number;
    }
    this.refs[i] = (this.refs[i] as number) + 1;
  }

  /** The index of `s` if some book uses it, else -1 (nothing is counted). */
  find(s: string): number {
    const n = this.encode(s);
    const slot = this.lookup(fnv1a(this.scratch, n), n);
    return slot >= 0 && (this.refs[slot] as number) > 0 ? slot : -1;
  }

  /** One user fewer of string i. */
  release(i: number): void {
    const n = this.refs[i] as number;
    if (n === 0) return;
    this.refs[i] = n - 1;
    if (n > 1) return;
    this.dead++;
    this.deadBytes += this.len[i] as number;
    // Dead strings stay findable until they are many: then their bytes and slots are reclaimed.
    if (this.dead > 4096 && this.dead * 2 > this.slots - this.free.length) this.compact();
  }

  /** Reclaims the bytes and slots of strings no book uses; used slots keep their index. */
  compact(): void {
    const arena = Buffer.allocUnsafeSlow(Math.max(1 << 16, 2 * (this.used - this.deadBytes)));
    let used = 0;
    this.index.fill(0);
    const freed = new Set(this.free);
    for (let slot = 0; slot < this.slots; slot++) {
      if (freed.has(slot)) continue;
      if (this.refs[slot] === 0) {
        this.free.push(slot);
        this.len[slot] = 0;
        continue;
      }
      const from = this.start[slot] as number;
      const n = this.len[slot] as number;
      this.arena.copy(arena, used, from, from + n);
      this.start[slot] = used;
      used += n;
      this.place(slot);
    }
    this.arena = arena;
    this.used = used;
    this.dead = 0;
    this.deadBytes = 0;
  }

  /**
   * Writes s into the scratch buffer as UTF-8, or as UTF-16 when it has a lone surrogate (the feed
   * can send one as a JSON escape, and it must come back as fed); returns its byte length. The
   * encoding depends only on s, so equal strings always have equal bytes.
   */
  private encode(s: string): number {
    // 3 bytes a UTF-16 unit is the most UTF-8 can need.
    if (3 * s.length > this.scratch.length) this.scratch = Buffer.allocUnsafeSlow(3 * s.length);
    this.encodedWide = isWellFormed(s) ? 0 : 1;
    return this.scratch.write(s, 0, this.encodedWide === 1 ? 'utf16le' : 'utf8');
  }

  /** The slot holding the scratch's n bytes, or -1. */
  private lookup(hash: number, n: number): number {
    const mask = this.index.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.index[at] as number;
      if (entry === 0) return -1;
      const slot = entry - 1;
      if (this.hashes[slot] === hash && this.len[slot] === n && this.sameBytes(slot, n)) return slot;
    }
  }

  private sameBytes(slot: number, n: number): boolean {
    const from = this.start[slot] as number;
    const arena = this.arena;
    const scratch = this.scratch;
    for (let k = 0; k < n; k++) if (arena[from + k] !== scratch[k]) return false;
    return true;
  }

  private insert(hash: number, n: number, wide: number): number {
    const slot = this.free.pop() ?? this.slots++;
    if (slot >= this.start.length) this.growColumns();
    if (this.used + n > this.arena.length) {
      const arena = Buffer.allocUnsafeSlow(Math.max(2 * this.arena.length, this.used + n));
      this.arena.copy(arena, 0, 0, this.used);
      this.arena = arena;
    }
    this.scratch.copy(this.arena, this.used, 0, n);
    this.start[slot] = this.used;
    this.len[slot] = n;
    this.hashes[slot] = hash;
    this.wide[slot] = wide;
    this.refs[slot] = 0;
    this.used += n;
    if (2 * (this.slots - this.free.length) > this.index.length) this.growIndex();
    else this.place(slot);
    return slot;
  }

  /** Enters a slot into the index. */
  private place(slot: number): void {
    const mask = this.index.length - 1;
    let at = (this.hashes[slot] as number) & mask;
    while (this.index[at] !== 0) at = (at + 1) & mask;
    this.index[at] = slot + 1;
  }

  private growIndex(): void {
    this.index = new Uint32Array(2 * this.index.length);
    const freed = new Set(this.free);
    for (let slot = 0; slot < this.slots; slot++) if (!freed.has(slot)) this.place(slot);
  }

  private growColumns(): void {
    const grow = (a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
      const b = new Uint32Array(2 * a.length);
      b.set(a);
      return b;
    };
    this.start = grow(this.start);
    this.len = grow(this.len);
    this.refs = grow(this.refs);
    this.hashes = grow(this.hashes);
    const wide = new Uint8Array(2 * this.wide.length);
    wide.set(this.wide);
    this.wide = wide;
  }
}

/** String.prototype.isWellFormed (Node 20 has it; the compiler's lib does not yet). */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** FNV-1a over the first n bytes. */
function fnv1a(bytes: Uint8Array, n: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < n; k++) h = Math.imul(h ^ (bytes[k] as number), 0x01000193);
  return h >>> 0;
}

/** The table of the process: every market book shares it. */
export const sharedStrings = new SharedStrings();
