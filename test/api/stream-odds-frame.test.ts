// The byte-written odds frame is exactly the frame the string renderer gives, in every format, for any ids, prices and locks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OddsFormat } from '../../src/domain/types.js';
import type { OddsEntry } from '../../src/live/log-entry.js';
import { renderEntryData } from '../../src/live/log-render.js';
import { oddsFrame } from '../../src/api/stream/odds-frame.js';
import { sseFrame } from '../../src/api/stream/sse.js';
import { Rng } from '../../src/feed/simulator/rng.js';

function entry(rng: Rng, eventId: string, n: number): OddsEntry {
  const marketIds = new Float64Array(n);
  const selectionIds = new Float64Array(n);
  const odds = new Float64Array(n);
  const locked = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    marketIds[k] = rng.next() < 0.1 ? 2 ** 52 + k : 1_000_000_000 + Math.floor(k / 3);
    selectionIds[k] = rng.next() < 0.05 ? -7 : 10_000_000_000 + k;
    const r = rng.next();
    odds[k] = r < 0.1 ? 1 + 1 / 3 : r < 0.2 ? 1000 : r < 0.3 ? 1.01 : Math.round((1 + rng.next() * 50) * 1000) / 1000;
    locked[k] = rng.next() < 0.2 ? 1 : 0;
  }
  return {
    kind: 'odds',
    position: { ms: 1_772_366_400_000, seq: n },
    eventId,
    sport: 'soccer',
    league: 'l',
    at: 0,
    bytes: 0,
    changes: { marketIds, selectionIds, odds, locked, outcomes: new Uint32Array(n), layout: 1 },
  };
}

describe('odds frames written as bytes', () => {
  it('equal sseFrame(renderEntryData(...)) byte for byte', () => {
    const rng = new Rng(5);
    const formats: OddsFormat[] = ['decimal', 'american', 'fractional'];
    for (const eventId of ['cap-soccer-1', 'Malmö–“x”\\"', 'e']) {
      for (const n of [1, 2, 3, 57, 100]) {
        const e = entry(rng, eventId, n);
        for (const format of formats) {
          const expected = sseFrame(
            'odds',
            renderEntryData(e, { format, families: null }) as string,
            '1772366400000-3',
          );
          // Twice: the second frame comes from what the first one remembered.
          for (let i = 0; i < 2; i++) {
            const got = oddsFrame(e, format, '1772366400000-3');
            assert.equal(got.toString('utf8'), expected.toString('utf8'), `${eventId} ${n} ${format}`);
            assert.ok(got.equals(expected));
          }
        }
      }
    }
  });
});
