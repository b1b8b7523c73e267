// The stream hub's flush: streams sharing a subscription share one rendered batch, streams following a few events get only theirs, and every stream receives exactly what it would alone.
import { familyIdOfKey } from '../../src/live/market-families.js';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Registry } from 'prom-client';
import { sseFrame } from '../../src/api/stream/sse.js';
import { StreamConnection } from '../../src/api/stream/stream-connection.js';
import { FrameRenderer } from '../../src/api/stream/frame-renderer.js';
import { StreamHub } from '../../src/api/stream/stream-hub.js';
import { StreamMetrics } from '../../src/api/stream/stream-metrics.js';
import { matches, streamNameOf, type StreamSubscription } from '../../src/api/stream/stream-subscription.js';
import type { OddsFormat } from '../../src/domain/types.js';
import { ChangeLog } from '../../src/live/change-log.js';
import type { LogEntry } from '../../src/live/log-entry.js';
import { formatLogPosition, type LogPosition } from '../../src/live/log-position.js';
import { renderEntryData } from '../../src/live/log-render.js';
import { until } from '../helpers/until.js';

/** A socket that takes everything: what the stream wrote, byte for byte. */
class FakeResponse extends EventEmitter {
  chunks: Buffer[] = [];
  writableLength = 0;
  destroyed = false;
  writableEnded = false;
  write(b: Buffer | string): boolean {
    this.chunks.push(Buffer.from(b));
    return true;
  }
  cork(): void {}
  uncork(): void {}
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString();
  }
}

const SPORTS = ['soccer', 'basketball'];
const keyOf = (_eventId: string, marketId: number): string => (marketId % 2 === 0 ? '1x2' : 'totals:2.5');
const familyIdOf = (eventId: string, marketId: number): number => familyIdOfKey(keyOf(eventId, marketId));

function sub(over: Partial<StreamSubscription> = {}): StreamSubscription {
  return { sport: null, league: null, eventIds: null, types: null, families: null, format: 'decimal', ...over };
}

/** A batch like a feed body's: odds of 40 events (two markets each), and a score of every fifth. */
function appendBatch(log: ChangeLog, round: number): void {
  for (let e = 0; e < 40; e++) {
    const eventId = `ev-${e}`;
    const sport = SPORTS[e % 2]!;
    log.append({
      kind: 'odds',
      eventId,
      sport,
      league: `${sport}-league`,
      at: 1000 + round,
      bytes: 100,
      count: 3,
      layout: -1,
      packed: null,
      changes: {
        marketIds: Float64Array.from([2, 2, 3]),
        selectionIds: Float64Array.from([1, 2, 3]),
        odds: Float64Array.from([1.5 + round / 100, 2.5, 3.25 + e / 100]),
        locked: Uint8Array.from([0, 0, round % 2]),
      },
    });
    if (e % 5 === 0) {
      log.append({
        kind: 'score',
        eventId,
        sport,
        league: `${sport}-league`,
        at: 1000 + round,
        bytes: 50,
        json: `{"event_id":"${eventId}","score":{"home":${round},"away":0}}`,
      });
    }
  }
}

/** What a stream alone must receive of these entries after `from`: every match, rendered for it. */
function expected(entries: readonly LogEntry[], s: StreamSubscription, from: LogPosition): string {
  let out = '';
  for (const entry of entries) {
    if (entry.position.ms < from.ms || (entry.position.ms === from.ms && entry.position.seq <= from.seq)) continue;
    if (!matches(s, entry)) continue;
    const data = renderEntryData(entry, { format: s.format, families: s.families, keyOf });
    if (data !== null) out += sseFrame(streamNameOf(entry.kind)!, data, formatLogPosition(entry.position)).toString();
  }
  return out;
}

/** How a scenario's flushes run: on this thread, or with a frame worker (whose answers are awaited). */
type Mode = { renderer?: FrameRenderer | FailingRenderer; settle: (hub: StreamHub) => Promise<void> };

/** A frame worker that always fails: the hub writes every frame itself. */
class FailingRenderer {
  calls = 0;
  render(): Promise<Buffer[]> {
    this.calls++;
    return Promise.reject(new Error('no worker'));
  }
  async close(): Promise<void> {}
}

