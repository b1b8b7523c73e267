// Packing a batch of log entries for the stream process: every entry comes back equal, in order, with its family numbers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Rng } from '../../src/feed/simulator/rng.js';
import type { LogEntry, OddsEntry } from '../../src/live/log-entry.js';
import { packBatch, unpackBatch } from '../../src/api/stream/stream-batch.js';

function oddsEntry(rng: Rng, i: number): OddsEntry {
  const n = rng.int(0, 40);
  return {
    kind: 'odds',
    position: { ms: 1_800_000_000_000 + i, seq: i % 3 },
    eventId: `e${rng.int(1, 9)}`,
    sport: 'soccer',
    league: i % 2 === 0 ? 'england-premier-league' : '',
    at: 1_790_000_000_000 + i * 300,
    bytes: 100,
    count: n,
    // Book layouts mean nothing outside the service's book: an unpacked entry says -1.
    layout: -1,
    packed: null,
    changes: {
      marketIds: Float64Array.from({ length: n }, () => rng.int(1, 1e6) * 1e6),
      selectionIds: Float64Array.from({ length: n }, () => rng.int(1, 1e9) * 1e4),
      odds: Float64Array.from({ length: n }, () => Math.round(rng.uniform(1.01, 1000) * 100) / 100),
      locked: Uint8Array.from({ length: n }, () => (rng.next() < 0.2 ? 1 : 0)),
    },
  };
}

test('a packed batch unpacks to the same entries in the same order, odds with their family numbers', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const rng = new Rng(seed);
    const entries: LogEntry[] = [];
    for (let i = 0; i < rng.int(0, 60); i++) {
      if (rng.next() < 0.8) entries.push(oddsEntry(rng, i));
      else
        entries.push({
          kind: 'score',
          position: { ms: 1_800_000_000_000 + i, seq: 0 },
          eventId: `e${i}`,
          sport: 'soccer',
          league: 'x',
          at: 0,
          bytes: 10,
          json: `{"event_id":"e${i}"}`,
        });
    }
    const families = new Map<OddsEntry, Uint32Array>();
    const packed = packBatch(entries, (e) => {
      const f = Uint32Array.from(e.changes.marketIds, (m) => (m / 1e6) % 7);
      families.set(e, f);
      return f;
    });
    const back = structuredClone(packed);
    const out = unpackBatch(back);
    assert.equal(out.length, entries.length, `seed ${seed}`);
    out.forEach(({ entry, families: fam }, i) => {
      const want = entries[i] as LogEntry;
      if (want.kind !== 'odds') {
        assert.deepEqual(entry, want);
        assert.equal(fam, null);
        return;
      }
      assert.equal(entry.kind, 'odds');
      const got = entry as OddsEntry;
      assert.deepEqual(
        { ...got, bytes: 0, changes: null },
        { ...want, bytes: 0, changes: null },
        `seed ${seed} entry ${i}`,
      );
      for (const col of ['marketIds', 'selectionIds', 'odds', 'locked'] as const) {
        assert.deepEqual([...got.changes[col]], [...want.changes[col]], `${col} of entry ${i}`);
      }
      assert.deepEqual([...(fam as Uint32Array)], [...(families.get(want) as Uint32Array)]);
    });
  }
});
