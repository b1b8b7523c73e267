// The settlement-page fixture in PostgreSQL: a throwaway schema migrated by the store, filled with the same million rows as the SQLite one.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresStore } from '../src/store/postgres-store.js';
import type { SettlementsTable } from '../src/store/schema.js';
import type { SettlementFixture } from './settlement-page-data.js';
import { settlementRows } from './settlement-page-data.js';

/** Rows per INSERT: one array parameter per column, so the statement size is not bound by the 65535 parameters. */
const ROWS_PER_INSERT = 5000;

export interface PostgresSettlementFixture extends SettlementFixture {
  /** The server's URL with the fixture's schema as search_path: DATABASE_URL for the service. */
  url: string;
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `no PostgreSQL answers at ${url} (${error instanceof Error ? error.message : String(error)}); set BENCH_DATABASE_URL`,
    );
  }
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

async function insertChunk(client: pg.Client, rows: readonly SettlementsTable[]): Promise<void> {
  const column = <K extends keyof SettlementsTable>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `insert into settlements (event_id, ended_at, updated_at, revision, resolved_count, total_count, pending_count, header, markets)
     select * from unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[], $5::int[], $6::int[], $7::int[], $8::text[], $9::text[])`,
    [
      column('event_id'),
      column('ended_at'),
      column('updated_at'),
      column('revision'),
      column('resolved_count'),
      column('total_count'),
      column('pending_count'),
      column('header'),
      column('markets'),
    ],
  );
}

/**
 * Creates schema `bench_<random>` on the server at `serverUrl`, lets the store migrate it, inserts
 * `entries` rows (those of the SQLite fixture) in one transaction and analyzes the table, as a
 * database that has been running a while would be.
 */
export async function buildPostgresSettlementFixture(
  serverUrl: string,
  entries: number,
  sampleCount: number,
  now = Date.now(),
): Promise<PostgresSettlementFixture> {
  const started = Date.now();
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`create schema ${schema}`));
  const drop = (): Promise<void> =>
    withClient(serverUrl, (c) => c.query(`drop schema if exists ${schema} cascade`)).then(() => undefined);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    const store = await openPostgresStore({ url: url.toString() });
    await store.close();
    const source = settlementRows(entries, sampleCount, now);
    const bytes = await withClient(url.toString(), async (client) => {
      await client.query('begin');
      let chunk: SettlementsTable[] = [];
      for (const row of source.rows) {
        chunk.push(row);
        if (chunk.length === ROWS_PER_INSERT) {
          await insertChunk(client, chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) await insertChunk(client, chunk);
      await client.query('commit');
      await client.query('vacuum analyze settlements');
      const size = await client.query<{ bytes: string }>(`select pg_total_relation_size('settlements') as bytes`);
      return Number(size.rows[0]?.bytes ?? 0);
    });
    source.shuffleSamples();
    return {
      entries,
      seconds: (Date.now() - started) / 1000,
      fileBytes: bytes,
      samples: source.samples,
      url: url.toString(),
      schema,
      drop,
    };
  } catch (error) {
    await drop().catch(() => undefined);
    throw error;
  }
}
