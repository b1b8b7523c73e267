// Which store failures are faults of the datastore (503 `datastore`, retry later) and whether its reads and writes work now.
import { ServiceError } from '../domain/errors.js';

/**
 * What clients see in `/v1/health` `services.datastore.status`: `connected` (reads and writes
 * work), `read_only` (reads work, writes fail: a full disk, a read-only file or database),
 * `disconnected` (reads fail too: the database refuses or drops connections).
 */
export type DatastoreStatus = 'connected' | 'read_only' | 'disconnected';

/** SQLite result codes (better-sqlite3 `err.code`, extended codes start with these) that are faults of the storage. */
const SQLITE_FAULTS = [
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_IOERR',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_NOMEM',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
];

/** Errors of the socket or the file system under a store. */
const SYSTEM_FAULTS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOSPC',
  'EROFS',
  'EIO',
]);

/**
 * PostgreSQL SQLSTATEs that are faults of the server, not of the statement: connection exceptions
 * (08), insufficient resources (53: disk full, too many connections), operator intervention (57:
 * shutdown, cannot connect now, terminated), system errors (58), a read-only transaction (25006),
 * a database that does not accept connections (55000), and transient conflicts (40001, 40P01).
 */
function isPostgresFault(code: string): boolean {
  return /^(08|53|57|58)/.test(code) || code === '25006' || code === '55000' || code === '40001' || code === '40P01';
}

/** node-postgres and its pool report a lost or impossible connection without a code. */
const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /cannot use a pool after calling end/i,
  /the store's writer thread stopped/i,
];

function codeOf(err: unknown): string | null {
  if (typeof err !== 'object' || err === null) return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : null;
}

/**
 * The code that names a datastore fault (`SQLITE_FULL`, `ECONNREFUSED`, `57P01`, `connection`),
 * or null when the error is not one (a bug, a constraint: those stay 500 and are logged).
 */
export function storeFaultCode(err: unknown): string | null {
  if (err instanceof ServiceError) {
    return err.code === 'service_unavailable' && err.component === 'datastore' ? datastoreFaultOf(err) : null;
  }
  const code = codeOf(err);
  if (code !== null) {
    if (SQLITE_FAULTS.some((c) => code.startsWith(c))) return code;
    if (SYSTEM_FAULTS.has(code)) return code;
    if (/^[0-9A-Z]{5}$/.test(code) && isPostgresFault(code)) return code;
  }
  const message = err instanceof Error ? err.message : '';
  if (CONNECTION_MESSAGES.some((re) => re.test(message))) return 'connection';
  // AggregateError (a connect to several addresses that all refused) carries the real ones inside.
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const c = storeFaultCode(inner);
      if (c !== null) return c;
    }
  }
  const cause = err instanceof Error ? err.cause : undefined;
  return cause !== undefined && cause !== err ? storeFaultCode(cause) : null;
}

/** The fault code a datastore ServiceError was made from. */
function datastoreFaultOf(err: ServiceError): string {
  return (err as ServiceError & { faultCode?: string }).faultCode ?? 'unavailable';
}

/** The client's answer to a datastore fault: 503 `service_unavailable`, component `datastore`. */
export function datastoreUnavailable(code: string, cause?: unknown): ServiceError {
  const err = new ServiceError('service_unavailable', `the datastore is unavailable (${code}); retry later`, {
    component: 'datastore',
  });
  Object.defineProperty(err, 'faultCode', { value: code, enumerable: false });
  if (cause !== undefined) Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}

/** A datastore fault as the client's 503; anything else unchanged. */
export function toStoreError(err: unknown): unknown {
  if (err instanceof ServiceError) return err;
  const code = storeFaultCode(err);
  return code === null ? err : datastoreUnavailable(code, err);
}

/** Faults that say nothing about writes in particular: a read that works afterwards clears them. */
function isConnectionFault(code: string): boolean {
  return (
    code === 'connection' ||
    code === 'unavailable' ||
    /^E[A-Z]+$/.test(code) ||
    /^(08|57)/.test(code) ||
    code === '55000' ||
    code === '53300'
  );
}

export interface StoreHealthChange {
  status: DatastoreStatus;
  previous: DatastoreStatus;
  /** The fault that caused a failing status (e.g. `SQLITE_FULL`). */
  code: string | null;
  /** The store operation that saw it (`writeBatch`, `findApiKeyByHash`…). */
  operation: string | null;
  /** The error itself (for the log). */
  err: unknown;
}

