// The shared store on PostgreSQL (DATABASE_URL): a node-postgres pool under the same Kysely queries as SQLite.
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { redactDatabaseUrl } from './database-url.js';
import { createKyselyStore } from './kysely-store.js';
import { postgresMigrationProvider } from './postgres-migrations.js';
import type { StoreDatabase } from './schema.js';
import type { Store } from './store.js';

export { redactDatabaseUrl } from './database-url.js';

/** The PostgreSQL store: a Store plus where in the database it lives. */
export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  /** The schema the store's tables are in: the first existing schema of the connection's search_path. */
  readonly schema: string;
}

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; `?options=-c search_path=…` picks another schema than `public`. */
  url: string;
  /** Runs pending migrations before resolving (default true, as the embedded store does). */
  migrate?: boolean;
  /** Most connections the pool opens (default 10). */
  poolSize?: number;
  /** How long opening a connection may take before the store counts as unreachable (default 5000 ms). */
  connectTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

// Half of PostgreSQL's 65535 bound parameters per statement: a 100k-market flush is a few dozen
// statements, and no statement can reach the hard limit whatever the column count.
const MAX_PARAMETERS = 32_000;

const INT8_OID = 20;

// Times (epoch ms), market and selection ids and counts are 64-bit columns; node-postgres returns
// int8 as a string by default because it may exceed 2^53. Ours never do (feed.md bounds ids below
// 2^53, times are milliseconds), so they come back as numbers, as on SQLite.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connects once: rejects with a message naming the server when it does not answer, else the current schema. */
async function probe(pool: pg.Pool, url: string): Promise<string> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL at ${redactDatabaseUrl(url)} is unreachable: ${reason || 'connection failed'}`, {
      cause: error,
    });
  }
  try {
    const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema');
    const schema = rows[0]?.schema ?? null;
    if (schema === null) {
      const path = await client.query<{ search_path: string }>('show search_path');
      throw new Error(
        `PostgreSQL at ${redactDatabaseUrl(url)}: no schema of the search_path (${path.rows[0]?.search_path ?? '?'}) exists; create it first`,
      );
    }
    return schema;
  } finally {
    client.release();
  }
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    application_name: 'sports-data',
    types,
  });
  // An idle connection that the server drops (restart, failover) is an 'error' event on the pool;
  // unhandled it would crash the process. The pool discards that client and opens a new one when
  // needed; queries running at the time fail on their own and are retried by their callers.
  pool.on('error', () => undefined);
  // The pool listens for errors only on idle clients: a client in use whose connection the server
  // ends (pg_terminate_backend, a restart) emits 'error' with nobody listening, and that crashed
  // the process. Its running query fails on its own (the caller sees a datastore fault) and the
  // pool drops the dead client when it comes back.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });

  const closePool = async (): Promise<void> => {
    if (!pool.ended) await pool.end();
  };

  let schema: string;
  try {
    schema = await probe(pool, options.url);
  } catch (error) {
    await closePool();
    throw error;
  }

  const db = new Kysely<StoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  const store = createKyselyStore({
    kind: 'postgres',
    db,
    migrationProvider: postgresMigrationProvider,
    // Kysely's migrator looks for its tables in every schema unless told which one: another
    // installation (or test run) in the same database would make it skip creating its own.
    migrationTableSchema: schema,
    maxParameters: MAX_PARAMETERS,
    // Kysely ends the pool only if it ever used it.
    afterClose: closePool,
  });

  if (options.migrate ?? true) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  return { ...store, kind: 'postgres', schema };
}
