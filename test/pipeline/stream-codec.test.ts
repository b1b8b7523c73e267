// The change stream's wire form: batches of feed messages survive the trip exactly, odds packed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePackedBody } from '../../src/feed/packed-body.js';
import { unpack, type IngressMessage, type PackedOddsMessage } from '../../src/feed/packed-odds.js';
import type { PipelineMessage } from '../../src/pipeline/pipeline.js';
import type { LogEntryKind } from '../../src/live/log-entry.js';
import type { BatchPositions } from '../../src/live/log-replay.js';
import {
  decodeBatchPositions,
  decodeFeedBatch,
  encodeBatchPositions,
  encodeFeedBatch,
  StreamDecodeError,
} from '../../src/pipeline/stream-codec.js';

/** Odds messages compared in their JSON form (packed arrays are views into different buffers). */
function plain(messages: readonly PipelineMessage[]): unknown[] {
  return messages.map((m) => (m.type === 'odds' && 'packed' in m ? unpack(m) : m));
}

describe('change stream codec', () => {
  it('round-trips JSON messages and odds (as JSON or packed) in order', () => {
    const body = [
      {
        type: 'fixture',
        event_id: 'é-1',
        ts: '2026-03-01T12:00:00.123Z',
        sport: 'soccer',
        league: { slug: 'ligue-1', name: 'Ligue 1', country: 'France' },
        home_team: 'Olympique Lyonnais ⚽',
        away_team: 'Paris',
        start_time: '2026-03-01T20:00:00Z',
      },
      {
        type: 'odds',
        event_id: 'e1',
        ts: '2026-03-01T12:00:01Z',
        changes: [
          { selection_id: 7, odds: 1.85 },
          { selection_id: 9, is_locked: true },
        ],
      },
      { type: 'status', event_id: 'e1', status: 'live' },
    ];
    // One body parsed the way the ingress does: odds land packed in views into one arena.
    const lines = parsePackedBody(body.map((m) => JSON.stringify(m)).join('\n')).lines;
    const messages = lines.map((l) => {
      assert.ok(!('error' in l), JSON.stringify(l));
      return l.message;
    });
    assert.ok('packed' in (messages[1] as PackedOddsMessage));
    const decoded = decodeFeedBatch(encodeFeedBatch(messages));
    assert.deepEqual(plain(decoded), plain(messages));
    const odds = decoded[1] as PackedOddsMessage;
    assert.ok(Number.isNaN(odds.packed.odds[1]), 'a change without a price stays without one');
    assert.equal(odds.packed.locks[0], -1, 'a change without a lock stays without one');
    assert.equal(odds.packed.locks[1], 1);
  });

  it("carries the leader's stale-feed locks between feed messages, in order", () => {
    const messages: PipelineMessage[] = [
      { type: 'status', event_id: 'e1', status: 'live', ts: '2026-03-01T12:00:00Z' },
      { type: 'feed_stale', event_id: 'e1', stale: true, ts: '2026-03-01T12:00:30Z' },
      { type: 'feed_stale', event_id: 'e1', stale: false, ts: '2026-03-01T12:00:31Z' },
    ];
    assert.deepEqual(decodeFeedBatch(encodeFeedBatch(messages)), messages);
  });

  it('packs an odds message that arrived as objects (the simulator)', () => {
    const msg: IngressMessage = {
      type: 'odds',
      event_id: 'sim-1',
      ts: '2026-03-01T12:00:00Z',
      changes: Array.from({ length: 1000 }, (_, i) => ({
        selection_id: i + 1,
        odds: 1.01 + i / 100,
        is_locked: i % 3 === 0,
      })),
    };
    const buf = encodeFeedBatch([msg]);
    assert.ok(buf.length < 1000 * 17 + 100, `${buf.length} bytes for 1,000 changes`);
    const [back] = decodeFeedBatch(buf);
    assert.ok(back !== undefined && back.type === 'odds' && 'packed' in back);
    assert.deepEqual(unpack(back), msg);
  });

  it('an empty batch is empty, and a cut or foreign entry is refused', () => {
    assert.deepEqual(decodeFeedBatch(encodeFeedBatch([])), []);
    const buf = encodeFeedBatch([{ type: 'odds', event_id: 'e', changes: [{ selection_id: 1, odds: 2 }] }]);
    assert.throws(() => decodeFeedBatch(buf.subarray(0, buf.length - 3)), StreamDecodeError);
    assert.throws(() => decodeFeedBatch(Buffer.from([9, 0, 0, 0, 0])), StreamDecodeError);
  });
});

describe('change stream codec: log positions', () => {
  it("round-trips a batch's positions and kinds; consecutive positions travel as runs", () => {
    // A capacity tick: ~1,000 odds entries appended over ~30 ms, a status and a score among them.
    const p: BatchPositions = { ms: [], seq: [], kinds: [] };
    for (let i = 0; i < 1000; i++) {
      const ms = 1_800_000_000_000 + Math.floor(i / 34);
      const seq = i % 34;
      p.ms.push(ms);
      p.seq.push(seq);
      p.kinds.push((i === 500 ? 'status' : i === 501 ? 'score' : 'odds') as LogEntryKind);
    }
    const buf = encodeBatchPositions(p);
    assert.equal(buf.length, 8 + 16 * 30 + 1000, '30 runs of 16 bytes and a byte a kind');
    assert.deepEqual(decodeBatchPositions(buf), p);
    const gap: BatchPositions = { ms: [5, 5, 9], seq: [1, 3, 0], kinds: ['settlement', 'outright', 'result'] };
    assert.deepEqual(decodeBatchPositions(encodeBatchPositions(gap)), gap);
    assert.deepEqual(decodeBatchPositions(encodeBatchPositions({ ms: [], seq: [], kinds: [] })), {
      ms: [],
      seq: [],
      kinds: [],
    });
  });

  it('cut or foreign positions are refused', () => {
    const buf = encodeBatchPositions({ ms: [1, 1], seq: [0, 1], kinds: ['odds', 'odds'] });
    assert.throws(() => decodeBatchPositions(buf.subarray(0, buf.length - 1)), StreamDecodeError);
    assert.throws(() => decodeBatchPositions(Buffer.from([1, 2])), StreamDecodeError);
    const foreign = Buffer.from(buf);
    foreign.writeUInt8(200, foreign.length - 1);
    assert.throws(() => decodeBatchPositions(foreign), StreamDecodeError);
  });
});
