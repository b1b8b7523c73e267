// Transactions that fail with the error that failed them, not with the rollback's.
import type { IsolationLevel, Kysely, Transaction } from 'kysely';
import type { StoreDatabase } from './schema.js';

/**
 * Runs `fn` in a transaction and rethrows the error that failed it. Kysely's own
 * `transaction().execute()` rolls back after a failure and, when that ROLLBACK fails too, throws
 * the rollback's error: SQLite rolls a transaction back by itself after SQLITE_FULL or
 * SQLITE_IOERR, so the explicit ROLLBACK answers "cannot rollback - no transaction is active" and
 * the real cause (the full disk) was lost. A failed COMMIT is handled the same way.
 */
export async function inTransaction<T>(
  db: Kysely<StoreDatabase>,
  fn: (trx: Transaction<StoreDatabase>) => Promise<T>,
  isolationLevel?: IsolationLevel,
): Promise<T> {
  const begin = db.startTransaction();
  const trx = await (isolationLevel === undefined ? begin : begin.setIsolationLevel(isolationLevel)).execute();
  try {
    const result = await fn(trx);
    await trx.commit().execute();
    return result;
  } catch (error) {
    // Releases the connection even when it fails; its own error says nothing new.
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    throw error;
  }
}
