// Odds history chunks: version 2 round-trips every change exactly, shares the change log's bytes, is several times smaller than version 1, which is still read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeHistory,
  encodeHistory,
  HistoryChunkWriter,
  HistoryDecodeError,
  historyColumns,
  type HistoryColumns,
} from '../../src/live/history-codec.js';
import { LogSegmentWriter, oddsIdsSafe } from '../../src/live/log-codec.js';
import type { OddsEntry } from '../../src/live/log-entry.js';
import { Rng } from '../../src/feed/simulator/rng.js';

/** The project's seeded generator: the same columns every run. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** n changes in groups of `group` sharing an instant; ids and prices of a real feed, with a few awkward ones. */
function columns(n: number, seed: number, group = 10): HistoryColumns {
  const r = rng(seed);
  const c = historyColumns(n);
  let at = 1_764_000_000_000;
  for (let k = 0; k < n; k++) {
    if (k % group === 0) at += Math.floor(r() * 2000);
    c.at[k] = at;
    c.marketIds[k] = 1_700_000_000_000 + Math.floor(r() * 1000);
    c.selectionIds[k] = 1_700_000_000_000 + Math.floor(r() * 100_000);
    c.odds[k] = Math.round((1.01 + r() * 30) * 100) / 100;
    c.locked[k] = r() < 0.05 ? 1 : 0;
  }
  // Prices thousandths cannot hold, and a change whose ids are not safe integers.
  if (n > 3) {
    c.odds[1] = 1 / 3;
    c.odds[2] = 2.0005;
  }
  return c;
}

function slice(c: HistoryColumns, n: number): HistoryColumns {
  return {
    at: c.at.slice(0, n),
    marketIds: c.marketIds.slice(0, n),
    selectionIds: c.selectionIds.slice(0, n),
    odds: c.odds.slice(0, n),
    locked: c.locked.slice(0, n),
  };
}

/** The version 1 layout, written here as it was (chunks stored before version 2 must still be read). */
function encodeV1(c: HistoryColumns, n: number): Uint8Array {
  const buf = new Uint8Array(14 + n * 29);
  const v = new DataView(buf.buffer);
  v.setUint8(0, 1);
  v.setUint8(1, 1); // float64 prices
  v.setUint32(2, n, true);
  const base = c.at[0] ?? 0;
  v.setFloat64(6, base, true);
  let p = 14;
  for (let k = 0; k < n; k++, p += 4) v.setUint32(p, (c.at[k] as number) - base, true);
  for (let k = 0; k < n; k++, p += 8) v.setFloat64(p, c.marketIds[k] as number, true);
  for (let k = 0; k < n; k++, p += 8) v.setFloat64(p, c.selectionIds[k] as number, true);
  for (let k = 0; k < n; k++, p += 8) v.setFloat64(p, c.odds[k] as number, true);
  buf.set(c.locked.subarray(0, n), p);
  return buf;
}

