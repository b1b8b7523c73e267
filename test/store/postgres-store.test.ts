// The PostgreSQL store: the shared contract, plus schema, isolation, plans and failures only a server has. Skipped without a server (failed under CI).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations.js';
import { outrightPageQuery } from '../../src/store/outright-queries.js';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres-store.js';
import type { StoreDatabase } from '../../src/store/schema.js';
import { settlementPageQuery } from '../../src/store/settlement-queries.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import {
  createTestSchema,
  postgresSkip,
  queryIn,
  TEST_DATABASE_URL,
  withTestSchema,
  type TestSchema,
} from '../helpers/postgres.js';
import { runStoreContract } from './contract.js';
import { T0, batch, sampleEvent, sampleMarket } from './fixtures.js';

const skip = await postgresSkip();

async function withPostgres(schema: TestSchema, body: (store: PostgresStore) => Promise<void>): Promise<void> {
  const store = await openPostgresStore({ url: schema.url });
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

/** The plan PostgreSQL picks for a compiled query. */
async function planOf(schema: TestSchema, compiled: { sql: string; parameters: readonly unknown[] }): Promise<string> {
  const rows = await queryIn<{ 'QUERY PLAN': string }>(schema, `explain ${compiled.sql}`, [...compiled.parameters]);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

// Enough rows (with statistics) that the planner's choice is the one a real feed gets: a page
// of 101 out of 50,000 rows, read in index order, beats any scan-and-sort.
const PLAN_ROWS = 50_000;

async function fillSettlements(schema: TestSchema): Promise<void> {
  await queryIn(
    schema,
    `insert into settlements (event_id, ended_at, updated_at, revision, resolved_count, total_count, pending_count, header, markets)
     select 'e-' || i, $1::bigint + (i / 3) * 1000, $1::bigint + i, 1, 1, 1, 0, '{}', '[]' from generate_series(1, ${PLAN_ROWS}) as i`,
    [T0],
  );
  await queryIn(
    schema,
    `insert into outright_settlements (entry_id, tournament_id, tournament, market_id, market, selection_id, selection, result, dead_heat_factor, settled_at, sport)
     select 't' || (i % 40) || ':' || i || ':1:won', 't' || (i % 40), 'T', i, 'M', 1, 'S', 'won', null, $1::bigint + (i / 5) * 1000, 'tennis'
     from generate_series(1, ${PLAN_ROWS}) as i`,
    [T0],
  );
  await queryIn(schema, 'analyze');
}

describe('PostgreSQL store', { skip }, () => {
  runStoreContract('postgres', async () => {
    const schema = await createTestSchema();
    try {
      return {
        store: await openPostgresStore({ url: schema.url }),
        reopen: () => openPostgresStore({ url: schema.url }),
        cleanup: () => schema.drop(),
      };
    } catch (error) {
      await schema.drop();
      throw error;
    }
  });

  describe('PostgreSQL store: schema and migrations', () => {
    it('creates every table and migration record in its own schema, once however often opened', () =>
      withTestSchema(async (schema) => {
        for (let i = 0; i < 3; i++) await withPostgres(schema, (store) => store.migrate());
        await withPostgres(schema, async (store) => assert.equal(store.schema, schema.name));
        const names = await queryIn<{ name: string }>(schema, 'select name from kysely_migration order by name');
        assert.deepEqual(
          names.map((r) => r.name),
          Object.keys(SQLITE_MIGRATIONS).sort(),
        );
        const elsewhere = await queryIn<{ n: string }>(
          schema,
          `select count(*) as n from information_schema.tables where table_name = 'events' and table_schema = $1`,
          [schema.name],
        );
        assert.equal(Number(elsewhere[0]?.n), 1);
      }));

    it('two installations in one database stay apart, each migrating its own schema', () =>
      withTestSchema((a) =>
        withTestSchema(async (b) => {
          await withPostgres(a, (store) => store.writeBatch(batch({ events: [sampleEvent('only-in-a')] })));
          // b's migrator must not mistake a's kysely_migration table for its own.
          await withPostgres(b, async (store) => {
            assert.deepEqual(await store.loadEvents(), []);
            await store.writeBatch(batch({ events: [sampleEvent('only-in-b')] }));
          });
          await withPostgres(a, async (store) => {
            assert.deepEqual(
              (await store.loadEvents()).map((s) => s.event.id),
              ['only-in-a'],
            );
          });
        }),
      ));

    it('stores start concurrently on an empty schema: migrations run once, all of them open', () =>
      withTestSchema(async (schema) => {
        const stores = await Promise.all(Array.from({ length: 4 }, () => openPostgresStore({ url: schema.url })));
        await Promise.all(stores.map((s) => s.close()));
        const names = await queryIn<{ name: string }>(schema, 'select name from kysely_migration');
        assert.equal(names.length, Object.keys(SQLITE_MIGRATIONS).length);
      }));

    it('has the tables and columns of the SQLite store, with byte-wise text, bytea and 8-byte numbers', () =>
      withTestSchema(async (schema) => {
        await withPostgres(schema, async () => {});
        const columns = await queryIn<{ table_name: string; column_name: string; data_type: string; c: string | null }>(
          schema,
          `select table_name, column_name, data_type, collation_name as c from information_schema.columns
           where table_schema = $1 and table_name not like 'kysely_%' order by table_name, column_name`,
          [schema.name],
        );
        const dataDir = await mkdtemp(join(tmpdir(), 'store-pg-compare-'));
        try {
          const sqlite = await openSqliteStore({ dataDir });
          await sqlite.close();
          const raw = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
          const expected: string[] = [];
          try {
            const tables = raw
              .prepare(`select name from sqlite_master where type = 'table' and name not like 'kysely_%'`)
              .pluck()
              .all() as string[];
            for (const t of tables) {
              for (const c of raw.pragma(`table_info(${t})`) as Array<{ name: string }>)
                expected.push(`${t}.${c.name}`);
            }
          } finally {
            raw.close();
          }
          assert.deepEqual(columns.map((c) => `${c.table_name}.${c.column_name}`).sort(), expected.sort());
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
        const off = columns.filter(
          (c) =>
            (c.data_type === 'text' && c.c !== 'C') ||
            c.data_type === 'real' ||
            !['text', 'bigint', 'integer', 'bytea', 'double precision'].includes(c.data_type),
        );
        assert.deepEqual(off, [], 'text is COLLATE "C"; no 4-byte float; only the mapped types');
        const typeOf = (t: string, c: string) =>
          columns.find((x) => x.table_name === t && x.column_name === c)?.data_type;
        assert.equal(typeOf('odds_log', 'data'), 'bytea');
        assert.equal(typeOf('settlements', 'ended_at'), 'bigint');
        assert.equal(typeOf('outright_settlements', 'dead_heat_factor'), 'double precision');
      }));

    it('refuses a database migrated by a newer version it does not know', () =>
      withTestSchema(async (schema) => {
        await withPostgres(schema, async () => {});
        await queryIn(schema, 'insert into kysely_migration (name, timestamp) values ($1, $2)', [
          '9999_future',
          new Date(T0).toISOString(),
        ]);
        await assert.rejects(openPostgresStore({ url: schema.url }), /9999_future/);
      }));
  });

  describe('PostgreSQL store: failures at open', () => {
    it('an unreachable server fails fast, naming the server but not the password', async () => {
      const started = performance.now();
      await assert.rejects(
        openPostgresStore({ url: 'postgres://app:s3cret@127.0.0.1:1/nowhere', connectTimeoutMs: 1000 }),
        (e: unknown) => {
          const message = e instanceof Error ? e.message : '';
          assert.match(message, /PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/nowhere is unreachable/);
          assert.doesNotMatch(message, /s3cret/);
          return true;
        },
      );
      assert.ok(performance.now() - started < 5000);
    });

    it('a search_path naming no existing schema is refused with what to do', async () => {
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', '-c search_path=t_never_created');
      await assert.rejects(
        openPostgresStore({ url: url.toString() }),
        /no schema of the search_path \(t_never_created\) exists; create it first/,
      );
    });
  });

  describe('PostgreSQL store: volume and plans', () => {
    it('writes 100,000 market upserts in one batch, then replaces them all, under the parameter limit', () =>
      withTestSchema((schema) =>
        withPostgres(schema, async (store) => {
          const events = Array.from({ length: 100 }, (_, i) => sampleEvent(`e${i}`, { startTime: T0 + i }));
          const marketsOf = (odds: number) =>
            events.flatMap((event) =>
              Array.from({ length: 1000 }, (_, i) => ({
                eventId: event.id,
                position: i,
                market: sampleMarket(i + 1, odds),
              })),
            );
          const started = performance.now();
          await store.writeBatch({ events, markets: marketsOf(1.9), removedMarkets: [] });
          await store.writeBatch(batch({ markets: marketsOf(2.1) }));
          const elapsed = performance.now() - started;
          assert.ok(elapsed < 60_000, `took ${Math.round(elapsed)} ms`);
          const loaded = await store.loadEvents();
          assert.equal(
            loaded.reduce((n, s) => n + s.markets.length, 0),
            100_000,
          );
          assert.deepEqual(loaded[42]?.markets[999], sampleMarket(1000, 2.1));
        }),
      ));

    it('the settlement page walks the (ended_at, event_id) index, from the top and after a cursor, without sorting', () =>
      withTestSchema(async (schema) => {
        await withPostgres(schema, async () => {});
        await fillSettlements(schema);
        const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
        try {
          for (const after of [null, { at: T0 + 5_000_000, eventId: 'e-15000' }]) {
            const compiled = settlementPageQuery(db, {
              minEndedAt: T0 - 86_400_000,
              eventIds: null,
              after,
              limit: 101,
              offset: 0,
            }).compile();
            if (after !== null) assert.match(compiled.sql, /\("ended_at", "event_id"\) < \(\$\d, \$\d\)/);
            const plan = await planOf(schema, compiled);
            assert.match(plan, /Index Scan Backward using settlements_by_end/, plan);
            assert.doesNotMatch(plan, /Sort/, plan);
            if (after !== null) assert.match(plan, /Index Cond: .*ROW\(ended_at, event_id\) < ROW/, plan);
          }
        } finally {
          await db.destroy();
        }
      }));

    it('the outright settlement page walks the (settled_at, entry_id) index without sorting', () =>
      withTestSchema(async (schema) => {
        await withPostgres(schema, async () => {});
        await fillSettlements(schema);
        const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
        try {
          for (const after of [null, { settledAt: T0 + 5_000_000, entryId: 't1:25001:1:won' }]) {
            const compiled = outrightPageQuery(db, { tournamentIds: null, after, limit: 101, offset: 0 }).compile();
            const plan = await planOf(schema, compiled);
            assert.match(plan, /Index Scan Backward using outright_settlements_by_time/, plan);
            assert.doesNotMatch(plan, /Sort/, plan);
            if (after !== null) assert.match(plan, /Index Cond: .*ROW\(settled_at, entry_id\) < ROW/, plan);
          }
        } finally {
          await db.destroy();
        }
      }));
  });
});
