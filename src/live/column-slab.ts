// Carves the small typed arrays of odds log entries out of shared slabs: one allocation for many entries.

/**
 * Why: a capacity tick makes 1,000 odds entries of ~3 KB of columns each, and an ArrayBuffer of
 * its own per entry cost more than filling it (each is an external allocation that V8 counts
 * toward its next full collection). Entries leave memory in the order they were made (the log's
 * tail is dropped at each seal), so a slab is let go soon after its last entry.
 */
export class ColumnSlab {
  private slab: ArrayBuffer;
  private used = 0;
  /** Where the last take from the slab began (-1: it had a buffer of its own). */
  private lastAt = -1;

  constructor(private readonly size = 256 * 1024) {
    this.slab = new ArrayBuffer(size);
  }

  /**
   * Room for `bytes` (8-byte aligned) in `buffer`, at the returned offset. Something bigger than a
   * quarter of a slab gets a buffer of its own, so one large entry does not strand a slab.
   */
  take(bytes: number): { buffer: ArrayBuffer; offset: number } {
    const need = Math.ceil(bytes / 8) * 8;
    if (need > this.size / 4) {
      this.lastAt = -1;
      return { buffer: new ArrayBuffer(need), offset: 0 };
    }
    if (this.used + need > this.slab.byteLength) {
      this.slab = new ArrayBuffer(this.size);
      this.used = 0;
    }
    const offset = this.used;
    this.used += need;
    this.lastAt = offset;
    return { buffer: this.slab, offset };
  }

  /**
   * The last take needed only `bytes` of the room it asked for (a worst case reserved before an
   * encoding): the rest goes back to the slab. Returns false when that take had a buffer of its
   * own (the caller copies what it keeps, rather than holding the whole buffer).
   */
  shrinkLast(bytes: number): boolean {
    if (this.lastAt < 0) return false;
    this.used = this.lastAt + Math.ceil(bytes / 8) * 8;
    this.lastAt = -1;
    return true;
  }
}
