// The outright part of the store contract: tournaments, markets, results and the outright settlement feed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import {
  outrightEntries,
  type OutrightEntry,
  type OutrightMarket,
  type OutrightResult,
  type TournamentInfo,
} from '../../src/domain/outrights.js';
import type { Store } from '../../src/store/store.js';
import { T0 } from './fixtures.js';

const tournament = (id: string, o: Partial<TournamentInfo> = {}): TournamentInfo => ({
  tournamentId: id,
  tournament: `Tournament ${id}`,
  sport: 'tennis',
  sportId: 3,
  ...o,
});

const market = (id: number, n = 3, odds = 4): OutrightMarket => ({
  marketId: id,
  market: `Market ${id}`,
  selections: Array.from({ length: n }, (_, i) => ({
    selectionId: id * 100 + i + 1,
    selection: `Player ${i + 1}`,
    odds: odds + i,
  })),
  updatedAt: T0,
});

const won = (selectionId: number, settledAt = T0 + 1000, deadHeatFactor: number | null = null): OutrightResult => ({
  winners: [{ selectionId, deadHeatFactor }],
  void: false,
  settledAt,
});

/** Stores a tournament, a market and its result; returns the entries written. */
async function settle(store: Store, t: TournamentInfo, m: OutrightMarket, r: OutrightResult): Promise<OutrightEntry[]> {
  await store.saveTournament(t);
  await store.saveOutrightMarket(t.tournamentId, m);
  const entries = outrightEntries(t, m, r);
  await store.settleOutrightMarket(t.tournamentId, m.marketId, r, entries);
  return entries;
}

const page = (store: Store, o: Partial<Parameters<Store['listOutrightSettlements']>[0]> = {}) =>
  store.listOutrightSettlements({ tournamentIds: null, after: null, limit: 100, offset: 0, ...o });

