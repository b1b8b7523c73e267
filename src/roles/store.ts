// The store this node's configuration names, on its own: the CLI's key commands open it without loading the rest of a node.
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';

/**
 * The configured engine's opener, its modules imported now: PostgreSQL's with DATABASE_URL (the
 * driver is not loaded without it), else the embedded store's. The one place the engine is chosen.
 */
async function storeEngine(config: Config): Promise<() => Promise<Store>> {
  if (config.databaseUrl !== null) {
    const url = config.databaseUrl;
    const { openPostgresStore } = await import('../store/postgres-store.js');
    return () => openPostgresStore({ url, poolSize: config.databasePoolSize });
  }
  // Write-behind flushes commit on a thread of their own, off the loop that answers requests.
  const { openSqliteStore } = await import('../store/sqlite-store.js');
  return () => openSqliteStore({ dataDir: config.dataDir, writerThread: true });
}

/** The configured store, migrated: PostgreSQL with DATABASE_URL (rejects when it does not answer), else the embedded file. */
export async function openStore(config: Config): Promise<Store> {
  return (await storeEngine(config))();
}

/** Imports the configured engine's modules without opening anything (what `import-serve` measures). */
export async function importStoreEngine(config: Config): Promise<void> {
  await storeEngine(config);
}
