// The embedded store: one SQLite file in the data directory, through better-sqlite3 and Kysely.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyStore } from './kysely-store.js';
import { sqliteMigrationProvider } from './migrations.js';
import type { StoreDatabase } from './schema.js';
import type { Store } from './store.js';

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
}

// Waits this long for a lock held by another process (a `keys` CLI next to a running server)
// before failing with SQLITE_BUSY.
const BUSY_TIMEOUT_MS = 5000;

// Well under SQLite's 32766 bound parameters: bigger statements stop paying off and cost memory.
const MAX_PARAMETERS = 8000;

export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const filePath = join(options.dataDir, options.fileName ?? DEFAULT_SQLITE_FILE);
  const sqlite = new Database(filePath);
  try {
    sqlite.pragma('journal_mode = WAL');
    // WAL with synchronous = NORMAL survives a killed process but may lose the last commits on
    // power loss, because the WAL is only fsynced at checkpoints. A result is acknowledged as
    // kept forever once saveResult resolves, so every commit fsyncs the WAL: FULL.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  } catch (error) {
    sqlite.close();
    throw error;
  }

  const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  const store = createKyselyStore({
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

  return {
    ...store,
    kind: 'sqlite',
    filePath,
    readPragma: (name: SqlitePragmaName): unknown => {
      if (!sqlite.open) throw new Error('the store is closed');
      return sqlite.pragma(name, { simple: true });
    },
  };
}
