// The embedded store's writer thread, seen from the service: write-behind batches and usage counts go to it and resolve once committed.
import { Worker } from 'node:worker_threads';
import { ServiceError } from '../domain/errors.js';
import type { SqliteWriterData, SqliteWriterReply, SqliteWriterRequest } from './sqlite-connection.js';
import { isEmptyBatch, type UsageWrite, type WriteBatch } from './store.js';

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Why a thread: better-sqlite3 is synchronous, so a write-behind flush on the service's own
 * connection holds the event loop for its whole transaction — 20-40 ms every flush under a live
 * feed of 100,000 changes a tick, during which no request is answered. The thread has its own
 * connection to the same WAL file; SQLite lets one connection write while the other reads.
 * Usage counts (written every second by the quota counters) go through the thread too: on the
 * service's connection each one that met a flush in progress waited for it through busy_timeout,
 * a blocking sleep, so the loop stalled for the rest of the flush. The rare other writes (a
 * result, keys, outrights) still wait that way. A batch resolves once committed, so everything built on a flush's promise (the
 * result ordering, the stream watermark) keeps its meaning. If the thread dies, its pending
 * batches fail (the pipeline keeps and retries them) and the next batch starts a new thread.
 */
export class SqliteWriter {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  /** The promises of the batches out, so close can wait for them. */
  private readonly inFlight = new Set<Promise<void>>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly data: SqliteWriterData) {}

  write(batch: WriteBatch): Promise<void> {
    if (!this.closed && isEmptyBatch(batch)) return Promise.resolve();
    return this.send((id) => ({ type: 'batch', id, batch }));
  }

  saveUsage(write: UsageWrite): Promise<void> {
    return this.send((id) => ({ type: 'usage', id, write }));
  }

  private send(request: (id: number) => SqliteWriterRequest): Promise<void> {
    if (this.closed) {
      return Promise.reject(new ServiceError('service_unavailable', 'the store is closed', { component: 'datastore' }));
    }
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const written = new Promise<void>((resolve, reject) => {
      // Referenced only while a write is out: an idle thread must not keep the process alive, a
      // busy one must (a shutdown's last flush).
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage(request(id));
    });
    this.inFlight.add(written);
    const forget = (): void => void this.inFlight.delete(written);
    written.then(forget, forget);
    return written;
  }

  /** Waits for every batch sent so far, then stops the thread. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (worker === null) return;
    await Promise.allSettled([...this.inFlight]);
    const closedReply = new Promise<void>((resolve) => {
      const onMessage = (m: SqliteWriterReply): void => {
        if (m.type === 'closed') resolve();
      };
      worker.on('message', onMessage);
      worker.once('exit', () => resolve());
    });
    // Kept alive until the thread has closed its connection, or the process could end first.
    worker.ref();
    worker.postMessage({ type: 'close' } satisfies SqliteWriterRequest);
    await closedReply;
    await worker.terminate();
    this.worker = null;
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-writer-worker.js', import.meta.url), {
      workerData: this.data,
      // A batch is garbage once committed: a small young generation keeps the thread's memory
      // small (it cannot run out, only collect more often).
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    worker.on('message', (m: SqliteWriterReply) => {
      if (m.type === 'closed') return;
      const p = this.pending.get(m.id);
      if (p === undefined) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.type === 'done') p.resolve();
      else {
        // The thread's error with its SQLite code: a full disk must be told apart from a bug.
        const err = new Error(`the store's writer thread failed a batch: ${m.message}`) as Error & { code?: string };
        if (m.code !== null) err.code = m.code;
        p.reject(err);
      }
    });
    const fail = (reason: string): void => {
      if (this.worker === worker) this.worker = null;
      const err = new Error(`the store's writer thread stopped (${reason}); its pending batches were not written`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', (code) => fail(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}
