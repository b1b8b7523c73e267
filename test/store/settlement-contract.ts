// The settlement-entry and odds-log part of the store contract: feed order, cursors and filters the same on every engine.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettlementPageQuery, SettlementRecord, Store } from '../../src/store/store.js';
import { T0, sampleEvent } from './fixtures.js';

function entry(eventId: string, endedAt: number, o: Partial<SettlementRecord> = {}): SettlementRecord {
  return {
    eventId,
    endedAt,
    updatedAt: endedAt,
    revision: 1,
    resolvedCount: 2,
    totalCount: 3,
    pendingCount: 1,
    header: {
      homeTeam: `Home ${eventId}`,
      awayTeam: `Away ${eventId}`,
      homeLogoId: 'logo-h',
      awayLogoId: null,
      finalScore: { home: 2, away: 1 },
      sport: 'soccer',
      league: 'Premier League',
      country: 'England',
      startTime: endedAt - 7_000_000,
      resultRevision: 1,
    },
    marketsJson: `[{"market_id":1,"event":"${eventId}","note":"ünïcode ✓"}]`,
    ...o,
  };
}

const page = (store: Store, o: Partial<SettlementPageQuery> = {}) =>
  store.listSettlements({ minEndedAt: 0, eventIds: null, after: null, limit: 100, offset: 0, ...o });

const ids = (records: readonly SettlementRecord[]): string[] => records.map((r) => r.eventId);

/** Byte-wise (UTF-8) order, the order SQLite's BINARY collation gives text. */
const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

// Ids whose order differs between byte-wise comparison and a natural-language locale: upper case
// before lower, punctuation by code point, non-ASCII after ASCII.
const TRICKY_IDS = ['ab', 'a-b', 'Ab', 'aB', 'a_b', 'b', 'B', 'é1', 'e2', 'Z9', 'a b', '10', '9', 'ä'];

