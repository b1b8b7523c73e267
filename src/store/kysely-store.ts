// The Store over any Kysely database holding StoreDatabase: the queries every SQL dialect shares.
import { readStoredHistory, storedHistory } from './history-blob.js';
import { performance } from 'node:perf_hooks';
import { Migrator, sql } from 'kysely';
import type { Kysely, MigrationProvider, Transaction } from 'kysely';
import { ServiceError } from '../domain/errors.js';
import type { OutrightEntry, OutrightMarket, OutrightResult, TournamentInfo } from '../domain/outrights.js';
import type { EventResult, Market, SportEvent } from '../domain/types.js';
import {
  createAccount,
  createPortalSession,
  deleteExpiredPortalSessions,
  deletePortalSession,
  findAccountByEmail,
  findAccountById,
  findApiKeyById,
  findPortalSession,
  listApiKeysOfAccount,
  loadUsage,
  renameApiKey,
  revokeApiKey,
  saveUsage,
  setApiKeyPlan,
} from './account-queries.js';
import {
  countOutrightSettlements,
  listOutrightSettlements,
  loadOutrights,
  saveOutrightMarket,
  saveTournament,
  settleOutrightMarket,
} from './outright-queries.js';
import {
  apiKeyToRow,
  eventToRow,
  marketToRow,
  resultToRow,
  rowToApiKey,
  rowToEvent,
  rowToMarket,
  rowToResult,
} from './rows.js';
import type { StoreDatabase } from './schema.js';
import {
  countSettlementChanges,
  listSettlementChanges,
  listSettlements,
  rowToSettlement,
  saveSettlement,
  settlementSummaries,
} from './settlement-queries.js';
import { StoreHealth, toStoreError } from './store-health.js';
import { inTransaction } from './transactions.js';
import { countFact, loadLogWindow, readLogSegments, writeLogWindow } from './log-window-queries.js';
import { isEmptyBatch, isEmptyUsage } from './store.js';
import { webhookQueries } from './webhook-queries.js';
import type {
  AccountRecord,
  ApiKeyRecord,
  OutrightSettlementQuery,
  PortalSessionRecord,
  SettlementChangesCount,
  SettlementChangesQuery,
  SettlementPageQuery,
  SettlementRecord,
  Store,
  StoredEvent,
  StoredLogPosition,
  UsageWrite,
  WriteBatch,
} from './store.js';

export interface KyselyStoreOptions {
  kind: Store['kind'];
  db: Kysely<StoreDatabase>;
  migrationProvider: MigrationProvider;
  /** The schema of Kysely's migration tables (PostgreSQL: the store's own, not any schema that has them). */
  migrationTableSchema?: string;
  /**
   * Most bound parameters one statement may carry. Multi-row statements are cut into chunks that
   * stay under it (SQLite's limit is 32766 since 3.32, PostgreSQL's 65535).
   */
  maxParameters: number;
  /** Releases what the dialect holds beyond Kysely; called once, after the Kysely instance is destroyed. */
  afterClose?: () => void | Promise<void>;
  /** Follows the outcome of every operation (shared with writes made elsewhere, e.g. a writer thread). */
  health?: StoreHealth;
}

const EVENT_COLUMNS = 8;
const MARKET_COLUMNS = 5;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

// One multi-row upsert may not touch the same key twice (PostgreSQL rejects it), so a batch that
// repeats an event or market keeps the last occurrence, as if applied in order. Rows go in key
// order: two transactions writing the same rows on PostgreSQL lock them in the same order, so
// they wait for each other instead of deadlocking.
function lastById<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) byKey.set(keyOf(item), item);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

