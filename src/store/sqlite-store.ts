// The embedded store: one SQLite file in the data directory, through better-sqlite3 and Kysely.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyStore } from './kysely-store.js';
import { sqliteMigrationProvider } from './migrations.js';
import type { StoreDatabase } from './schema.js';
import { isEmptyBatch, isEmptyUsage, type Store, type UsageWrite, type WriteBatch } from './store.js';
import { configureSqliteConnection } from './sqlite-connection.js';
import { SqliteWriter } from './sqlite-writer.js';
import { StoreHealth, toStoreError } from './store-health.js';

export const DEFAULT_SQLITE_FILE = 'store.sqlite';

/** Pragmas that tests and diagnostics may read back from the open connection. */
export type SqlitePragmaName = 'journal_mode' | 'synchronous' | 'foreign_keys' | 'busy_timeout';

/** The SQLite store: a Store plus what only an embedded file has. */
export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  /** Absolute or dataDir-relative path of the database file. */
  readonly filePath: string;
  /** Reads a pragma's current value on the store's own connection. */
  readPragma(name: SqlitePragmaName): unknown;
}

export interface SqliteStoreOptions {
  dataDir: string;
  fileName?: string;
  /** Runs pending migrations before resolving (default true: the embedded store needs no setup step). */
  migrate?: boolean;
  /**
   * Commit write-behind batches (`writeBatch`) and usage counts (`saveUsage`) on a worker thread
   * with its own connection, so neither ever holds the caller's event loop (default false; the service turns it on, see
   * sqlite-writer.ts). Everything else stays on the caller's connection.
   */
  writerThread?: boolean;
  /** Follows reads and writes (default: a new one). */
  health?: StoreHealth;
}

// Well under SQLite's 32766 bound parameters: bigger statements stop paying off and cost memory.
const MAX_PARAMETERS = 8000;

/** SQLite's own words ("unable to open database file") do not say which file, nor why: a read-only or full volume. */
function cannotOpen(filePath: string, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const err = new Error(
    `the embedded store ${filePath} cannot be opened: ${message}${typeof code === 'string' ? ` (${code})` : ''}; ` +
      'check that DATA_DIR exists, is writable and has free space',
  );
  return Object.assign(err, { cause: error, ...(typeof code === 'string' ? { code } : {}) });
}

export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const filePath = join(options.dataDir, options.fileName ?? DEFAULT_SQLITE_FILE);
  let sqlite: Database.Database | null = null;
  try {
    sqlite = new Database(filePath);
    configureSqliteConnection(sqlite);
  } catch (error) {
    sqlite?.close();
    throw cannotOpen(filePath, error);
  }

  const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  const health = options.health ?? new StoreHealth();
  const store = createKyselyStore({
    health,
    kind: 'sqlite',
    db,
    migrationProvider: sqliteMigrationProvider,
    maxParameters: MAX_PARAMETERS,
    // Kysely only closes a database it has used; close it ourselves in case it never was.
    afterClose: () => {
      if (sqlite.open) sqlite.close();
    },
  });

  if (options.migrate ?? true) {
    try {
      await store.migrate();
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  const writer = options.writerThread === true ? new SqliteWriter({ filePath, maxParameters: MAX_PARAMETERS }) : null;
  // The thread's writes count for health like the store's own, and fail the same way.
  const tracked = (name: string, written: Promise<void>): Promise<void> =>
    written.then(
      () => health.record('write', name, null),
      (error: unknown) => {
        health.record('write', name, error);
        throw toStoreError(error);
      },
    );
  return {
    ...store,
    ...(writer === null
      ? {}
      : {
          // An empty write proves nothing about the disk: it is not counted.
          writeBatch: (batch: WriteBatch) =>
            isEmptyBatch(batch) ? writer.write(batch) : tracked('writeBatch', writer.write(batch)),
          saveUsage: (write: UsageWrite) =>
            isEmptyUsage(write) ? writer.saveUsage(write) : tracked('saveUsage', writer.saveUsage(write)),
          close: async () => {
            await writer.close();
            await store.close();
          },
        }),
    kind: 'sqlite',
    filePath,
    readPragma: (name: SqlitePragmaName): unknown => {
      if (!sqlite.open) throw new Error('the store is closed');
      return sqlite.pragma(name, { simple: true });
    },
  };
}