export function runSettlementStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (settlements, odds log): ${name}`, () => {
    it('a saved entry comes back equal, after a restart too; saving again replaces it', () =>
      withStore(async ({ store, restart }) => {
        const first = entry('e1', T0);
        await store.saveSettlement(first);
        assert.deepEqual(await store.getSettlement('e1'), first);
        assert.equal(await store.getSettlement('nope'), null);
        const corrected = entry('e1', T0, { revision: 2, updatedAt: T0 + 5000, pendingCount: 0, resolvedCount: 3 });
        await store.saveSettlement(corrected);
        const reopened = await restart();
        assert.deepEqual(await reopened.getSettlement('e1'), corrected);
        assert.deepEqual(ids(await page(reopened)), ['e1']);
      }));

    it('pages newest first by (ended_at, event_id), with ties in byte order of the id', () =>
      withStore(async ({ store }) => {
        for (const id of TRICKY_IDS) await store.saveSettlement(entry(id, T0));
        await store.saveSettlement(entry('older', T0 - 1));
        await store.saveSettlement(entry('newer', T0 + 1));
        const expected = ['newer', ...[...TRICKY_IDS].sort(byteOrder).reverse(), 'older'];
        assert.deepEqual(ids(await page(store)), expected);
      }));

    it('a cursor continues strictly after its position, whatever the ids; offset skips within', () =>
      withStore(async ({ store }) => {
        for (const [i, id] of TRICKY_IDS.entries()) await store.saveSettlement(entry(id, T0 + (i % 3)));
        const all = ids(await page(store));
        assert.equal(all.length, TRICKY_IDS.length);
        // Walking pages of 4 by cursor visits everything once, in order.
        const walked: string[] = [];
        let after: SettlementPageQuery['after'] = null;
        for (;;) {
          const rows = await page(store, { after, limit: 4 });
          if (rows.length === 0) break;
          walked.push(...ids(rows));
          const last = rows[rows.length - 1]!;
          after = { at: last.endedAt, eventId: last.eventId };
        }
        assert.deepEqual(walked, all);
        // A cursor on an id that is not stored still splits the ties byte-wise.
        const ties = all.filter((id) => TRICKY_IDS.indexOf(id) % 3 === 0);
        const afterAb = ties.filter((id) => byteOrder(id, 'aB') < 0);
        assert.deepEqual(
          ids(await page(store, { after: { at: T0, eventId: 'aB' } })),
          afterAb.filter((id) => id !== 'aB'),
        );
        assert.deepEqual(ids(await page(store, { offset: 2, limit: 3 })), all.slice(2, 5));
      }));

    it('the feed keeps to the retention window and the event filter', () =>
      withStore(async ({ store }) => {
        await store.saveSettlement(entry('old', T0 - 10));
        await store.saveSettlement(entry('a', T0));
        await store.saveSettlement(entry('b', T0 + 10));
        assert.deepEqual(ids(await page(store, { minEndedAt: T0 })), ['b', 'a']);
        assert.deepEqual(ids(await page(store, { eventIds: ['old', 'a', 'zz'] })), ['a', 'old']);
        assert.deepEqual(ids(await page(store, { eventIds: [] })), [], 'an empty filter matches nothing');
        assert.deepEqual(await store.settlementSummaries(T0), [
          { eventId: 'a', endedAt: T0, pendingCount: 1 },
          { eventId: 'b', endedAt: T0 + 10, pendingCount: 1 },
        ]);
        assert.equal(await store.deleteSettlementsBefore(T0), 1);
        assert.equal(await store.getSettlement('old'), null);
        assert.deepEqual(ids(await page(store)), ['b', 'a']);
      }));

    it('changes come oldest first after (updated_at, event_id), and their count agrees', () =>
      withStore(async ({ store }) => {
        for (const id of TRICKY_IDS) await store.saveSettlement(entry(id, T0, { updatedAt: T0 + 100 }));
        await store.saveSettlement(entry('early', T0, { updatedAt: T0 + 50 }));
        await store.saveSettlement(entry('late', T0 - 5, { updatedAt: T0 + 200 }));
        const base = { minEndedAt: 0, eventIds: null };
        const changes = await store.listSettlementChanges({ ...base, after: { at: 0, eventId: '' }, limit: 100 });
        assert.deepEqual(ids(changes), ['early', ...[...TRICKY_IDS].sort(byteOrder), 'late']);
        const middle = { at: T0 + 100, eventId: 'a-b' };
        const tail = ['early', ...[...TRICKY_IDS].sort(byteOrder), 'late'].filter(
          (id) => id === 'late' || (TRICKY_IDS.includes(id) && byteOrder(id, 'a-b') > 0),
        );
        assert.deepEqual(ids(await store.listSettlementChanges({ ...base, after: middle, limit: 100 })), tail);
        assert.equal(
          (await store.countSettlementChanges({ ...base, after: middle, detailFrom: 0 })).total,
          tail.length,
        );
        assert.deepEqual(
          ids(await store.listSettlementChanges({ ...base, after: middle, limit: 2 })),
          tail.slice(0, 2),
        );
        assert.equal(
          (
            await store.countSettlementChanges({
              minEndedAt: T0,
              eventIds: ['late', 'early'],
              after: { at: 0, eventId: '' },
              detailFrom: 0,
            })
          ).total,
          1,
          'the window and the filter apply to the count',
        );
      }));

    it('odds rows come back as bytes in seq order after a restart; a prune drops the older ones', () =>
      withStore(async ({ store, restart }) => {
        const event = sampleEvent('o1');
        const bytes = (n: number) => Uint8Array.from({ length: 17 * n }, (_, i) => (i * 37 + n) % 256);
        await store.writeBatch({
          events: [event],
          markets: [],
          removedMarkets: [],
          seq: 1,
          oddsLog: [{ eventId: 'o1', data: bytes(1) }],
        });
        await store.writeBatch({
          events: [],
          markets: [],
          removedMarkets: [],
          seq: 3,
          oddsLog: [{ eventId: 'o1', data: bytes(3) }],
        });
        await store.writeBatch({
          events: [],
          markets: [],
          removedMarkets: [],
          seq: 2,
          oddsLog: [{ eventId: 'o1', data: bytes(2) }],
        });
        let reopened = await restart();
        const log = (await reopened.loadEvents())[0]?.oddsLog ?? [];
        assert.deepEqual(
          log.map((r) => ({ seq: r.seq, data: [...r.data] })),
          [1, 2, 3].map((seq) => ({ seq, data: [...bytes(seq)] })),
        );
        await reopened.writeBatch({
          events: [],
          markets: [],
          removedMarkets: [],
          seq: 4,
          oddsLog: [{ eventId: 'o1', data: new Uint8Array([0, 255, 0]) }],
          oddsLogPrune: [{ eventId: 'o1', beforeSeq: 3 }],
        });
        reopened = await restart();
        const pruned = (await reopened.loadEvents())[0]?.oddsLog ?? [];
        assert.deepEqual(
          pruned.map((r) => ({ seq: r.seq, data: [...r.data] })),
          [
            { seq: 3, data: [...bytes(3)] },
            { seq: 4, data: [0, 255, 0] },
          ],
        );
      }));
  });
}
