// The byte-written odds frame is exactly the frame the string renderer gives, in every format, for any ids, prices and locks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OddsFormat } from '../../src/domain/types.js';
import type { OddsEntry } from '../../src/live/log-entry.js';
import { keptChanges, renderEntryData } from '../../src/live/log-render.js';
import { familyIdOfKey } from '../../src/live/market-families.js';
import { FrameArena, joinFrames } from '../../src/api/stream/frame-arena.js';
import { oddsFrame, oddsFrameBound } from '../../src/api/stream/odds-frame.js';
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
    count: n,
    layout: 1,
    packed: null,
    changes: { marketIds, selectionIds, odds, locked },
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

  it('with a families filter equal the string renderer, keeping exactly the markets of those families', () => {
    const rng = new Rng(11);
    const families = ['1x2', 'totals', 'asian_handicap', 'player_goals', 'btts'];
    const formats: OddsFormat[] = ['decimal', 'american', 'fractional', 'fractional_exact'];
    for (let round = 0; round < 40; round++) {
      const e = entry(rng, `ev-${round}`, 1 + Math.floor(rng.next() * 120));
      // Each market gets a key of some family; a few markets are unknown (their event left: kept).
      const keys = new Map<number, string | undefined>();
      for (const m of e.changes.marketIds) {
        if (keys.has(m)) continue;
        const r = rng.next();
        const family = families[Math.floor(rng.next() * families.length)] as string;
        keys.set(m, r < 0.05 ? undefined : r < 0.5 ? family : `${family.toUpperCase()}@1h:${(r * 10).toFixed(1)}`);
      }
      const keyOf = (_: string, marketId: number): string | undefined => keys.get(marketId);
      const familyIdOf = (_: string, marketId: number): number => {
        const key = keys.get(marketId);
        return key === undefined ? 0 : familyIdOfKey(key);
      };
      const wanted = new Set(families.filter(() => rng.next() < 0.4));
      const kept = keptChanges(e, wanted, familyIdOf);
      // The indices kept are exactly the changes whose family is wanted or unknown, in order.
      const expectedKept: number[] = [];
      e.changes.marketIds.forEach((m, k) => {
        const key = keys.get(m);
        if (key === undefined || wanted.has(key.split(/[@:]/)[0]!.toLowerCase())) expectedKept.push(k);
      });
      assert.deepEqual([...kept], expectedKept);
      // The same set again, and an equal set of another stream, give the remembered answer.
      assert.equal(keptChanges(e, new Set([...wanted].reverse()), familyIdOf), kept);
      for (const format of formats) {
        const data = renderEntryData(e, { format, families: wanted, keyOf });
        if (kept.length === 0) {
          assert.equal(data, null);
          continue;
        }
        const expected = sseFrame('odds', data as string, '1772366400000-9');
        assert.equal(oddsFrame(e, format, '1772366400000-9', kept).toString('utf8'), expected.toString('utf8'));
      }
    }
  });

  it('written back to back into an arena are the same bytes, and a run of them joins into one view', () => {
    const rng = new Rng(17);
    const formats: OddsFormat[] = ['decimal', 'american', 'fractional', 'fractional_exact'];
    const entries = ['cap-soccer-1', 'Malmö–“x”\\"', 'e', 'f'].map((id, i) => entry(rng, id, [100, 3, 1, 57][i]!));
    for (const format of formats) {
      // A first slab that holds the first frame only: the arena opens another one, twice as large.
      const arena = new FrameArena(() => oddsFrame(entries[0]!, format, '1772366400000-0').length);
      const frames = entries.map((e, i) => {
        const kept =
          i % 2 === 0
            ? undefined
            : Uint32Array.from({ length: e.changes.odds.length }, (_, k) => k).filter((k) => k % 3 !== 1);
        const alone = oddsFrame(e, format, `1772366400000-${i}`, kept);
        const inArena = oddsFrame(e, format, `1772366400000-${i}`, kept, arena);
        assert.ok(inArena.equals(alone), `${format} ${e.eventId}`);
        assert.ok(oddsFrameBound(e) >= oddsFrame(e, format, 'x').length);
        return inArena;
      });
      // Frames 1-3 lie back to back in the second slab: joined without a copy.
      const run = joinFrames(frames.slice(1));
      assert.equal(run.buffer, frames[1]!.buffer);
      assert.ok(run.equals(Buffer.concat(frames.slice(1))));
      // Frame 0 is in the first slab: joining it copies, and the bytes are still exact.
      const all = joinFrames(frames);
      assert.notEqual(all.buffer, frames[0]!.buffer);
      assert.ok(all.equals(Buffer.concat(frames)));
    }
  });
});
