// Cuts the simulator's output into bounded batches: at most N messages and a bounded amount of market data per batch.
import type { FeedMessage } from '../messages.js';

export interface BatchLimits {
  maxMessages: number;
  /** Budget of "weight": 1 per message plus one per 10 outcomes or odds changes it carries. */
  maxWeight: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxMessages: 2_000, maxWeight: 20_000 };

export function weightOf(m: FeedMessage): number {
  if (m.type === 'markets') {
    let outcomes = 0;
    for (const market of m.markets) outcomes += market.outcomes.length;
    return 1 + Math.ceil(outcomes / 10);
  }
  if (m.type === 'odds') return 1 + Math.ceil(m.changes.length / 10);
  return 1;
}

/** A FIFO of messages that hands out batches within the limits (a single heavy message still goes alone). */
export class Outbox {
  private items: FeedMessage[] = [];
  private head = 0;

  constructor(private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(messages: readonly FeedMessage[]): void {
    for (const m of messages) this.items.push(m);
  }

  take(): FeedMessage[] {
    const out: FeedMessage[] = [];
    let weight = 0;
    while (this.head < this.items.length && out.length < this.limits.maxMessages) {
      const m = this.items[this.head]!;
      const w = weightOf(m);
      if (out.length > 0 && weight + w > this.limits.maxWeight) break;
      out.push(m);
      weight += w;
      this.head++;
    }
    if (this.head > 10_000 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return out;
  }
}
