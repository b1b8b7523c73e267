// Memory for one flush's frames of one rendering: frames written one after another into one slab, so a stream taking them all writes one view instead of a copy.

/**
 * Why: a flush renders thousands of odds frames of a few KB each. Allocated one by one, each is a
 * backing store of its own (a third of a 1,000-client flush's time went to allocating and
 * collecting them), and a stream taking every entry then copied them all again into one chunk.
 * Written back to back into one slab, they cost one allocation, and a run of them is one view.
 */
export class FrameArena {
  private slab: Buffer | null = null;
  private used = 0;

  /**
   * `firstSlab`: what the first slab holds (a rendering of every change: the flush's upper bound,
   * so that its frames are one run; a filtered one: a little). Each further slab doubles the last.
   */
  constructor(private readonly firstSlab: () => number) {}

  /**
   * Room for at most `max` bytes at `at` of `slab`; `commit(n)` then keeps the first n of them.
   * Untouched room costs no memory: a large slab is mapped, not written, until used.
   */
  reserve(max: number): { slab: Buffer; at: number } {
    if (this.slab === null || this.slab.length - this.used < max) {
      const next = this.slab === null ? this.firstSlab() : 2 * this.slab.length;
      this.slab = Buffer.allocUnsafeSlow(Math.max(max, next));
      this.used = 0;
    }
    return { slab: this.slab, at: this.used };
  }

  /** Keeps `bytes` from the last reservation and returns them as a view. */
  commit(bytes: number): Buffer {
    const slab = this.slab as Buffer;
    const view = slab.subarray(this.used, this.used + bytes);
    this.used += bytes;
    return view;
  }
}

/**
 * The frames as one buffer: a view when they lie back to back in one slab (a stream that takes a
 * rendering's every frame of a flush), a copy otherwise.
 */
export function joinFrames(frames: readonly Buffer[]): Buffer {
  const first = frames[0];
  if (first === undefined) return Buffer.alloc(0);
  if (frames.length === 1) return first;
  let end = first.byteOffset + first.length;
  let bytes = first.length;
  for (let i = 1; i < frames.length; i++) {
    const f = frames[i] as Buffer;
    if (f.buffer !== first.buffer || f.byteOffset !== end) return Buffer.concat(frames);
    end += f.length;
    bytes += f.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, bytes);
}
