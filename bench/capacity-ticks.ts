// One capacity "tick": an NDJSON body with one `odds` message per live event, each moving N random selections.
import type { LiveBook } from './capacity-world.js';
import { STAMP_SELECTION_ID, stampOdds } from './stream-stamp.js';
import { prng } from './world.js';

/** A locked selection reopens at this chance per tick it is picked, an open one locks at LOCK_CHANCE. */
const UNLOCK_CHANCE = 0.2;
const LOCK_CHANCE = 0.01;

/** What a tick may carry besides its random moves. */
export interface TickExtras {
  /** This tick's number, written as the price of STAMP_SELECTION_ID in every event (stream latency). */
  stampSeq?: number;
  /** The messages' `ts` (world time), e.g. an hour of history fed faster than real time. */
  ts?: string;
}

export interface Tick {
  body: Uint8Array;
  /** Selection changes in the body (odds, and now and then a lock flag). */
  changes: number;
  locks: number;
}

/**
 * Builds tick bodies. Locks are tracked per selection so a toggle really toggles; with the chances
 * above about 5% of the touched selections are locked at any time, as during a busy live evening.
 */
export class TickBuilder {
  private readonly random: () => number;
  private readonly locked: Uint8Array[];
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly live: readonly LiveBook[],
    private readonly changesPerEvent: number,
    seed: number,
  ) {
    this.random = prng(seed);
    this.locked = live.map((e) => new Uint8Array(e.selections + 1));
  }

  next(extras: TickExtras = {}): Tick {
    const lines: string[] = new Array<string>(this.live.length);
    const stamp = extras.stampSeq;
    const ts = extras.ts === undefined ? '' : `"ts":${JSON.stringify(extras.ts)},`;
    let changes = 0;
    let locks = 0;
    const picked = new Set<number>();
    for (let e = 0; e < this.live.length; e++) {
      const book = this.live[e]!;
      const locked = this.locked[e]!;
      // A stamped tick moves the stamp selection first, then n - 1 others drawn from the rest.
      const stamped = stamp !== undefined;
      const first = stamped ? STAMP_SELECTION_ID + 1 : 1;
      const n = Math.min(this.changesPerEvent - (stamped ? 1 : 0), book.selections - first + 1);
      // Floyd's sampling: n distinct selection ids out of first..selections without shuffling the whole range.
      picked.clear();
      const range = book.selections - first + 1;
      for (let j = range - n + 1; j <= range; j++) {
        const t = 1 + Math.floor(this.random() * j);
        picked.add(picked.has(t) ? j : t);
      }
      const parts: string[] = [];
      if (stamped) parts.push(`{"selection_id":${STAMP_SELECTION_ID},"odds":${stampOdds(stamp)}}`);
      for (const pick of picked) {
        const id = pick + first - 1;
        // Prices between 1.01 and ~21 with two decimals: what matters to the service is that they move.
        const odds = Math.round((1.01 + this.random() * 20) * 100) / 100;
        const wasLocked = locked[id] === 1;
        const toggle = this.random() < (wasLocked ? UNLOCK_CHANCE : LOCK_CHANCE);
        if (toggle) {
          locked[id] = wasLocked ? 0 : 1;
          locks++;
          parts.push(`{"selection_id":${id},"odds":${odds},"is_locked":${!wasLocked}}`);
        } else {
          parts.push(`{"selection_id":${id},"odds":${odds}}`);
        }
      }
      changes += parts.length;
      lines[e] = `{"type":"odds",${ts}"event_id":${JSON.stringify(book.eventId)},"changes":[${parts.join(',')}]}`;
    }
    return { body: this.encoder.encode(lines.join('\n')), changes, locks };
  }
}