/** A hub on a log with a settable clock, and a way to open streams on it. */
function rig(renderer?: FrameRenderer) {
  const clock = { now: 1_700_000_000_000 };
  const log = new ChangeLog({ now: () => clock.now, windowMs: 3_600_000, maxBytes: 1e9 });
  const metrics = new StreamMetrics(new Registry(), () => 0);
  const hub = new StreamHub({
    log,
    metrics,
    now: () => clock.now,
    worldNow: () => clock.now,
    heartbeatMs: 60_000,
    charge: () => true,
    ...(renderer !== undefined ? { renderer } : {}),
  });
  /** Opens a stream from the log's head on this response. */
  const open = (res: FakeResponse, s: StreamSubscription): void => {
    hub.add(
      new StreamConnection(
        {
          res: res as unknown as ServerResponse,
          sub: s,
          keyId: 'k',
          bufferBytes: 1e9,
          limits: { maxSelections: 1e6, maxEntries: 1e6, maxStallMs: 1e9 },
          metrics,
          keyOf,
          familyIdOf,
          head: () => log.head,
          continuity: log.continuity,
          now: () => clock.now,
          onClose: (c) => hub.remove(c),
        },
        log.head,
        null,
      ),
    );
  };
  return { clock, log, hub, open };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

async function scenario(mode: Mode): Promise<void> {
  {
    const { clock, log, hub, open: openOn } = rig(mode.renderer as FrameRenderer | undefined);
    const few = new Set(['ev-30', 'ev-3', 'ev-12']);
    const formats: OddsFormat[] = ['decimal', 'american', 'fractional'];
    const subs: StreamSubscription[] = [
      sub(),
      sub(),
      sub({ format: 'fractional' }),
      sub({ eventIds: few }),
      sub({ eventIds: new Set(['ev-12', 'ev-3', 'ev-30']) }),
      sub({ eventIds: few, format: 'american' }),
      sub({ eventIds: new Set(['ev-7']), types: new Set(['score']) }),
      sub({ eventIds: new Set(['nope']) }),
      sub({ sport: 'basketball', families: new Set(['1x2']) }),
      sub({ sport: 'basketball', families: new Set(['1x2']) }),
      ...formats.map((format) => sub({ families: new Set(['totals']), format })),
    ];
    const opened: Array<{ res: FakeResponse; s: StreamSubscription; from: LogPosition }> = [];
    const open = (s: StreamSubscription): void => {
      const res = new FakeResponse();
      opened.push({ res, s, from: log.head });
      openOn(res, s);
    };
    const all: LogEntry[] = [];
    log.subscribe((e) => all.push(e));
    for (const s of subs) open(s);
    for (let round = 0; round < 5; round++) {
      appendBatch(log, round);
      clock.now += 7;
      // A stream joining between flushes shares nothing it has not seen.
      if (round === 1) hub.flush();
      if (round === 1) open(sub({ eventIds: new Set(few) }));
      // Round 3: a flush that cannot wait (a heartbeat's, a lost log's) while the worker writes
      // round 3's frames, with more entries gathered meanwhile: order kept, nothing sent twice.
      // Round 2: a second flush sent to the worker before the first comes back.
      if (round === 2) {
        await turn();
        appendBatch(log, 22);
      }
      if (round === 3) {
        await turn();
        appendBatch(log, 33);
        hub.flush();
        continue;
      }
      await mode.settle(hub);
      if (mode.renderer === undefined) hub.flush();
    }
    await mode.settle(hub);
    hub.closeAll();
    for (const { res, s, from } of opened) {
      const got = res.text.replace(/(id: [^\n]*\n)?event: close\n[^\n]*\n\n$/, '');
      assert.equal(got, expected(all, s, from), JSON.stringify({ ...s, eventIds: [...(s.eventIds ?? [])] }));
    }
    assert.ok(opened[0]!.res.text.length > 0);
  }
}

describe('stream hub flush', () => {
  it('equal subscriptions, narrow event filters and everything else each receive exactly their own stream', async () => {
    await scenario({ settle: async () => {} });
  });

  it('the same, byte for byte, with a frame worker writing the odds frames', async () => {
    const renderer = new FrameRenderer();
    // Answers come from another thread: wait until the hub has handed out everything it was given.
    const settle = async (hub: StreamHub): Promise<void> => {
      await until('the frame worker’s answers', () => hub.idle, 10_000, 1).catch(() => undefined);
      assert.ok(hub.idle, 'the frame worker answered');
    };
    await scenario({ renderer, settle });
    assert.equal(renderer.rendered, 5, 'rounds 0, 2 (twice), 3 (answered after the hub wrote it itself) and 4');
    assert.equal(renderer.failed, 0);
  });

  it('the same when the frame worker fails: the hub writes the frames itself', async () => {
    const renderer = new FailingRenderer();
    await scenario({
      renderer,
      settle: async () => {
        for (let i = 0; i < 5; i++) await turn();
      },
    });
    assert.ok(renderer.calls >= 3);
  });

  it('a stream following every event writes a flush as one view of the frames, even when a narrower stream rendered some first', () => {
    const { clock, log, hub, open: openOn } = rig();
    const open = (s: StreamSubscription): Buffer[] => {
      const written: Buffer[] = [];
      openOn(Object.assign(new FakeResponse(), { write: (b: Buffer): boolean => (written.push(b), true) }), s);
      return written;
    };
    // Opened first: a tracker of three events, in the firehose's rendering.
    const tracker = open(sub({ eventIds: new Set(['ev-3', 'ev-12', 'ev-30']) }));
    const firehose = open(sub({ types: new Set(['odds']) }));
    const all: LogEntry[] = [];
    log.subscribe((e) => all.push(e));
    // Ten feed bodies' worth: the flush's slab is sized to them (a small one would be copied out).
    for (let round = 0; round < 10; round++) appendBatch(log, round);
    clock.now += 7;
    hub.flush();
    const chunk = firehose[0]!;
    assert.equal(firehose.length, 1);
    // 400 frames of a few hundred bytes: copied into one chunk, they would fill an exact new buffer.
    assert.ok(chunk.length > 65_536);
    assert.ok(chunk.buffer.byteLength > chunk.length, 'a view of the arena, not a copy');
    assert.equal(chunk.toString(), expected(all, sub({ types: new Set(['odds']) }), { ms: 0, seq: 0 }));
    assert.equal(tracker.length, 1);
    hub.closeAll();
  });

  it('writes a feed batch when the log says it is complete, not a turn of the event loop later', async () => {
    const { clock, log, hub, open } = rig();
    const res = new FakeResponse();
    open(res, sub());
    appendBatch(log, 0);
    clock.now += 7;
    assert.equal(res.chunks.length, 0, 'gathered until the batch is complete');
    log.settle();
    assert.equal(res.chunks.length, 1, 'written at once, in one chunk');
    assert.match(res.text, /event: score/);
    // The turn scheduled at the first append finds nothing left to write.
    await turn();
    assert.equal(res.chunks.length, 1);
    hub.closeAll();
  });
});