/** Writes a batch inside a transaction the caller opened (also used by the SQLite writer thread). */
export async function applyBatch(
  trx: Transaction<StoreDatabase>,
  batch: WriteBatch,
  maxParameters: number,
): Promise<void> {
  const eventsPerStatement = Math.max(1, Math.floor(maxParameters / EVENT_COLUMNS));
  const marketsPerStatement = Math.max(1, Math.floor(maxParameters / MARKET_COLUMNS));
  const idsPerStatement = Math.max(1, maxParameters - 1);

  // Rows are serialized chunk by chunk inside the transaction: a 100k-market batch never holds
  // every JSON document at once, and a document that cannot be serialized rolls the batch back.
  for (const events of chunk(
    lastById(batch.events, (e: SportEvent) => e.id),
    eventsPerStatement,
  )) {
    await trx
      .insertInto('events')
      .values(events.map(eventToRow))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          sport: eb.ref('excluded.sport'),
          league_slug: eb.ref('excluded.league_slug'),
          status: eb.ref('excluded.status'),
          start_time: eb.ref('excluded.start_time'),
          updated_at: eb.ref('excluded.updated_at'),
          ended_at: eb.ref('excluded.ended_at'),
          doc: eb.ref('excluded.doc'),
        })),
      )
      .execute();
  }

  // Removals run before upserts: a market both withdrawn and listed in `markets` ends up stored,
  // because the upsert list is the batch's latest view of what the event offers.
  for (const removal of batch.removedMarkets) {
    for (const ids of chunk(removal.marketIds, idsPerStatement)) {
      if (ids.length === 0) continue;
      await trx.deleteFrom('markets').where('event_id', '=', removal.eventId).where('market_id', 'in', ids).execute();
    }
  }

  const markets = lastById(batch.markets, (m) => `${m.eventId}\u0000${m.market.marketId}`);
  for (const rows of chunk(markets, marketsPerStatement)) {
    await trx
      .insertInto('markets')
      .values(rows.map((m) => marketToRow(m.eventId, m.position, m.market, batch.seq ?? 0)))
      .onConflict((oc) =>
        oc.columns(['event_id', 'market_id']).doUpdateSet((eb) => ({
          position: eb.ref('excluded.position'),
          doc: eb.ref('excluded.doc'),
          seq: eb.ref('excluded.seq'),
        })),
      )
      .execute();
  }

  const seq = batch.seq ?? 0;
  // A book image holds every market and current price of its event as of this flush: the
  // documents and odds rows it supersedes go (an older store's documents, the odds rows' history).
  for (const rows of chunk(
    lastById(batch.bookImages ?? [], (b) => b.eventId),
    Math.max(1, Math.floor(maxParameters / 3)),
  )) {
    await trx
      .insertInto('book_images')
      // A Buffer: better-sqlite3 binds Buffers (a Uint8Array from the writer thread is not one).
      .values(
        rows.map((r) => ({
          event_id: r.eventId,
          seq,
          data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
        })),
      )
      .onConflict((oc) =>
        oc.column('event_id').doUpdateSet((eb) => ({ seq: eb.ref('excluded.seq'), data: eb.ref('excluded.data') })),
      )
      .execute();
    const ids = rows.map((r) => r.eventId);
    await trx.deleteFrom('markets').where('event_id', 'in', ids).execute();
    await trx.deleteFrom('odds_log').where('event_id', 'in', ids).where('seq', '<', seq).execute();
  }
  for (const rows of chunk(batch.oddsLog ?? [], Math.max(1, Math.floor(maxParameters / 3)))) {
    await trx
      .insertInto('odds_log')
      .values(rows.map((r) => ({ event_id: r.eventId, seq, data: r.data })))
      .onConflict((oc) => oc.columns(['event_id', 'seq']).doUpdateSet((eb) => ({ data: eb.ref('excluded.data') })))
      .execute();
  }
  for (const p of batch.oddsLogPrune ?? []) {
    await trx.deleteFrom('odds_log').where('event_id', '=', p.eventId).where('seq', '<', p.beforeSeq).execute();
  }
  for (const rows of chunk(batch.oddsMarks ?? [], Math.max(1, Math.floor(maxParameters / 2)))) {
    await trx
      .insertInto('odds_marks')
      // A Buffer: better-sqlite3 binds Buffers (a Uint8Array from the writer thread is not one).
      .values(
        rows.map((r) => ({
          event_id: r.eventId,
          data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
        })),
      )
      .onConflict((oc) => oc.column('event_id').doUpdateSet((eb) => ({ data: eb.ref('excluded.data') })))
      .execute();
  }
  const history = batch.history ?? [];
  for (let from = 0; from < history.length; from += Math.max(1, Math.floor(maxParameters / 6))) {
    const rows = history.slice(from, from + Math.max(1, Math.floor(maxParameters / 6)));
    await trx
      .insertInto('odds_history')
      .values(
        rows.map((c, k) => ({
          event_id: c.eventId,
          from_at: c.fromAt,
          to_at: c.toAt,
          // Unique and increasing across flushes (and restarts: the flush sequence continues).
          seq: seq * HISTORY_SEQ_SPAN + from + k,
          count: c.count,
          data: storedHistory(c.data),
        })),
      )
      // Written again (a retried batch): kept as it is. No conflict target: SQLite's key is `seq`
      // alone, PostgreSQL's (event_id, seq) (migrations.ts, 0013).
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  // Last: the segment describes the facts above, and commits with them (log-window-queries.ts).
  if (batch.logWindow !== undefined) await writeLogWindow(trx, batch.logWindow);
}