describe('odds history codec', () => {
  it('version 2 round-trips every change bit for bit (many seeds, awkward prices and times)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const n = 1 + Math.floor(rng(seed)() * 500);
      const c = columns(n, seed, 1 + (seed % 7));
      if (seed === 3) c.at[n - 1] = (c.at[n - 1] as number) + 0.5; // not a whole millisecond
      if (seed === 4) c.at[0] = (c.at[0] as number) + 5000; // a later first change: negative deltas after it
      assert.deepEqual(decodeHistory(encodeHistory(c, n)), c, `seed ${seed}`);
    }
  });

  it('ids that are not safe integers are written whole, exactly', () => {
    const c = columns(30, 7);
    c.marketIds[5] = 2 ** 60;
    c.selectionIds[6] = 0.5;
    c.marketIds[7] = -3;
    assert.deepEqual(decodeHistory(encodeHistory(c, 30)), c);
  });

  it('a capacity-like flush costs a quarter of version 1 or less', () => {
    const n = 100 * 10;
    const c = historyColumns(n);
    const r = rng(9);
    for (let k = 0; k < n; k++) {
      c.at[k] = 1_764_000_000_000 + Math.floor(k / 100) * 300;
      c.marketIds[k] = 1 + Math.floor(k % 100) * 10;
      c.selectionIds[k] = (c.marketIds[k] as number) * 3 + (k % 2);
      c.odds[k] = Math.round((1.2 + r() * 5) * 100) / 100;
    }
    const v2 = encodeHistory(c, n).byteLength;
    const v1 = encodeV1(c, n).byteLength;
    assert.ok(v2 * 4 <= v1, `version 2 ${v2} bytes, version 1 ${v1}`);
  });

  it('version 1 chunks are still read', () => {
    const c = columns(50, 11);
    assert.deepEqual(decodeHistory(encodeV1(c, 50)), c);
  });

  it('a writer takes what was added since its last take, and starts again', () => {
    const c = columns(40, 5, 10);
    const w = new HistoryChunkWriter();
    for (let g = 0; g < 2; g++) w.add(c.at[g * 10] as number, c, g * 10, 10);
    assert.equal(w.count, 20);
    assert.equal(w.fromAt, c.at[0]);
    assert.equal(w.toAt, c.at[10]);
    assert.deepEqual(decodeHistory(w.peek() as Uint8Array), slice(c, 20));
    assert.deepEqual(decodeHistory(w.take() as Uint8Array), slice(c, 20));
    assert.equal(w.take(), null);
    w.add(c.at[20] as number, c, 20, 10);
    const again = decodeHistory(w.take() as Uint8Array);
    assert.deepEqual(again.selectionIds, c.selectionIds.slice(20, 30));
  });

  it('copies the change log’s own bytes of an odds entry, and reads the same changes back', () => {
    const c = columns(100, 13);
    c.odds[1] = 1.5; // keep every id and price plain: the log writes them compactly
    c.odds[2] = 2.25;
    const entry = {
      kind: 'odds',
      position: { ms: 1_764_000_000_000, seq: 0 },
      at: c.at[0] as number,
      eventId: 'e1',
      sport: 'soccer',
      league: 'l',
      count: 100,
      layout: 0,
      packed: null,
      changes: {
        marketIds: c.marketIds,
        selectionIds: c.selectionIds,
        odds: c.odds,
        locked: c.locked,
      },
      bytes: 0,
    } as unknown as OddsEntry;
    assert.ok(oddsIdsSafe(entry.changes, 0, 100));
    const log = new LogSegmentWriter();
    log.write(entry);
    const shared = log.oddsBytesOf(entry);
    assert.ok(shared !== null && shared.byteLength > 0);
    const copied = new HistoryChunkWriter();
    copied.add(entry.at, entry.changes, 0, 100, shared);
    const own = new HistoryChunkWriter();
    own.add(entry.at, entry.changes, 0, 100);
    const a = copied.take() as Uint8Array;
    assert.deepEqual(a, own.take());
    const back = decodeHistory(a);
    assert.deepEqual(back.odds, c.odds);
    assert.deepEqual(back.selectionIds, c.selectionIds);
    // Another entry written since: the bytes are no longer that entry's.
    log.write({ ...entry, position: { ms: entry.position.ms, seq: 1 } } as OddsEntry);
    assert.equal(log.oddsBytesOf(entry), null);
  });

  it('a damaged chunk, or one of an unknown version, is refused (never misread)', () => {
    const good = encodeHistory(columns(20, 3), 20);
    const cut = good.slice(0, good.byteLength - 3);
    assert.throws(() => decodeHistory(cut), HistoryDecodeError);
    const more = new Uint8Array(good);
    new DataView(more.buffer).setUint32(2, 21, true);
    assert.throws(() => decodeHistory(more), HistoryDecodeError);
    const version = new Uint8Array(good);
    version[0] = 9;
    assert.throws(() => decodeHistory(version), HistoryDecodeError);
    assert.throws(() => decodeHistory(new Uint8Array(5)), HistoryDecodeError);
  });
});
