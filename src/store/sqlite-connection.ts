// What every connection to the embedded store's file is set up with, and the writer thread's messages.
import type Database from 'better-sqlite3';
import type { UsageWrite, WriteBatch } from './store.js';

// Waits this long for a lock held by another connection (the writer thread, or a `keys` CLI next
// to a running server) before failing with SQLITE_BUSY.
export const BUSY_TIMEOUT_MS = 5000;

export function configureSqliteConnection(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  // WAL with synchronous = NORMAL survives a killed process but may lose the last commits on
  // power loss, because the WAL is only fsynced at checkpoints. A result is acknowledged as
  // kept forever once saveResult resolves, so every commit fsyncs the WAL: FULL.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
}

/** The writer thread's start data. */
export interface SqliteWriterData {
  filePath: string;
  maxParameters: number;
}

export type SqliteWriterRequest =
  | { type: 'batch'; id: number; batch: WriteBatch }
  | { type: 'usage'; id: number; write: UsageWrite }
  | { type: 'close' };

export type SqliteWriterReply =
  | { type: 'done'; id: number }
  /** `code`: SQLite's result code (`SQLITE_FULL`…), so the service can tell a full disk from a bug. */
  | { type: 'failed'; id: number; message: string; code: string | null }
  | { type: 'closed' };