/** Chunks a flush may hold: history seq = flush seq × this + the chunk's index in the flush. */
const HISTORY_SEQ_SPAN = 1_000_000;

/** Builds a Store on an open Kysely instance; the store owns it from now on and destroys it on close. */
export function createKyselyStore(options: KyselyStoreOptions): Store {
  const { db, maxParameters } = options;
  const health = options.health ?? new StoreHealth();
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | null = null;

  // Every operation is tracked so close() can wait for it: destroying the connection under a
  // running transaction would turn an acknowledged write into a failed one. Its outcome feeds
  // the store's health, and a datastore fault (connection refused, disk full…) leaves as a 503
  // `service_unavailable` naming the datastore, never as an unexplained 500.
  function track<T>(kind: 'read' | 'write', name: string, operation: () => Promise<T>): Promise<T> {
    if (closing !== null) {
      return Promise.reject(new ServiceError('service_unavailable', 'the store is closed', { component: 'datastore' }));
    }
    let started: Promise<T>;
    try {
      started = operation();
    } catch (error) {
      started = Promise.reject(error);
    }
    const pending = started.then(
      (value) => {
        health.record(kind, name, null);
        return value;
      },
      (error: unknown) => {
        health.record(kind, name, error);
        throw toStoreError(error);
      },
    );
    inFlight.add(pending);
    const forget = (): void => {
      inFlight.delete(pending);
    };
    pending.then(forget, forget);
    return pending;
  }
  const read = <T>(name: string, operation: () => Promise<T>): Promise<T> => track('read', name, operation);
  const write = <T>(name: string, operation: () => Promise<T>): Promise<T> => track('write', name, operation);
  const nothing = (): Promise<void> =>
    closing !== null
      ? Promise.reject(new ServiceError('service_unavailable', 'the store is closed', { component: 'datastore' }))
      : Promise.resolve();

  /**
   * Every stored event with its markets, `batchEvents` at a time in start order, in one transaction
   * (repeatable read: PostgreSQL's default read committed would give each statement its own
   * snapshot; SQLite's transactions always have one). A batch's market documents are garbage once
   * `onBatch` has restored them: a restart of 11,000 events × 1,000 markets never holds them all.
   */
  function loadEventBatches(onBatch: (events: StoredEvent[], total: number) => void, batchEvents = 50): Promise<void> {
    const size = Math.max(1, Math.min(batchEvents, Math.floor(maxParameters / 2)));
    return read('loadEvents', () =>
      inTransaction(
        db,
        async (trx): Promise<void> => {
          const eventRows = await trx
            .selectFrom('events')
            .select(['id', 'doc'])
            .orderBy('start_time')
            .orderBy('id')
            .execute();
          for (let from = 0; from < eventRows.length; from += size) {
            const rows = eventRows.slice(from, from + size);
            const ids = rows.map((r) => r.id);
            const oddsRows = await trx
              .selectFrom('odds_log')
              .select(['event_id', 'seq', 'data'])
              .where('event_id', 'in', ids)
              .orderBy('event_id')
              .orderBy('seq')
              .execute();
            const oddsByEvent = new Map<string, Array<{ seq: number; data: Uint8Array }>>();
            for (const row of oddsRows) {
              let list = oddsByEvent.get(row.event_id);
              if (list === undefined) oddsByEvent.set(row.event_id, (list = []));
              list.push({ seq: Number(row.seq), data: row.data });
            }
            const markRows = await trx
              .selectFrom('odds_marks')
              .select(['event_id', 'data'])
              .where('event_id', 'in', ids)
              .execute();
            const marksByEvent = new Map(markRows.map((r) => [r.event_id, r.data] as const));
            const imageRows = await trx
              .selectFrom('book_images')
              .select(['event_id', 'seq', 'data'])
              .where('event_id', 'in', ids)
              .execute();
            const imageByEvent = new Map(
              imageRows.map((r) => [r.event_id, { seq: Number(r.seq), data: r.data }] as const),
            );
            const marketRows = await trx
              .selectFrom('markets')
              .select(['event_id', 'position', 'seq', 'doc'])
              .where('event_id', 'in', ids)
              .orderBy('event_id')
              .orderBy('position')
              .orderBy('market_id')
              .execute();
            const marketsByEvent = new Map<string, { markets: Market[]; positions: number[]; seqs: number[] }>();
            for (const row of marketRows) {
              let list = marketsByEvent.get(row.event_id);
              if (list === undefined) {
                list = { markets: [], positions: [], seqs: [] };
                marketsByEvent.set(row.event_id, list);
              }
              list.markets.push(rowToMarket(row));
              list.positions.push(Number(row.position));
              list.seqs.push(Number(row.seq));
            }
            onBatch(
              rows.map((row) => {
                const m = marketsByEvent.get(row.id);
                return {
                  event: rowToEvent(row),
                  markets: m?.markets ?? [],
                  positions: m?.positions ?? [],
                  marketSeqs: m?.seqs ?? [],
                  image: imageByEvent.get(row.id) ?? null,
                  oddsLog: oddsByEvent.get(row.id) ?? [],
                  oddsMarks: marksByEvent.get(row.id) ?? null,
                };
              }),
              eventRows.length,
            );
          }
        },
        'repeatable read',
      ),
    );
  }

  return {
    kind: options.kind,
    health,
    ...webhookQueries(db, read, write, options.kind),

    checkWrites: () =>
      write('checkWrites', async () => {
        await db
          .insertInto('write_probe')
          .values({ id: 1, at: Date.now() })
          .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ at: eb.ref('excluded.at') })))
          .execute();
      }),

    migrate: () =>
      write('migrate', async () => {
        const migrator = new Migrator({
          db,
          provider: options.migrationProvider,
          ...(options.migrationTableSchema !== undefined ? { migrationTableSchema: options.migrationTableSchema } : {}),
        });
        // Kysely's check for its migration tables introspects every schema of the database: a
        // schema another installation drops at that moment fails it (3F000), so try again.
        for (let attempt = 1; ; attempt++) {
          const { error } = await migrator.migrateToLatest();
          if (error === undefined) return;
          if (attempt < 5 && isOtherSchemaDropped(error, options.migrationTableSchema)) continue;
          throw error instanceof Error ? error : new Error(`migration failed: ${String(error)}`);
        }
      }),

    ping: () =>
      read('ping', async () => {
        const started = performance.now();
        await sql`select 1`.execute(db);
        return Math.max(0, Math.round(performance.now() - started));
      }),

    loadEvents: async () => {
      const all: StoredEvent[] = [];
      await loadEventBatches((events) => {
        for (const e of events) all.push(e);
      });
      return all;
    },

    loadEventBatches: (onBatch: (events: StoredEvent[], total: number) => void, batchEvents?: number) =>
      loadEventBatches(onBatch, batchEvents),

    // An empty write proves nothing about the disk: it is not counted for health.
    writeBatch: (batch: WriteBatch) =>
      isEmptyBatch(batch)
        ? nothing()
        : write('writeBatch', () => inTransaction(db, (trx) => applyBatch(trx, batch, maxParameters))),

    saveResult: (result: EventResult, batch: WriteBatch) =>
      write('saveResult', async () => {
        await inTransaction(db, async (trx) => {
          await applyBatch(trx, batch, maxParameters);
          await countFact(trx);
          await trx
            .insertInto('results')
            .values(resultToRow(result))
            .onConflict((oc) =>
              oc.column('event_id').doUpdateSet((eb) => ({
                status: eb.ref('excluded.status'),
                home: eb.ref('excluded.home'),
                away: eb.ref('excluded.away'),
                period_scores: eb.ref('excluded.period_scores'),
                winner: eb.ref('excluded.winner'),
                ended_at: eb.ref('excluded.ended_at'),
                revision: eb.ref('excluded.revision'),
                recorded_at: eb.ref('excluded.recorded_at'),
              })),
            )
            .execute();
        });
      }),

    getResult: (eventId: string) =>
      read('getResult', async () => {
        const row = await db.selectFrom('results').selectAll().where('event_id', '=', eventId).executeTakeFirst();
        return row === undefined ? null : rowToResult(row);
      }),

    getPlayerStats: (eventId: string) =>
      read('getPlayerStats', async () => {
        const row = await db.selectFrom('events').select('doc').where('id', '=', eventId).executeTakeFirst();
        return row === undefined ? null : rowToEvent(row).playerStats;
      }),

    saveSettlement: (record: SettlementRecord) =>
      write('saveSettlement', () =>
        inTransaction(db, async (trx) => {
          await saveSettlement(trx, record);
          await countFact(trx);
        }),
      ),

    loadLogWindow: (fromMs: number, maxBytes = Number.POSITIVE_INFINITY, dataBytes = Number.POSITIVE_INFINITY) =>
      read('loadLogWindow', () => loadLogWindow(db, fromMs, maxBytes, dataBytes)),

    readLogSegments: (from: StoredLogPosition, to: StoredLogPosition) =>
      read('readLogSegments', () => readLogSegments(db, from, to)),

    getSettlement: (eventId: string) =>
      read('getSettlement', async () => {
        const row = await db.selectFrom('settlements').selectAll().where('event_id', '=', eventId).executeTakeFirst();
        return row === undefined ? null : rowToSettlement(row);
      }),

    listSettlements: (q: SettlementPageQuery) => read('listSettlements', () => listSettlements(db, q)),

    listSettlementChanges: (q: SettlementChangesQuery) =>
      read('listSettlementChanges', () => listSettlementChanges(db, q)),

    countSettlementChanges: (q: SettlementChangesCount) =>
      read('countSettlementChanges', () => countSettlementChanges(db, q)),

    settlementSummaries: (minEndedAt: number) => read('settlementSummaries', () => settlementSummaries(db, minEndedAt)),

    listOddsHistory: (q) =>
      read('listOddsHistory', async () => {
        const rows = await db
          .selectFrom('odds_history')
          .selectAll()
          .where('event_id', '=', q.eventId)
          .where('to_at', '>=', q.fromAt)
          .where('from_at', '<=', q.toAt)
          .where('seq', '>', q.afterSeq)
          .orderBy('seq')
          .limit(q.limit)
          .execute();
        return rows.map((r) => ({
          eventId: r.event_id,
          fromAt: Number(r.from_at),
          toAt: Number(r.to_at),
          seq: Number(r.seq),
          count: Number(r.count),
          data: readStoredHistory(r.data),
        }));
      }),

    deleteOddsHistoryBefore: (before: number) =>
      write('deleteOddsHistoryBefore', async () => {
        const r = await db.deleteFrom('odds_history').where('to_at', '<', before).executeTakeFirst();
        return Number(r.numDeletedRows ?? 0);
      }),

    deleteSettlementsBefore: (before: number) =>
      write('deleteSettlementsBefore', async () => {
        const r = await db.deleteFrom('settlements').where('ended_at', '<', before).executeTakeFirst();
        return Number(r.numDeletedRows);
      }),

    saveTournament: (t: TournamentInfo) =>
      write('saveTournament', () =>
        inTransaction(db, async (trx) => {
          await saveTournament(trx, t);
          await countFact(trx);
        }),
      ),

    saveOutrightMarket: (tournamentId: string, market: OutrightMarket) =>
      write('saveOutrightMarket', () =>
        inTransaction(db, async (trx) => {
          await saveOutrightMarket(trx, tournamentId, market);
          await countFact(trx);
        }),
      ),

    settleOutrightMarket: (
      tournamentId: string,
      marketId: number,
      result: OutrightResult,
      entries: readonly OutrightEntry[],
    ) =>
      write('settleOutrightMarket', () =>
        inTransaction(db, async (trx) => {
          await settleOutrightMarket(trx, tournamentId, marketId, result, entries, maxParameters);
          await countFact(trx);
        }),
      ),

    loadOutrights: () => read('loadOutrights', () => loadOutrights(db)),

    listOutrightSettlements: (q: OutrightSettlementQuery) =>
      read('listOutrightSettlements', () => listOutrightSettlements(db, q)),

    countOutrightSettlements: (tournamentIds: string[] | null) =>
      read('countOutrightSettlements', () => countOutrightSettlements(db, tournamentIds)),

    findApiKeyByHash: (keyHash: string) =>
      read('findApiKeyByHash', async () => {
        const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
        return row === undefined ? null : rowToApiKey(row);
      }),

    // The hash and creation time identify a key for life; only its name, plan, use and revocation change.
    saveApiKey: (key: ApiKeyRecord) =>
      write('saveApiKey', async () => {
        await db
          .insertInto('api_keys')
          .values(apiKeyToRow(key))
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              plan: eb.ref('excluded.plan'),
              last_used_at: eb.ref('excluded.last_used_at'),
              revoked_at: eb.ref('excluded.revoked_at'),
            })),
          )
          .execute();
      }),

    listApiKeys: () =>
      read('listApiKeys', async () => {
        const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
        return rows.map(rowToApiKey);
      }),

    findApiKeyById: (id: string) => read('findApiKeyById', () => findApiKeyById(db, id)),

    listApiKeysOfAccount: (accountId: string) =>
      read('listApiKeysOfAccount', () => listApiKeysOfAccount(db, accountId)),

    revokeApiKey: (id: string, at: number) => write('revokeApiKey', () => revokeApiKey(db, id, at)),

    setApiKeyPlan: (id: string, plan: string) => write('setApiKeyPlan', () => setApiKeyPlan(db, id, plan)),

    renameApiKey: (id: string, name: string) => write('renameApiKey', () => renameApiKey(db, id, name)),

    createAccount: (account: AccountRecord) => write('createAccount', () => createAccount(db, account)),

    findAccountByEmail: (email: string) => read('findAccountByEmail', () => findAccountByEmail(db, email)),

    findAccountById: (id: string) => read('findAccountById', () => findAccountById(db, id)),

    createPortalSession: (session: PortalSessionRecord) =>
      write('createPortalSession', () => createPortalSession(db, session)),

    findPortalSession: (tokenHash: string) => read('findPortalSession', () => findPortalSession(db, tokenHash)),

    deletePortalSession: (tokenHash: string) => write('deletePortalSession', () => deletePortalSession(db, tokenHash)),

    deleteExpiredPortalSessions: (at: number) =>
      write('deleteExpiredPortalSessions', () => deleteExpiredPortalSessions(db, at)),

    loadUsage: (fromDate: string) => read('loadUsage', () => loadUsage(db, fromDate)),

    saveUsage: (usage: UsageWrite) =>
      isEmptyUsage(usage) ? nothing() : write('saveUsage', () => saveUsage(db, usage, maxParameters)),

    loadUpstreamSpend: (provider: string, month: string) =>
      read('loadUpstreamSpend', async () => {
        const row = await db
          .selectFrom('upstream_spend')
          .select('credits')
          .where('provider', '=', provider)
          .where('month', '=', month)
          .executeTakeFirst();
        return row === undefined ? 0 : Number(row.credits);
      }),

    saveUpstreamSpend: (provider: string, month: string, credits: number, at: number) =>
      write('saveUpstreamSpend', async () => {
        await db
          .insertInto('upstream_spend')
          .values({ provider, month, credits, updated_at: at })
          .onConflict((oc) =>
            oc.columns(['provider', 'month']).doUpdateSet((eb) => ({
              credits: eb.ref('excluded.credits'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }),

    close: () => {
      if (closing === null) {
        closing = (async () => {
          await Promise.allSettled([...inFlight]);
          await db.destroy();
          await options.afterClose?.();
        })();
      }
      return closing;
    },
  };
}

/** A "schema does not exist" error about a schema other than ours (dropped during introspection). */
function isOtherSchemaDropped(error: unknown, ours: string | undefined): boolean {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== '3F000') return false;
  const named = /schema "([^"]+)" does not exist/.exec((error as { message?: string }).message ?? '')?.[1];
  return named !== undefined && named !== ours;
}
