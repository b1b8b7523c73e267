// The stream hub's flush alone, in process: a capacity tick (1,000 odds entries of 100 changes) handed to the stream mix's 1,000 clients, against copying the same bytes.
import { EventEmitter } from 'node:events';
import { Registry } from 'prom-client';
import { StreamConnection } from '../src/api/stream/stream-connection.js';
import { StreamHub } from '../src/api/stream/stream-hub.js';
import { StreamMetrics } from '../src/api/stream/stream-metrics.js';
import type { StreamSink } from '../src/api/stream/stream-sink.js';
import {
  STREAM_EVENT_NAMES,
  type StreamEventName,
  type StreamSubscription,
} from '../src/api/stream/stream-subscription.js';
import type { OddsFormat } from '../src/domain/types.js';
import { ChangeLog } from '../src/live/change-log.js';
import { familyIdOfKey } from '../src/live/market-families.js';
import { median } from './measure.js';
import { check, type Section, type SectionResult } from './section.js';
import { streamClientMix } from './stream-mix.js';
import { prng } from './world.js';

const EVENTS = 1000;
const SELECTIONS = 3000;
const CHANGES = 100;
const ROUNDS = 12;
const SPORTS = ['soccer', 'basketball', 'american-football'];

/** A socket that keeps the chunks written in this flush (the baseline copies the same ones). */
class Sink extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  writableEnded = false;
  chunks: Buffer[] = [];
  write(b: Buffer | string): boolean {
    if (typeof b !== 'string') this.chunks.push(b);
    return true;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

/**
 * Market keys of the synthetic books, shares as in the capacity world: market 1 is the main one
 * (1x2 or moneyline, whose first selection moves every tick, as the bench's stamp), one in ten a
 * line (totals, spread), the rest other families.
 */
function keyOf(eventId: string, marketId: number): string {
  if (marketId === 1) return eventId.startsWith('cap-soccer') ? '1x2' : 'moneyline';
  if (marketId % 20 === 2) return 'totals:2.5';
  if (marketId % 20 === 3) return 'spread:-1.5';
  return `player_points_p${marketId}:10.5`;
}

function subscriptionOf(query: string): StreamSubscription {
  const q = new URLSearchParams(query);
  const set = (name: string): Set<string> | null => (q.has(name) ? new Set(q.get(name)!.split(',')) : null);
  const types = set('types') as Set<StreamEventName> | null;
  for (const t of types ?? []) if (!(STREAM_EVENT_NAMES as readonly string[]).includes(t)) throw new Error(t);
  return {
    sport: q.get('sport'),
    league: null,
    eventIds: set('event_ids'),
    types,
    families: set('markets'),
    format: (q.get('odds_format') ?? 'decimal') as OddsFormat,
  };
}

export const streamFlushSection: Section = {
  name: 'stream-flush',
  description:
    "the stream hub's flush of one capacity tick (1,000 odds entries of 100 changes) to the stream mix's 1,000 clients, in process, against copying the same bytes",
  async run(ctx): Promise<SectionResult> {
    const random = prng(7);
    let now = 1_700_000_000_000;
    const log = new ChangeLog({ now: () => now, windowMs: 60_000, maxBytes: 4e9 });
    const metrics = new StreamMetrics(new Registry(), () => 0);
    const hub = new StreamHub({
      log,
      metrics,
      now: () => now,
      worldNow: () => now,
      heartbeatMs: 3_600_000,
      charge: () => true,
    });
    const ids = Array.from({ length: EVENTS }, (_, i) => `cap-${SPORTS[i % 3]}-${i}`);
    const live = ids.map((eventId) => ({ eventId, selections: SELECTIONS }));
    const sinks: Sink[] = [];
    for (const spec of streamClientMix(live, 1000, 1)) {
      const sink = new Sink();
      sinks.push(sink);
      const conn = new StreamConnection(
        {
          res: sink as unknown as StreamSink,
          sub: subscriptionOf(spec.query),
          keyId: `k${spec.id}`,
          bufferBytes: 1e12,
          limits: { maxSelections: 1e9, maxEntries: 1e9, maxStallMs: 1e12 },
          metrics,
          keyOf,
          familyIdOf: (e, m) => familyIdOfKey(keyOf(e, m)),
          head: () => log.head,
          continuity: log.continuity,
          now: () => now,
          onClose: (c) => hub.remove(c),
        },
        log.head,
        null,
      );
      hub.add(conn);
    }
    const tick = (): void => {
      for (const eventId of ids) {
        const picked = new Set<number>([1]);
        while (picked.size < CHANGES) picked.add(1 + Math.floor(random() * SELECTIONS));
        const sel = Float64Array.from(picked);
        log.append({
          kind: 'odds',
          eventId,
          sport: eventId.slice(4, eventId.lastIndexOf('-')).replaceAll('-', '_'),
          league: 'capacity',
          at: now,
          bytes: CHANGES * 40,
          count: CHANGES,
          layout: -1,
          packed: null,
          changes: {
            marketIds: sel.map((s) => Math.ceil(s / 3)),
            selectionIds: sel,
            odds: sel.map(() => Math.round((1.01 + random() * 20) * 100) / 100),
            locked: Uint8Array.from(sel, () => (random() < 0.05 ? 1 : 0)),
          },
        });
      }
    };
    const flushMs: number[] = [];
    const copyMs: number[] = [];
    let bytes = 0;
    for (let r = 0; r < ROUNDS; r++) {
      now += 300;
      tick();
      for (const s of sinks) s.chunks = [];
      const t0 = performance.now();
      hub.flush();
      const t1 = performance.now();
      // The baseline: the same chunks copied once each (what writing bytes held ready would cost).
      let total = 0;
      for (const s of sinks) total += Buffer.concat(s.chunks).length;
      const t2 = performance.now();
      if (r < 2) continue; // warm-up
      flushMs.push(t1 - t0);
      copyMs.push(t2 - t1);
      bytes = total;
    }
    hub.closeAll();
    const flush = median(flushMs);
    const copy = median(copyMs);
    ctx.log(
      `[stream-flush] flush p50 ${flush.toFixed(1)} ms, copy p50 ${copy.toFixed(1)} ms, ${(bytes / 1e6).toFixed(1)} MB a tick`,
    );
    return {
      rows: [],
      checks: [check('stream-flush', 'flush / copy of the same bytes', flush / copy, '<=', 3)],
      notes: [
        `one flush of a 1,000-entry tick to 1,000 clients: median ${flush.toFixed(1)} ms over ${flushMs.length} ticks (min ${Math.min(...flushMs).toFixed(1)}, max ${Math.max(...flushMs).toFixed(1)})`,
        `copying the same ${(bytes / 1e6).toFixed(1)} MB once: median ${copy.toFixed(1)} ms`,
      ],
      data: { flushMs, copyMs, bytes },
    };
  },
};
