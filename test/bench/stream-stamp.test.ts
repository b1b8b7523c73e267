// Stream benchmark stamps: a tick number survives the service's rendering in every odds format, and latency is taken from the right tick.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TickBuilder } from '../../bench/capacity-ticks.js';
import { stampLatencies } from '../../bench/stream.js';
import { streamClientMix } from '../../bench/stream-mix.js';
import {
  STAMP_CODES,
  STAMP_SELECTION_ID,
  StampClock,
  decodeStamp,
  stampOdds,
  stampText,
} from '../../bench/stream-stamp.js';
import type { OddsFormat } from '../../src/domain/types.js';
import { sseFrame } from '../../src/api/stream/sse.js';
import type { OddsEntry } from '../../src/live/log-entry.js';
import { oddsJson, renderEntryData } from '../../src/live/log-render.js';
import { validateFeedMessage } from '../../src/feed/messages.js';

const FORMATS: readonly OddsFormat[] = ['decimal', 'american', 'fractional_exact'];

function oddsEntry(selectionIds: number[], odds: number[]): OddsEntry {
  const n = selectionIds.length;
  return {
    kind: 'odds',
    position: { ms: 1_700_000_000_000, seq: 3 },
    eventId: 'cap-soccer-0',
    sport: 'soccer',
    league: 'soccer-england-1',
    at: 1_700_000_000_000,
    bytes: 0,
    count: n,
    layout: -1,
    packed: null,
    changes: {
      marketIds: Float64Array.from(selectionIds, () => 1),
      selectionIds: Float64Array.from(selectionIds),
      odds: Float64Array.from(odds),
      locked: new Uint8Array(n),
    },
  };
}

describe('stream bench stamps', () => {
  it('every stamp code reads back from the price the service renders, in every odds format', () => {
    for (const format of FORMATS) {
      for (let seq = 0; seq < 2 * STAMP_CODES; seq += 7) {
        const text = oddsJson(stampOdds(seq), format);
        assert.equal(decodeStamp(text, format), seq % STAMP_CODES, `${format} ${text} (seq ${seq})`);
      }
    }
  });

  it('a price outside the stamp range, or unreadable, is no stamp', () => {
    assert.equal(decodeStamp('1.5', 'decimal'), null);
    assert.equal(decodeStamp('-200', 'american'), null);
    assert.equal(decodeStamp('"1/2"', 'fractional_exact'), null);
    // The traditional ladder rounds many prices to one rung: no stamp can be read from it.
    assert.equal(decodeStamp(oddsJson(stampOdds(437), 'fractional'), 'fractional'), null);
    assert.equal(decodeStamp('12.5', 'decimal'), null);
    assert.equal(decodeStamp('', 'decimal'), null);
    assert.equal(decodeStamp('"x/0"', 'fractional_exact'), null);
  });

  it("finds the stamp selection's price in an SSE odds frame, not a selection whose id starts alike", () => {
    for (const format of FORMATS) {
      const entry = oddsEntry([11, STAMP_SELECTION_ID, 12], [3.5, stampOdds(437), 1.8]);
      const data = renderEntryData(entry, { format, families: null });
      assert.ok(data !== null);
      const frame = sseFrame('odds', data, '1700000000000-3').toString().replace(/\n\n$/, '');
      const text = stampText(frame);
      assert.ok(text !== null, frame);
      assert.equal(decodeStamp(text, format), 437);
    }
    const without = sseFrame(
      'odds',
      renderEntryData(oddsEntry([11], [2.5]), { format: 'decimal', families: null })!,
      '1-1',
    );
    assert.equal(stampText(without.toString()), null);
  });

  it('times a stamp from the latest tick with its code sent before it arrived', () => {
    const clock = new StampClock();
    for (let seq = 0; seq < 2500; seq++) clock.record(seq, 10_000 + seq * 300);
    // Code 5 was sent as ticks 5, 1005 and 2005; an arrival just after 1005's send belongs to 1005.
    assert.equal(clock.latency(5, 10_000 + 1005 * 300 + 40), 40);
    assert.equal(clock.latency(5, 10_000 + 2005 * 300 + 120), 120);
    // Before any tick with that code was sent: not timed.
    assert.equal(clock.latency(7, 10_000 + 6 * 300), null);
    assert.deepEqual(stampLatencies([5, 10_000 + 1005 * 300 + 40, 7, 0, 6, 10_000 + 6 * 300 + 9], clock), [40, 9]);
  });

  it('a stamped tick moves the stamp selection first and n - 1 other distinct selections, as valid feed messages', () => {
    const builder = new TickBuilder(
      [
        { eventId: 'cap-soccer-0', selections: 50 },
        { eventId: 'cap-basketball-1', selections: 8 },
      ],
      10,
      3,
    );
    const lines = new TextDecoder()
      .decode(builder.next({ stampSeq: 1234, ts: '2026-11-26T10:00:00.000Z' }).body)
      .split('\n');
    for (const [i, line] of lines.entries()) {
      const msg = JSON.parse(line) as { ts: string; changes: Array<{ selection_id: number; odds: number }> };
      assert.equal(validateFeedMessage(msg).ok, true, line);
      assert.equal(msg.ts, '2026-11-26T10:00:00.000Z');
      assert.deepEqual(msg.changes[0], { selection_id: STAMP_SELECTION_ID, odds: stampOdds(1234) });
      const ids = msg.changes.map((c) => c.selection_id);
      assert.equal(ids.length, i === 0 ? 10 : 8);
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(ids.filter((id) => id === STAMP_SELECTION_ID).length, 1);
    }
  });

  it('every client of the mix that reads odds with a market filter sees the stamp families', () => {
    const live = Array.from({ length: 60 }, (_, i) => ({
      eventId: `cap-${['soccer', 'basketball', 'american-football'][i % 3]}-${i}`,
      selections: 100,
    }));
    const mix = streamClientMix(live, 1000, 15);
    assert.equal(mix.length, 1000);
    for (const c of mix) {
      const q = new URLSearchParams(c.query);
      const markets = q.get('markets');
      if (markets !== null) assert.ok(markets.includes('1x2') && markets.includes('moneyline'), c.query);
      assert.equal(q.get('odds_format') ?? 'decimal', c.format);
      for (const id of q.get('event_ids')?.split(',') ?? []) assert.ok(live.some((e) => e.eventId === id));
    }
    assert.ok(new Set(mix.map((c) => c.kind)).size >= 5);
  });
});
