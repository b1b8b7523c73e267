// Worker thread of the embedded store: commits write-behind batches and usage counts on its own SQLite connection, away from the request loop.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { saveUsage } from './account-queries.js';
import { applyBatch } from './kysely-store.js';
import { inTransaction } from './transactions.js';
import type { StoreDatabase } from './schema.js';
import type { WriteBatch } from './store.js';
import {
  configureSqliteConnection,
  type SqliteWriterRequest,
  type SqliteWriterReply,
  type SqliteWriterData,
} from './sqlite-connection.js';

const port = parentPort;
if (port === null) throw new Error('sqlite-writer-worker runs as a worker thread');
const { filePath, maxParameters } = workerData as SqliteWriterData;

const sqlite = new Database(filePath);
configureSqliteConnection(sqlite);
const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });

/** Blobs arrive as Uint8Array (a Buffer loses its class on the way); better-sqlite3 binds Buffers. */
function revive(batch: WriteBatch): WriteBatch {
  if (batch.oddsLog === undefined) return batch;
  return {
    ...batch,
    oddsLog: batch.oddsLog.map((r) => ({
      eventId: r.eventId,
      data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
    })),
  };
}

function codeOf(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
}

// Requests are applied one after another in arrival order: Kysely's SQLite driver holds one
// connection and queues transactions on it.
port.on('message', (req: SqliteWriterRequest) => {
  if (req.type === 'close') {
    void db.destroy().then(() => port.postMessage({ type: 'closed' } satisfies SqliteWriterReply));
    return;
  }
  const written =
    req.type === 'batch'
      ? inTransaction(db, (trx) => applyBatch(trx, revive(req.batch), maxParameters))
      : saveUsage(db, req.write, maxParameters);
  written.then(
    () => port.postMessage({ type: 'done', id: req.id } satisfies SqliteWriterReply),
    (err: unknown) =>
      port.postMessage({
        type: 'failed',
        id: req.id,
        message: err instanceof Error ? err.message : String(err),
        code: codeOf(err),
      } satisfies SqliteWriterReply),
  );
});
