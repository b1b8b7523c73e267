// Worker thread of the capacity section: sends a tick every period and times each round trip, away from the load generator's event loop.
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import type { LiveBook } from './capacity-world.js';
import { TickBuilder } from './capacity-ticks.js';

export interface TickerOptions {
  baseUrl: string;
  adminKey: string;
  live: LiveBook[];
  changesPerEvent: number;
  periodMs: number;
  /** Ticks in the first `warmupMs` are sent but not recorded (JIT, first payload builds). */
  warmupMs: number;
  durationMs: number;
  seed: number;
  /** Stamp every tick with its number (stream latency), numbering from this; absent: no stamps. */
  stampFrom?: number;
}

export interface TickRecord {
  /** When the tick was due, ms after the recorded window opened. */
  dueMs: number;
  /** How late it was sent (the previous tick still running, or this thread busy). */
  lagMs: number;
  /** POST round trip: the service answers once every line is applied. */
  roundTripMs: number;
  bytes: number;
  changes: number;
  locks: number;
  accepted: number;
  /** Building this tick's body on the bench side (not part of the round trip). */
  buildMs: number;
}

export interface TickerResult {
  ticks: TickRecord[];
  /** Slots of the recorded window that never got a tick because earlier ones overran. */
  skippedSlots: number;
  /** Slots in the recorded window. */
  slots: number;
  /** Every stamped tick sent (warm-up included): its number and when its POST began (wall-clock ms). */
  stamps: Array<{ seq: number; sentAtMs: number }>;
}

export type TickerMessage =
  | { kind: 'progress'; recorded: number; lastRoundTripMs: number }
  | { kind: 'done'; result: TickerResult }
  | { kind: 'error'; message: string };

async function post(url: string, adminKey: string, body: Uint8Array): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'x-admin-key': adminKey, 'content-type': 'application/x-ndjson' },
    body,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`tick POST answered ${res.status}: ${text.slice(0, 500)}`);
  const report = JSON.parse(text) as {
    accepted: number;
    rejected: number;
    errors: Array<{ line: number; message: string }>;
  };
  if (report.rejected > 0) {
    throw new Error(
      `the service rejected ${report.rejected} tick line(s), e.g. line ${report.errors[0]?.line}: ${report.errors[0]?.message}`,
    );
  }
  return report.accepted;
}

async function run(o: TickerOptions): Promise<TickerResult> {
  const url = `${o.baseUrl}/admin/v1/feed`;
  const builder = new TickBuilder(o.live, o.changesPerEvent, o.seed);
  const stamps: TickerResult['stamps'] = [];
  let seq = o.stampFrom ?? 0;
  const extras = (): { stampSeq?: number } => (o.stampFrom === undefined ? {} : { stampSeq: seq });
  let built = performance.now();
  let tick = builder.next(extras());
  let buildMs = performance.now() - built;
  const start = performance.now();
  const open = start + o.warmupMs;
  const end = open + o.durationMs;
  const ticks: TickRecord[] = [];
  let skippedSlots = 0;
  let slot = 0;
  for (;;) {
    let due = start + slot * o.periodMs;
    if (due >= end) break;
    const now = performance.now();
    if (now >= end) {
      // Overran into the end of the window: the remaining slots never got their tick.
      skippedSlots += Math.ceil((end - due) / o.periodMs);
      break;
    }
    if (now < due) await sleep(due - now);
    const sent = performance.now();
    if (o.stampFrom !== undefined) stamps.push({ seq, sentAtMs: performance.timeOrigin + sent });
    const accepted = await post(url, o.adminKey, tick.body);
    const done = performance.now();
    if (due >= open) {
      ticks.push({
        dueMs: due - open,
        lagMs: sent - due,
        roundTripMs: done - sent,
        bytes: tick.body.length,
        changes: tick.changes,
        locks: tick.locks,
        accepted,
        buildMs,
      });
      if (ticks.length % 10 === 0) {
        parentPort?.postMessage({
          kind: 'progress',
          recorded: ticks.length,
          lastRoundTripMs: done - sent,
        } satisfies TickerMessage);
      }
    }
    built = performance.now();
    seq++;
    tick = builder.next(extras());
    buildMs = performance.now() - built;
    // A producer that overran sends its next update at once, but does not replay the slots it missed.
    const next = slot + 1;
    const nowSlot = Math.floor((performance.now() - start) / o.periodMs);
    if (nowSlot > next) {
      for (let s = next; s < nowSlot; s++) {
        due = start + s * o.periodMs;
        if (due >= open && due < end) skippedSlots++;
      }
      slot = nowSlot;
    } else slot = next;
  }
  // Slots k with start + k × period inside [open, end).
  const slots = Math.ceil((o.warmupMs + o.durationMs) / o.periodMs) - Math.ceil(o.warmupMs / o.periodMs);
  return { ticks, skippedSlots, slots, stamps };
}

run(workerData as TickerOptions).then(
  (result) => parentPort?.postMessage({ kind: 'done', result } satisfies TickerMessage),
  (err: unknown) =>
    parentPort?.postMessage({
      kind: 'error',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    } satisfies TickerMessage),
);