export interface StoreHealthReport {
  status: DatastoreStatus;
  /** The fault behind a failing status. */
  code: string | null;
  /** When the current status began (epoch ms). */
  since: number;
}

/**
 * Writes the service retries by itself until they work (the write-behind's flush, usage counts).
 * They are the largest: a disk with a few free pages (a WAL's frames) takes the health probe's
 * one row and a result while a flush still fails, so only their own success ends their fault.
 */
const SELF_RETRIED_WRITES: ReadonlySet<string> = new Set(['writeBatch', 'saveUsage']);

/**
 * Follows the outcome of every store operation: the last read that failed for a datastore fault
 * until a read succeeds, and each write operation that failed until a write proves it works again
 * (any write for one-off writes, the operation itself for SELF_RETRIED_WRITES). A `ping` only
 * reads, so it cannot prove writes work; health asks the store to try a write while writes are
 * failing. Listeners hear of each change of status once (not of every failed flush).
 */
export class StoreHealth {
  private readFault: { code: string; err: unknown } | null = null;
  /** Failing writes by operation, the most recent last. */
  private readonly writeFaults = new Map<string, { code: string; err: unknown }>();
  private since: number;
  private current: DatastoreStatus = 'connected';
  private readonly listeners: Array<(change: StoreHealthChange) => void> = [];

  constructor(private readonly now: () => number = Date.now) {
    this.since = now();
  }

  /** Hears of each change of status. */
  onChange(listener: (change: StoreHealthChange) => void): void {
    this.listeners.push(listener);
  }

  report(): StoreHealthReport {
    return { status: this.current, code: (this.readFault ?? this.writeFault)?.code ?? null, since: this.since };
  }

  /** The most recent write fault still standing. */
  private get writeFault(): { code: string; err: unknown } | null {
    let last: { code: string; err: unknown } | null = null;
    for (const fault of this.writeFaults.values()) last = fault;
    return last;
  }

  get status(): DatastoreStatus {
    return this.current;
  }

  /** Whether writes are known to be failing (health then tries one). */
  get writesFailing(): boolean {
    return this.writeFaults.size > 0;
  }

  /** Records an operation's outcome; errors that are not datastore faults change nothing. */
  record(kind: 'read' | 'write', operation: string, err: unknown = null): void {
    if (err === null) {
      if (kind === 'write') {
        for (const op of [...this.writeFaults.keys()]) {
          if (op === operation || !SELF_RETRIED_WRITES.has(op)) this.writeFaults.delete(op);
        }
      } else {
        this.readFault = null;
        // A read that works proves the connection; a connection fault seen by a write is over too.
        for (const [op, fault] of [...this.writeFaults]) {
          if (isConnectionFault(fault.code)) this.writeFaults.delete(op);
        }
      }
      this.update(operation, null);
      return;
    }
    const code = storeFaultCode(err);
    if (code === null) return;
    if (kind === 'write') {
      this.writeFaults.delete(operation);
      this.writeFaults.set(operation, { code, err });
    } else this.readFault = { code, err };
    this.update(operation, { code, err });
  }

  private update(operation: string, fault: { code: string; err: unknown } | null): void {
    const next: DatastoreStatus =
      this.readFault !== null ? 'disconnected' : this.writeFaults.size > 0 ? 'read_only' : 'connected';
    if (next === this.current) return;
    const previous = this.current;
    this.current = next;
    this.since = this.now();
    const cause = fault ?? this.readFault ?? this.writeFault;
    const change: StoreHealthChange = {
      status: next,
      previous,
      code: cause?.code ?? null,
      operation,
      err: cause?.err ?? null,
    };
    for (const listener of this.listeners) listener(change);
  }
}

export interface StoreHealthLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Logs each change of the datastore's status once, with the fault that caused it (e.g. SQLITE_FULL). */
export function logStoreHealth(health: StoreHealth, log: StoreHealthLog): void {
  let downSince = 0;
  health.onChange((c) => {
    if (c.status === 'connected') {
      log.warn(
        { datastore: c.status, previous: c.previous, seconds: Math.round((Date.now() - downSince) / 1000) },
        'datastore reads and writes work again',
      );
      return;
    }
    if (c.previous === 'connected') downSince = Date.now();
    const what = c.status === 'read_only' ? 'writes fail (reads work)' : 'unreachable';
    log.error(
      { datastore: c.status, code: c.code, operation: c.operation, err: c.err },
      `datastore ${what}: ${c.code ?? 'unknown fault'}; health answers 503 until it recovers`,
    );
  });
}
