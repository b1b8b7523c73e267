// Odds rows for the store: rows of selections (17 bytes each) and rows of changes (the change log's compact form) are told apart by their length, and decode to the same prices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryChunkWriter, HistoryDecodeError, historyColumns } from '../../src/live/history-codec.js';
import { changesRowBytes, decodeOdds, encodeChanges, oddsRowBytes } from '../../src/live/odds-codec.js';
import { Rng } from '../../src/feed/simulator/rng.js';

type Change = [selectionId: number, odds: number, locked: number];

/** A writer holding these changes, one group per instant. */
function writerOf(groups: Change[][], t0 = 1_764_000_000_000): HistoryChunkWriter {
  const w = new HistoryChunkWriter();
  groups.forEach((g, i) => {
    const c = historyColumns(g.length);
    g.forEach(([id, odds, locked], k) => {
      c.marketIds[k] = Math.floor(id / 10);
      c.selectionIds[k] = id;
      c.odds[k] = odds;
      c.locked[k] = locked;
    });
    w.add(t0 + i * 300, c, 0, g.length);
  });
  return w;
}

function rowOf(groups: Change[][], updatedAt: number): Uint8Array {
  const w = writerOf(groups);
  return encodeChanges(w, updatedAt, new Uint8Array(changesRowBytes(w)));
}

function decoded(row: Uint8Array): { updatedAt: number; changes: Change[] } {
  const changes: Change[] = [];
  const updatedAt = decodeOdds(row, (id, odds, locked) => changes.push([id, odds, locked ? 1 : 0]));
  return { updatedAt, changes };
}

describe('odds rows of changes', () => {
  it('hold every change in order (a selection moved twice in a flush: both, the last one last)', () => {
    const groups: Change[][] = [
      [
        [11, 2.5, 0],
        [12, 3.1, 0],
      ],
      [
        [11, 2.4, 1],
        [1_700_000_000_123, 1 / 3, 0],
      ],
    ];
    const row = rowOf(groups, 1_764_000_000_600);
    assert.deepEqual(decoded(row), { updatedAt: 1_764_000_000_600, changes: groups.flat() });
  });

  it('are never the length of a row of selections, whatever their size (a byte is added when they would be)', () => {
    const r = new Rng(5);
    let padded = 0;
    for (let n = 1; n <= 60; n++) {
      const g: Change[] = Array.from({ length: n }, (_, k) => [
        10 + k,
        Math.round((1.01 + r.next() * 20) * 100) / 100,
        0,
      ]);
      const w = writerOf([g]);
      const bytes = changesRowBytes(w);
      if (bytes !== 13 + w.byteLength) padded++;
      const row = encodeChanges(w, 7, new Uint8Array(bytes));
      assert.notEqual((row.byteLength - 8) % 17, 0, `${n} changes: ${row.byteLength} bytes`);
      assert.deepEqual(decoded(row).changes, g, `${n} changes`);
      assert.equal(w.count, 0, 'the writer starts again');
    }
    assert.ok(padded > 0, 'some sizes needed the added byte');
  });

  it('rows of selections written before are read as they were', () => {
    const row = new Uint8Array(oddsRowBytes(2));
    const view = new DataView(row.buffer);
    view.setFloat64(0, 1234, true);
    view.setFloat64(8, 11, true);
    view.setFloat64(16, 2.5, true);
    view.setUint8(24, 1);
    view.setFloat64(25, 12, true);
    view.setFloat64(33, 3.5, true);
    // A row of selections may begin with the marker byte: its length still says what it is.
    row[0] = 0xb2;
    const { changes } = decoded(row);
    assert.deepEqual(changes, [
      [11, 2.5, 1],
      [12, 3.5, 0],
    ]);
  });

  it('a damaged row of changes is refused whole (nothing visited), never half applied', () => {
    const row = rowOf(
      [
        [
          [11, 2.5, 0],
          [12, 3.1, 0],
          [13, 4.2, 0],
        ],
      ],
      9,
    );
    const cut = row.slice(0, row.byteLength - 3);
    const fixed = (cut.byteLength - 8) % 17 === 0 ? row.slice(0, row.byteLength - 4) : cut;
    // The stated chunk length no longer fits: what is left is not a chunk.
    let visited = 0;
    assert.throws(() => decodeOdds(fixed, () => visited++), HistoryDecodeError);
    assert.equal(visited, 0);
  });
});
