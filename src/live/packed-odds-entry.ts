// An odds log entry held as its changes' compact bytes (log-codec.ts), decoded into columns only when something asks for them.
import type { LogPosition } from './log-position.js';
import type { OddsChanges, OddsEntry } from './log-entry.js';
import { Reader, readOddsChanges } from './log-codec.js';

const NO_POSITION: LogPosition = { ms: 0, seq: 0 };

/**
 * Why: the window, the odds history and the store's odds rows all keep a price change in the
 * compact form (5-7 bytes), and a capacity tick makes 100,000 of them. Encoded once as the tick
 * is applied, an entry is copied where it is kept; the five columns a stream client or a replica
 * renders from (29 bytes a change) are decoded on first use, and never when nobody streams.
 */
export class PackedOddsEntry implements OddsEntry {
  readonly kind = 'odds' as const;
  position: LogPosition = NO_POSITION;
  private decoded: OddsChanges | null = null;

  constructor(
    public eventId: string,
    public sport: string,
    public league: string,
    public at: number,
    public count: number,
    public layout: number,
    public packed: Uint8Array,
    public bytes: number,
  ) {}

  get changes(): OddsChanges {
    if (this.decoded !== null) return this.decoded;
    const n = this.count;
    const buffer = new ArrayBuffer(25 * n + n);
    const out: OddsChanges = {
      marketIds: new Float64Array(buffer, 0, n),
      selectionIds: new Float64Array(buffer, 8 * n, n),
      odds: new Float64Array(buffer, 16 * n, n),
      locked: new Uint8Array(buffer, 24 * n, n),
    };
    readOddsChanges(new Reader(this.packed), n, false, out, 0);
    return (this.decoded = out);
  }
}
