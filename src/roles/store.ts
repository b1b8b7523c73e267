// The store this node's configuration names, on its own: the CLI's key commands open it without loading the rest of a node.
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';

/**
 * The configured store, migrated: PostgreSQL with DATABASE_URL (rejects when it does not answer), else the embedded file.
 * Each engine's modules load only when it is the one configured (the PostgreSQL driver is not loaded without DATABASE_URL).
 */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl !== null) {
    const { openPostgresStore } = await import('../store/postgres-store.js');
    return openPostgresStore({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  }
  // Write-behind flushes commit on a thread of their own, off the loop that answers requests.
  const { openSqliteStore } = await import('../store/sqlite-store.js');
  return openSqliteStore({ dataDir: config.dataDir, writerThread: true });
}
