// One flush's rendered frames, by rendering and entry, and the arenas they are written into.
import type { LogEntry } from '../../live/log-entry.js';
import { FrameArena } from './frame-arena.js';
import { oddsFrameBound } from './odds-frame.js';

/** The first slab of a filtered rendering (families), and of any rendering of a small flush. */
const MIN_SLAB_BYTES = 64 * 1024;

export class FrameCache {
  /** Frames by rendering key (renderKey) and entry; null: nothing of the entry for that rendering. */
  readonly byKey = new Map<string, Map<LogEntry, Buffer | null>>();
  private readonly arenas = new Map<string, FrameArena>();
  private bound = -1;

  /** `batch`: the flush's entries (a rendering's slab is sized to hold every odds frame of them). */
  constructor(private readonly batch: readonly LogEntry[]) {}

  get(key: string, entry: LogEntry): Buffer | null | undefined {
    return this.byKey.get(key)?.get(entry);
  }

  set(key: string, entry: LogEntry, frame: Buffer | null): void {
    let byEntry = this.byKey.get(key);
    if (byEntry === undefined) this.byKey.set(key, (byEntry = new Map()));
    byEntry.set(entry, frame);
  }

  /**
   * Where a rendering's odds frames of this flush are written, back to back. A rendering of every
   * change (renderKey without families) starts with room for all of the flush's frames, so that a
   * stream taking them all writes one view; a filtered one starts small and grows.
   */
  arena(key: string): FrameArena {
    let arena = this.arenas.get(key);
    if (arena === undefined) {
      const whole = !key.includes('|');
      arena = new FrameArena(() => (whole ? this.slabBytes() : MIN_SLAB_BYTES));
      this.arenas.set(key, arena);
    }
    return arena;
  }

  private slabBytes(): number {
    if (this.bound < 0) {
      let bytes = 0;
      for (const entry of this.batch) if (entry.kind === 'odds') bytes += oddsFrameBound(entry);
      this.bound = Math.max(MIN_SLAB_BYTES, bytes);
    }
    return this.bound;
  }
}
