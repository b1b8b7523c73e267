// The behaviour every Store implementation must show; each implementation's test file runs it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import type { Store, StoredEvent } from '../../src/store/store.js';
import {
  EMPTY_BATCH,
  T0,
  batch,
  eventWithMarkets,
  liveEvent,
  sampleEvent,
  sampleKey,
  sampleMarket,
  sampleResult,
  contentsOf,
} from './fixtures.js';
import { runAccountStoreContract } from './account-contract.js';
import { runUpstreamSpendContract } from './upstream-spend-contract.js';
import { runOutrightStoreContract } from './outright-contract.js';
import { runHistoryStoreContract } from './history-contract.js';
import { runLogWindowStoreContract } from './log-window-contract.js';
import { runSettlementStoreContract } from './settlement-contract.js';
import { runWebhookStoreContract } from './webhook-contract.js';

export interface StoreHandle {
  store: Store;
  /** Opens the same data again (after `store` was closed), as a restarted process would. */
  reopen: () => Promise<Store>;
  /** Removes everything the handle created; called after every store it opened is closed. */
  cleanup: () => Promise<void>;
}

interface Ctx {
  store: Store;
  /** Closes the current store and opens the same data again. */
  restart: () => Promise<Store>;
}

const marketIdsOf = (stored: Pick<StoredEvent, 'markets'> | undefined): number[] =>
  (stored?.markets ?? []).map((m) => m.marketId);

async function loadOne(store: Store, eventId: string): Promise<Pick<StoredEvent, 'event' | 'markets'> | undefined> {
  return contentsOf(await store.loadEvents()).find((s) => s.event.id === eventId);
}

