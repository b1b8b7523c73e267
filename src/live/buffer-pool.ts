// Reusable memory for refreshed payloads: a body goes back to the pool once no response is sending it.

/**
 * Why: a ticking 1,000-market event is refreshed at nearly every read, and a new ~300 KB buffer
 * per refresh (400 MB/s under the capacity run's read load) made the collector run full cycles
 * several times a second. Bodies are recycled instead: a replaced body returns here, waits while
 * a response still holds it (a reply holds its bytes until they are handed to the socket, and
 * writing into them earlier would send a mix of two versions), then serves a later refresh.
 */
export class BufferPool {
  private readonly free: ArrayBuffer[] = [];
  private freeBytes = 0;
  /**
   * Lease counts of buffers being sent (0 once none is). Counts drop to 0 rather than being
   * deleted: a Map shrunk and regrown thousands of times a second allocated new tables enough to
   * matter to the collector, and weak keys let dropped buffers go.
   */
  private readonly held = new WeakMap<ArrayBufferLike, number>();
  /** Given back while held: free once the last lease ends. */
  private readonly retired = new Set<ArrayBufferLike>();
  /** Allocations made here (only those may be reused: others may share Node's pool). */
  private readonly owned = new WeakSet<ArrayBufferLike>();
  /** Allocations avoided, for tests and metrics. */
  reused = 0;
  /** Bytes newly allocated because no pooled buffer fitted (metrics: a steady state allocates ~none). */
  allocatedBytes = 0;

  constructor(private readonly maxFreeBytes = 64 * 1024 * 1024) {}

  /** A buffer of exactly `length` bytes (a view of pooled memory when some fits). */
  take(length: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      // Best fit among those not more than twice too big (a small body must not pin a large block).
      if (size >= length && size <= 2 * length + 4096 && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best >= 0) {
      const ab = this.free[best]!;
      this.free[best] = this.free[this.free.length - 1]!;
      this.free.pop();
      this.freeBytes -= ab.byteLength;
      this.reused++;
      return Buffer.from(ab, 0, length);
    }
    // 5% of slack, so the next refreshes of the same payload (prices change width) fit again.
    const fresh = Buffer.allocUnsafeSlow(Math.ceil(length * 1.05) + 64);
    this.allocatedBytes += fresh.length;
    this.owned.add(fresh.buffer);
    return fresh.subarray(0, length);
  }

  /** Takes back a body that is no longer served (replaced or evicted). Foreign buffers are ignored. */
  give(body: Buffer): void {
    const ab = body.buffer;
    if (!this.owned.has(ab)) return;
    if ((this.held.get(ab) ?? 0) > 0) this.retired.add(ab);
    else this.release(ab as ArrayBuffer);
  }

  /** Marks a buffer as being sent; the returned function (idempotent) ends that. */
  hold(body: Buffer): () => void {
    const ab = body.buffer;
    if (!this.owned.has(ab)) return () => undefined;
    this.held.set(ab, (this.held.get(ab) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.held.get(ab) ?? 1) - 1;
      this.held.set(ab, n);
      if (n === 0 && this.retired.delete(ab)) this.release(ab as ArrayBuffer);
    };
  }

  get pooledBytes(): number {
    return this.freeBytes;
  }

  private release(ab: ArrayBuffer): void {
    if (this.freeBytes + ab.byteLength > this.maxFreeBytes) return; // left to the collector
    this.free.push(ab);
    this.freeBytes += ab.byteLength;
  }
}
