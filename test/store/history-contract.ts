// The odds-history part of the store contract: chunks written with a flush come back whole, by event and time, in the order written, on every engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeHistory, encodeHistory, historyColumns } from '../../src/live/history-codec.js';
import type { HistoryChunk, Store } from '../../src/store/store.js';
import { T0 } from './fixtures.js';

/** A chunk of n changes of one event from `from`, a second apart, prices with 3 decimals or more. */
function chunk(eventId: string, from: number, n: number, exact = true): HistoryChunk {
  const c = historyColumns(n);
  for (let k = 0; k < n; k++) {
    c.at[k] = from + 1000 * k;
    c.marketIds[k] = 1 + (k % 7);
    c.selectionIds[k] = 100 + k;
    c.odds[k] = exact ? 1.5 + k / 1000 : 1 + 1 / 3 + k;
    c.locked[k] = k % 5 === 0 ? 1 : 0;
  }
  return { eventId, fromAt: from, toAt: from + 1000 * (n - 1), count: n, data: encodeHistory(c, n) };
}

const emptyBatch = { events: [], markets: [], removedMarkets: [] };

export function runHistoryStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (odds history): ${name}`, () => {
    it('chunks come back whole and exact (compressed on the way), by event and time, in the order written', () =>
      withStore(async ({ store, restart }) => {
        const a1 = chunk('a', T0, 500);
        const a2 = chunk('a', T0 + 600_000, 3, false);
        const b1 = chunk('b', T0, 10);
        await store.writeBatch({ ...emptyBatch, seq: 1, history: [a1, b1] });
        await store.writeBatch({ ...emptyBatch, seq: 2, history: [a2] });
        const reopened = await restart();
        const all = await reopened.listOddsHistory({
          eventId: 'a',
          fromAt: -1e15,
          toAt: 1e15,
          afterSeq: -1,
          limit: 10,
        });
        assert.equal(all.length, 2);
        assert.deepEqual(decodeHistory(all[0]!.data), decodeHistory(a1.data));
        assert.deepEqual(decodeHistory(all[1]!.data), decodeHistory(a2.data));
        assert.ok(all[0]!.seq < all[1]!.seq);
        // Time: chunks that reach `fromAt` and start by `toAt`.
        const late = await reopened.listOddsHistory({
          eventId: 'a',
          fromAt: T0 + 500_000,
          toAt: 1e15,
          afterSeq: -1,
          limit: 10,
        });
        assert.deepEqual(
          late.map((c) => c.fromAt),
          [T0 + 600_000],
        );
        const paged = await reopened.listOddsHistory({
          eventId: 'a',
          fromAt: -1e15,
          toAt: 1e15,
          afterSeq: all[0]!.seq,
          limit: 10,
        });
        assert.equal(paged.length, 1);
        assert.equal(
          (await reopened.listOddsHistory({ eventId: 'b', fromAt: -1e15, toAt: 1e15, afterSeq: -1, limit: 10 })).length,
          1,
        );
      }));

    it('retention deletes chunks whose last change is older than the cutoff', () =>
      withStore(async ({ store }) => {
        await store.writeBatch({ ...emptyBatch, seq: 1, history: [chunk('a', T0, 3), chunk('a', T0 + 3_600_000, 3)] });
        assert.equal(await store.deleteOddsHistoryBefore(T0 + 1_000_000), 1);
        const left = await store.listOddsHistory({ eventId: 'a', fromAt: -1e15, toAt: 1e15, afterSeq: -1, limit: 10 });
        assert.deepEqual(
          left.map((c) => c.fromAt),
          [T0 + 3_600_000],
        );
      }));
  });
}