export function runStoreContract(name: string, open: () => Promise<StoreHandle>): void {
  // Each test gets its own empty store; every store it opens is closed before cleanup.
  async function withStore(body: (ctx: Ctx) => Promise<void>): Promise<void> {
    const handle = await open();
    let current = handle.store;
    try {
      await current.migrate();
      await body({
        get store() {
          return current;
        },
        restart: async () => {
          await current.close();
          current = await handle.reopen();
          await current.migrate();
          return current;
        },
      });
    } finally {
      await current.close();
      await handle.cleanup();
    }
  }

  runOutrightStoreContract(name, withStore);
  runAccountStoreContract(name, withStore);
  runUpstreamSpendContract(name, withStore);
  runSettlementStoreContract(name, withStore);
  runHistoryStoreContract(name, withStore);
  runLogWindowStoreContract(name, withStore);
  runWebhookStoreContract(name, withStore);

  describe(`Store contract: ${name}`, () => {
    describe('migrations and health', () => {
      it('migrate can run again on a migrated store without touching its data', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2]));
          await store.migrate();
          await store.migrate();
          assert.deepEqual(marketIdsOf(await loadOne(store, 'e1')), [1, 2]);
        }));

      it('ping resolves to a whole number of milliseconds', () =>
        withStore(async ({ store }) => {
          const latency = await store.ping();
          assert.ok(Number.isInteger(latency) && latency >= 0, `latency ${latency}`);
        }));

      it('a new store is empty', () =>
        withStore(async ({ store }) => {
          assert.deepEqual(contentsOf(await store.loadEvents()), []);
          assert.deepEqual(await store.listApiKeys(), []);
          assert.equal(await store.getResult('e1'), null);
          assert.equal(await store.findApiKeyByHash(sampleKey('k1').keyHash), null);
        }));
    });

    describe('events and markets', () => {
      it('a written event comes back equal, with its markets', () =>
        withStore(async ({ store }) => {
          const event = liveEvent('e1');
          await store.writeBatch(
            batch({
              events: [event],
              markets: [
                { eventId: 'e1', position: 0, market: sampleMarket(10) },
                { eventId: 'e1', position: 1, market: sampleMarket(11) },
              ],
            }),
          );
          assert.deepEqual(contentsOf(await store.loadEvents()), [
            { event, markets: [sampleMarket(10), sampleMarket(11)] },
          ]);
        }));

      it('an event without markets loads with an empty market list', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(batch({ events: [sampleEvent('e1')] }));
          assert.deepEqual(contentsOf(await store.loadEvents()), [{ event: sampleEvent('e1'), markets: [] }]);
        }));

      it('writing an event again replaces the stored event', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(batch({ events: [sampleEvent('e1')] }));
          await store.writeBatch(batch({ events: [liveEvent('e1')] }));
          const loaded = await store.loadEvents();
          assert.equal(loaded.length, 1);
          assert.deepEqual(loaded[0]?.event, liveEvent('e1'));
        }));

      it('loads every event, each with only its own markets', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('a'), [1, 2, 3]));
          await store.writeBatch(eventWithMarkets(sampleEvent('b', { startTime: T0 + 1 }), [1, 4]));
          await store.writeBatch(batch({ events: [sampleEvent('c', { startTime: T0 - 1 })] }));
          const loaded = await store.loadEvents();
          assert.deepEqual(loaded.map((s) => s.event.id).sort(), ['a', 'b', 'c']);
          assert.deepEqual(marketIdsOf(loaded.find((s) => s.event.id === 'a')), [1, 2, 3]);
          assert.deepEqual(marketIdsOf(loaded.find((s) => s.event.id === 'b')), [1, 4]);
          assert.deepEqual(marketIdsOf(loaded.find((s) => s.event.id === 'c')), []);
        }));

      it('markets come back in position order, not in the order they were written', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(
            batch({
              events: [sampleEvent('e1')],
              markets: [
                { eventId: 'e1', position: 2, market: sampleMarket(30) },
                { eventId: 'e1', position: 0, market: sampleMarket(99) },
                { eventId: 'e1', position: 1, market: sampleMarket(5) },
              ],
            }),
          );
          assert.deepEqual(marketIdsOf(await loadOne(store, 'e1')), [99, 5, 30]);
        }));

      it('upserting a market replaces its content and moves it to its new position', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2, 3]));
          await store.writeBatch(batch({ markets: [{ eventId: 'e1', position: 5, market: sampleMarket(1, 3.25) }] }));
          const stored = await loadOne(store, 'e1');
          assert.deepEqual(marketIdsOf(stored), [2, 3, 1]);
          assert.deepEqual(stored?.markets[2], sampleMarket(1, 3.25));
        }));

      it("a book image replaces the event's market documents and the odds rows before it; later rows stay", () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2, 3]));
          await store.writeBatch(eventWithMarkets(sampleEvent('e2'), [1]));
          await store.writeBatch(batch({ seq: 4, oddsLog: [{ eventId: 'e1', data: Uint8Array.of(4) }] }));
          const image = Uint8Array.from({ length: 300 }, (_, i) => i % 251);
          await store.writeBatch(batch({ seq: 5, bookImages: [{ eventId: 'e1', data: image }] }));
          await store.writeBatch(batch({ seq: 6, oddsLog: [{ eventId: 'e1', data: Uint8Array.of(6) }] }));
          const loaded = await store.loadEvents();
          const e1 = loaded.find((s) => s.event.id === 'e1');
          assert.deepEqual(e1?.markets, [], 'the documents are superseded');
          assert.equal(e1?.image?.seq, 5);
          assert.deepEqual([...(e1?.image?.data ?? [])], [...image]);
          assert.deepEqual(
            e1?.oddsLog.map((r) => r.seq),
            [6],
          );
          const e2 = loaded.find((s) => s.event.id === 'e2');
          assert.equal(e2?.image, null);
          assert.deepEqual(marketIdsOf(e2), [1], "another event's documents stay");
          // A newer image replaces the older one.
          await store.writeBatch(batch({ seq: 7, bookImages: [{ eventId: 'e1', data: Uint8Array.of(1, 2, 3) }] }));
          const [again] = (await store.loadEvents()).filter((s) => s.event.id === 'e1');
          assert.equal(again?.image?.seq, 7);
          assert.deepEqual([...(again?.image?.data ?? [])], [1, 2, 3]);
          assert.deepEqual(again?.oddsLog, []);
        }));

      it('loadEventBatches hands over every event, a batch at a time, as loadEvents reads them', () =>
        withStore(async ({ store }) => {
          for (let i = 0; i < 7; i++) await store.writeBatch(eventWithMarkets(sampleEvent(`b${i}`), [1, i + 2]));
          const sizes: number[] = [];
          const seen: StoredEvent[] = [];
          await store.loadEventBatches((events) => {
            sizes.push(events.length);
            seen.push(...events);
          }, 3);
          assert.deepEqual(sizes, [3, 3, 1]);
          assert.deepEqual(seen, await store.loadEvents());
        }));

      it('loadEvents returns each market with its stored position', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2, 3]));
          await store.writeBatch(batch({ removedMarkets: [{ eventId: 'e1', marketIds: [2] }] }));
          await store.writeBatch(batch({ markets: [{ eventId: 'e1', position: 7, market: sampleMarket(4) }] }));
          const [loaded] = await store.loadEvents();
          assert.deepEqual(
            loaded?.markets.map((m) => m.marketId),
            [1, 3, 4],
          );
          assert.deepEqual(loaded?.positions, [0, 2, 7]);
        }));

      it('a market upsert leaves the event and its other markets untouched', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(liveEvent('e1'), [1, 2]));
          await store.writeBatch(eventWithMarkets(sampleEvent('e2'), [1]));
          await store.writeBatch(batch({ markets: [{ eventId: 'e1', position: 2, market: sampleMarket(3) }] }));
          assert.deepEqual(await loadOne(store, 'e1'), {
            event: liveEvent('e1'),
            markets: [sampleMarket(1), sampleMarket(2), sampleMarket(3)],
          });
          assert.deepEqual(await loadOne(store, 'e2'), { event: sampleEvent('e2'), markets: [sampleMarket(1)] });
        }));

      it('removed markets disappear from their event only; unknown ids are ignored', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2, 3, 4]));
          await store.writeBatch(eventWithMarkets(sampleEvent('e2'), [1, 2]));
          await store.writeBatch(
            batch({
              removedMarkets: [
                { eventId: 'e1', marketIds: [2, 4, 777] },
                { eventId: 'nope', marketIds: [1] },
                { eventId: 'e2', marketIds: [] },
              ],
            }),
          );
          assert.deepEqual(marketIdsOf(await loadOne(store, 'e1')), [1, 3]);
          assert.deepEqual(marketIdsOf(await loadOne(store, 'e2')), [1, 2]);
        }));

      it('a market both removed and upserted in one batch stays, with the upserted content', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1, 2]));
          await store.writeBatch(
            batch({
              markets: [{ eventId: 'e1', position: 1, market: sampleMarket(2, 4.5) }],
              removedMarkets: [{ eventId: 'e1', marketIds: [1, 2] }],
            }),
          );
          assert.deepEqual((await loadOne(store, 'e1'))?.markets, [sampleMarket(2, 4.5)]);
        }));

      it('an event or market repeated within one batch keeps its last occurrence', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(
            batch({
              events: [sampleEvent('e1'), liveEvent('e1')],
              markets: [
                { eventId: 'e1', position: 0, market: sampleMarket(1, 1.5) },
                { eventId: 'e1', position: 1, market: sampleMarket(2) },
                { eventId: 'e1', position: 2, market: sampleMarket(1, 1.75) },
              ],
            }),
          );
          assert.deepEqual(contentsOf(await store.loadEvents()), [
            { event: liveEvent('e1'), markets: [sampleMarket(2), sampleMarket(1, 1.75)] },
          ]);
        }));

      it('an empty batch changes nothing', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(sampleEvent('e1'), [1]));
          await store.writeBatch(EMPTY_BATCH);
          assert.deepEqual(contentsOf(await store.loadEvents()), [
            { event: sampleEvent('e1'), markets: [sampleMarket(1)] },
          ]);
        }));

      it('a batch of 12,000 markets across 30 events round-trips in order', () =>
        withStore(async ({ store }) => {
          const events = Array.from({ length: 30 }, (_, i) => sampleEvent(`big-${i}`, { startTime: T0 + i }));
          const markets = events.flatMap((event) =>
            Array.from({ length: 400 }, (_, i) => ({
              eventId: event.id,
              position: 399 - i,
              market: sampleMarket(i + 1),
            })),
          );
          await store.writeBatch({ events, markets, removedMarkets: [] });
          const loaded = await store.loadEvents();
          assert.equal(loaded.length, 30);
          const expectedIds = Array.from({ length: 400 }, (_, i) => 400 - i);
          for (const stored of loaded) assert.deepEqual(marketIdsOf(stored), expectedIds);
        }));

      it('concurrent batches all land', () =>
        withStore(async ({ store }) => {
          await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              store.writeBatch(eventWithMarkets(sampleEvent(`c${i}`), [i, i + 100])),
            ),
          );
          const loaded = await store.loadEvents();
          assert.equal(loaded.length, 20);
          for (const stored of loaded) assert.equal(stored.markets.length, 2);
        }));
    });

    describe('atomicity', () => {
      // Both failures are provoked through the interface. The foreign-key case fails on the
      // database after the batch's events were already written inside the transaction, so it
      // shows that a half-applied batch is rolled back, not merely refused up front. The
      // serialization case may be refused before any write, depending on when an implementation
      // serializes; either way nothing may remain.
      const before = eventWithMarkets(sampleEvent('e1'), [1, 2, 3]);

      it('a market for an event that is neither stored nor in the batch fails the whole batch', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(before);
          const snapshot = await store.loadEvents();
          await assert.rejects(
            store.writeBatch({
              events: [liveEvent('e1'), sampleEvent('e2')],
              markets: [
                { eventId: 'e2', position: 0, market: sampleMarket(1) },
                { eventId: 'e1', position: 9, market: sampleMarket(4) },
                { eventId: 'ghost', position: 0, market: sampleMarket(1) },
              ],
              removedMarkets: [{ eventId: 'e1', marketIds: [1] }],
            }),
          );
          assert.deepEqual(await store.loadEvents(), snapshot);
          // The store is still usable after the failed transaction.
          await store.writeBatch(batch({ events: [sampleEvent('e3')] }));
          assert.equal((await store.loadEvents()).length, 2);
        }));

      it('an event that cannot be serialized fails the whole batch', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(before);
          const snapshot = await store.loadEvents();
          const unserializable = sampleEvent('bad', { sportData: { big: 10n } });
          await assert.rejects(
            store.writeBatch({
              events: [liveEvent('e1'), sampleEvent('e2'), unserializable],
              markets: [{ eventId: 'e1', position: 3, market: sampleMarket(4) }],
              removedMarkets: [{ eventId: 'e1', marketIds: [2] }],
            }),
          );
          assert.deepEqual(await store.loadEvents(), snapshot);
        }));

      it('a result whose batch fails is not saved', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(before);
          await assert.rejects(
            store.saveResult(
              sampleResult('e1'),
              batch({
                events: [sampleEvent('e1', { status: 'ended', endedAt: T0 + 1 })],
                markets: [{ eventId: 'ghost', position: 0, market: sampleMarket(1) }],
              }),
            ),
          );
          assert.equal(await store.getResult('e1'), null);
          assert.deepEqual((await loadOne(store, 'e1'))?.event, sampleEvent('e1'));
        }));
    });

    describe('results', () => {
      it('saveResult commits the result together with its batch', () =>
        withStore(async ({ store }) => {
          await store.writeBatch(eventWithMarkets(liveEvent('e1'), [1, 2]));
          const ended = { ...liveEvent('e1'), status: 'ended' as const, endedAt: T0 + 115 * 60_000 };
          await store.saveResult(sampleResult('e1'), {
            events: [ended],
            markets: [],
            removedMarkets: [{ eventId: 'e1', marketIds: [2] }],
          });
          assert.deepEqual(await store.getResult('e1'), sampleResult('e1'));
          assert.deepEqual(await loadOne(store, 'e1'), { event: ended, markets: [sampleMarket(1)] });
        }));

      it('getPlayerStats reads the statistics stored with an event (null without them, or without the event)', () =>
        withStore(async ({ store }) => {
          const stats = {
            final: true,
            players: [{ playerId: 'p9', name: 'Nine', team: 'home' as const, counters: { goals: 2, minutes: 90 } }],
          };
          await store.writeBatch(eventWithMarkets({ ...liveEvent('e1'), playerStats: stats }, [1]));
          await store.writeBatch(eventWithMarkets(liveEvent('e2'), [1]));
          assert.deepEqual(await store.getPlayerStats?.('e1'), stats);
          assert.equal(await store.getPlayerStats?.('e2'), null);
          assert.equal(await store.getPlayerStats?.('nope'), null);
        }));

      it('a result needs no stored event and an empty batch is fine', () =>
        withStore(async ({ store }) => {
          const result = sampleResult('orphan', {
            status: 'cancelled',
            winner: null,
            periodScores: [],
            score: { home: 0, away: 0 },
          });
          await store.saveResult(result, EMPTY_BATCH);
          assert.deepEqual(await store.getResult('orphan'), result);
          assert.deepEqual(contentsOf(await store.loadEvents()), []);
        }));

      it('a correction replaces the result', () =>
        withStore(async ({ store }) => {
          await store.saveResult(sampleResult('e1'), EMPTY_BATCH);
          const corrected = sampleResult('e1', {
            score: { home: 2, away: 2 },
            periodScores: [
              { period: '1H', home: 1, away: 1 },
              { period: '2H', home: 1, away: 1 },
            ],
            winner: null,
            revision: 2,
            recordedAt: T0 + 200 * 60_000,
          });
          await store.saveResult(corrected, EMPTY_BATCH);
          assert.deepEqual(await store.getResult('e1'), corrected);
        }));

      it('results of different events are kept apart', () =>
        withStore(async ({ store }) => {
          await store.saveResult(sampleResult('e1'), EMPTY_BATCH);
          await store.saveResult(sampleResult('e2', { status: 'walkover', winner: 'away' }), EMPTY_BATCH);
          assert.deepEqual(await store.getResult('e1'), sampleResult('e1'));
          assert.deepEqual(await store.getResult('e2'), sampleResult('e2', { status: 'walkover', winner: 'away' }));
          assert.equal(await store.getResult('e3'), null);
        }));
    });

    describe('API keys', () => {
      it('a saved key is found by its hash and listed', () =>
        withStore(async ({ store }) => {
          const key = sampleKey('k1', { plan: 'pro', lastUsedAt: T0 + 5 });
          await store.saveApiKey(key);
          assert.deepEqual(await store.findApiKeyByHash(key.keyHash), key);
          assert.deepEqual(await store.listApiKeys(), [key]);
          assert.equal(await store.findApiKeyByHash('0'.repeat(64)), null);
        }));

      it('keys are listed oldest first', () =>
        withStore(async ({ store }) => {
          const late = sampleKey('a-late', { createdAt: T0 + 10 });
          const early = sampleKey('z-early', { createdAt: T0 - 10 });
          await store.saveApiKey(late);
          await store.saveApiKey(early);
          assert.deepEqual(await store.listApiKeys(), [early, late]);
        }));

      it('saving a key with a known id updates name, plan, use and revocation, never its hash or creation', () =>
        withStore(async ({ store }) => {
          const key = sampleKey('k1');
          await store.saveApiKey(key);
          await store.saveApiKey({
            ...key,
            keyHash: 'f'.repeat(64),
            createdAt: T0 + 999,
            name: 'renamed',
            plan: 'business',
            lastUsedAt: T0 + 50,
            revokedAt: T0 + 60,
          });
          const expected = { ...key, name: 'renamed', plan: 'business', lastUsedAt: T0 + 50, revokedAt: T0 + 60 };
          assert.deepEqual(await store.findApiKeyByHash(key.keyHash), expected);
          assert.equal(await store.findApiKeyByHash('f'.repeat(64)), null);
          assert.deepEqual(await store.listApiKeys(), [expected]);
        }));

      it('a revoked key is still found, carrying its revocation time', () =>
        withStore(async ({ store }) => {
          await store.saveApiKey(sampleKey('k1'));
          await store.saveApiKey(sampleKey('k1', { revokedAt: T0 + 1 }));
          assert.equal((await store.findApiKeyByHash(sampleKey('k1').keyHash))?.revokedAt, T0 + 1);
        }));

      it('a second key with an existing hash is refused', () =>
        withStore(async ({ store }) => {
          await store.saveApiKey(sampleKey('k1'));
          await assert.rejects(store.saveApiKey(sampleKey('k2', { keyHash: sampleKey('k1').keyHash })));
          assert.deepEqual(await store.listApiKeys(), [sampleKey('k1')]);
        }));
    });

    describe('lifecycle', () => {
      it('every call after close rejects as service_unavailable, and close can be repeated', () =>
        withStore(async ({ store }) => {
          await store.close();
          const calls: Array<[string, () => Promise<unknown>]> = [
            ['migrate', () => store.migrate()],
            ['ping', () => store.ping()],
            ['loadEvents', () => store.loadEvents()],
            ['writeBatch', () => store.writeBatch(EMPTY_BATCH)],
            ['saveResult', () => store.saveResult(sampleResult('e1'), EMPTY_BATCH)],
            ['getResult', () => store.getResult('e1')],
            ['findApiKeyByHash', () => store.findApiKeyByHash('x')],
            ['saveApiKey', () => store.saveApiKey(sampleKey('k1'))],
            ['listApiKeys', () => store.listApiKeys()],
          ];
          for (const [label, call] of calls) {
            await assert.rejects(call(), (error: unknown) => {
              assert.ok(error instanceof ServiceError, `${label} rejected with ${String(error)}`);
              assert.equal(error.code, 'service_unavailable');
              return true;
            });
          }
          await store.close();
        }));

      it('close waits for writes already under way', () =>
        withStore(async ({ store, restart }) => {
          const writes = Array.from({ length: 5 }, (_, i) =>
            store.writeBatch(eventWithMarkets(sampleEvent(`w${i}`), [1, 2])),
          );
          const reopened = await restart();
          await Promise.all(writes);
          assert.equal((await reopened.loadEvents()).length, 5);
        }));

      it('everything written survives a restart unchanged', () =>
        withStore(async ({ store, restart }) => {
          const events = [liveEvent('e1'), sampleEvent('e2', { startTime: T0 + 3_600_000 }), sampleEvent('e3')];
          await store.writeBatch(eventWithMarkets(events[0]!, [7, 3, 9]));
          await store.writeBatch(eventWithMarkets(events[1]!, [1]));
          await store.writeBatch(batch({ events: [events[2]!] }));
          await store.writeBatch(batch({ removedMarkets: [{ eventId: 'e1', marketIds: [3] }] }));
          const ended = sampleEvent('e3', { status: 'ended', endedAt: T0 + 7_000_000, score: { home: 3, away: 1 } });
          await store.saveResult(sampleResult('e3'), batch({ events: [ended] }));
          await store.saveResult(sampleResult('gone', { revision: 3 }), EMPTY_BATCH);
          const keys = [sampleKey('k1'), sampleKey('k2', { createdAt: T0 + 1, revokedAt: T0 + 2, lastUsedAt: T0 + 1 })];
          for (const key of keys) await store.saveApiKey(key);
          const beforeRestart = await store.loadEvents();

          const reopened = await restart();
          const loaded = await reopened.loadEvents();
          assert.deepEqual(loaded, beforeRestart);
          const byId = new Map(contentsOf(loaded).map((s) => [s.event.id, s]));
          assert.deepEqual(byId.get('e1'), { event: events[0], markets: [sampleMarket(7), sampleMarket(9)] });
          assert.deepEqual(byId.get('e2'), { event: events[1], markets: [sampleMarket(1)] });
          assert.deepEqual(byId.get('e3'), { event: ended, markets: [] });
          assert.deepEqual(await reopened.getResult('e3'), sampleResult('e3'));
          assert.deepEqual(await reopened.getResult('gone'), sampleResult('gone', { revision: 3 }));
          for (const key of keys) assert.deepEqual(await reopened.findApiKeyByHash(key.keyHash), key);
          assert.deepEqual(await reopened.listApiKeys(), keys);
        }));
    });
  });
}