export function runOutrightStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (outrights): ${name}`, () => {
    it('a new store has no outrights', () =>
      withStore(async ({ store }) => {
        assert.deepEqual(await store.loadOutrights(), []);
        assert.deepEqual(await page(store), []);
        assert.equal(await store.countOutrightSettlements(null), 0);
      }));

    it('tournaments and markets come back after a restart, markets by id, selections in order', () =>
      withStore(async ({ store, restart }) => {
        await store.saveTournament(tournament('b'));
        await store.saveTournament(tournament('a', { sport: 'soccer', sportId: 1 }));
        await store.saveOutrightMarket('b', market(9));
        await store.saveOutrightMarket('b', market(2));
        // Ids go up to 2^53 - 1 (feed.md).
        const huge = { ...market(1, 1), marketId: 2 ** 53 - 1 };
        huge.selections = [{ selectionId: 2 ** 53 - 2, selection: 'Field', odds: 1.01 }];
        await store.saveOutrightMarket('a', huge);
        const reopened = await restart();
        assert.deepEqual(await reopened.loadOutrights(), [
          {
            tournament: tournament('a', { sport: 'soccer', sportId: 1 }),
            markets: [{ market: huge, result: null }],
          },
          {
            tournament: tournament('b'),
            markets: [
              { market: market(2), result: null },
              { market: market(9), result: null },
            ],
          },
        ]);
      }));

    it('saving a tournament or market again updates it in place', () =>
      withStore(async ({ store }) => {
        await store.saveTournament(tournament('t'));
        await store.saveOutrightMarket('t', market(1));
        await store.saveTournament(tournament('t', { tournament: 'Renamed' }));
        const repriced = { ...market(1, 2, 7), market: 'Winner', updatedAt: T0 + 5 };
        await store.saveOutrightMarket('t', repriced);
        assert.deepEqual(await store.loadOutrights(), [
          { tournament: tournament('t', { tournament: 'Renamed' }), markets: [{ market: repriced, result: null }] },
        ]);
      }));

    it('a market of an unknown tournament is refused', () =>
      withStore(async ({ store }) => {
        await assert.rejects(store.saveOutrightMarket('ghost', market(1)));
        assert.deepEqual(await store.loadOutrights(), []);
      }));

    it('settling stores the result and one entry per selection; re-saving the market keeps the result', () =>
      withStore(async ({ store, restart }) => {
        const t = tournament('t');
        const r = won(102, T0 + 1000, 0.5);
        const entries = await settle(store, t, market(1), r);
        assert.equal(entries.length, 3);
        await store.saveOutrightMarket('t', market(1));
        const reopened = await restart();
        assert.deepEqual(await reopened.loadOutrights(), [
          { tournament: t, markets: [{ market: market(1), result: r }] },
        ]);
        assert.deepEqual(
          await page(reopened),
          [...entries].sort((a, b) => (a.entryId < b.entryId ? 1 : -1)),
        );
        assert.deepEqual(
          (await page(reopened)).map((e) => [e.selectionId, e.result, e.deadHeatFactor]),
          [
            [103, 'lost', null],
            [102, 'won', 0.5],
            [101, 'lost', null],
          ],
        );
        assert.equal(await reopened.countOutrightSettlements(null), 3);
      }));

    it('a correction replaces the market’s entries, and only that market’s', () =>
      withStore(async ({ store }) => {
        const t = tournament('t');
        await settle(store, t, market(1), won(101));
        const other = await settle(store, t, market(2), won(201));
        const corrected = won(103, T0 + 5000);
        const entries = outrightEntries(t, market(1), corrected);
        await store.settleOutrightMarket('t', 1, corrected, entries);
        const all = await page(store);
        assert.equal(all.length, 6);
        assert.deepEqual(
          all.filter((e) => e.marketId === 1),
          [...entries].sort((a, b) => (a.entryId < b.entryId ? 1 : -1)),
        );
        assert.deepEqual(
          all.filter((e) => e.marketId === 2),
          [...other].sort((a, b) => (a.entryId < b.entryId ? 1 : -1)),
        );
        assert.deepEqual((await store.loadOutrights())[0]?.markets[0]?.result, corrected);
      }));

    it('settling a market that is not stored fails and writes no entry', () =>
      withStore(async ({ store }) => {
        const t = tournament('t');
        await store.saveTournament(t);
        const entries = outrightEntries(t, market(1), won(101));
        await assert.rejects(store.settleOutrightMarket('t', 1, won(101), entries));
        assert.deepEqual(await page(store), []);
      }));

    it('pages newest first by (settled_at, entry_id), continue after a cursor, filter by tournament', () =>
      withStore(async ({ store }) => {
        // Two markets settled at the same instant: entry_id breaks the tie.
        await settle(store, tournament('a'), market(1), won(101, T0 + 1000));
        await settle(store, tournament('b'), market(1), won(102, T0 + 1000));
        await settle(store, tournament('b'), market(2), won(201, T0 + 2000));
        const all = await page(store);
        const expected = [...all].sort((x, y) => y.settledAt - x.settledAt || (x.entryId < y.entryId ? 1 : -1));
        assert.deepEqual(all, expected);
        assert.equal(all.length, 9);
        const cut = all[3] as OutrightEntry;
        assert.deepEqual(
          await page(store, { after: { settledAt: cut.settledAt, entryId: cut.entryId } }),
          all.slice(4),
        );
        assert.deepEqual(await page(store, { limit: 2, offset: 3 }), all.slice(3, 5));
        const onlyA = await page(store, { tournamentIds: ['a', 'zz'] });
        assert.deepEqual(
          onlyA,
          all.filter((e) => e.tournamentId === 'a'),
        );
        assert.equal(await store.countOutrightSettlements(['a', 'zz']), 3);
        assert.deepEqual(await page(store, { tournamentIds: [] }), []);
        assert.equal(await store.countOutrightSettlements([]), 0);
      }));

    it('a market with more selections than one statement may carry settles whole', () =>
      withStore(async ({ store }) => {
        const entries = await settle(store, tournament('big'), market(1, 1000), won(101));
        assert.equal(await store.countOutrightSettlements(['big']), 1000);
        assert.equal(entries.filter((e) => e.result === 'won').length, 1);
      }));

    it('outright calls after close reject as service_unavailable', () =>
      withStore(async ({ store }) => {
        await store.close();
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['saveTournament', () => store.saveTournament(tournament('t'))],
          ['saveOutrightMarket', () => store.saveOutrightMarket('t', market(1))],
          ['settleOutrightMarket', () => store.settleOutrightMarket('t', 1, won(101), [])],
          ['loadOutrights', () => store.loadOutrights()],
          ['listOutrightSettlements', () => page(store)],
          ['countOutrightSettlements', () => store.countOutrightSettlements(null)],
        ];
        for (const [label, call] of calls) {
          await assert.rejects(call(), (error: unknown) => {
            assert.ok(error instanceof ServiceError, `${label} rejected with ${String(error)}`);
            assert.equal(error.code, 'service_unavailable');
            return true;
          });
        }
      }));
  });
}
