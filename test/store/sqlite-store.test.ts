// The SQLite store: the shared contract, plus durability and file handling only an embedded file has.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { runStoreContract } from './contract.js';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations.js';
import type { WriteBatch } from '../../src/store/store.js';
import { T0, batch, contentsOf, eventWithMarkets, sampleEvent, sampleMarket, sampleResult } from './fixtures.js';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'store-test-'));
}

runStoreContract('sqlite', async () => {
  const dataDir = await tempDir();
  return {
    store: await openSqliteStore({ dataDir }),
    reopen: () => openSqliteStore({ dataDir }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
});

// The same contract with write-behind batches committed on the writer thread (as the service runs it).
runStoreContract('sqlite (writer thread)', async () => {
  const dataDir = await tempDir();
  return {
    store: await openSqliteStore({ dataDir, writerThread: true }),
    reopen: () => openSqliteStore({ dataDir, writerThread: true }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
});

async function withDir(body: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await tempDir();
  try {
    await body(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function withSqlite(dataDir: string, body: (store: SqliteStore) => Promise<void>): Promise<void> {
  const store = await openSqliteStore({ dataDir });
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

describe('SQLite store', () => {
  it('creates a missing data directory and the default file inside it', () =>
    withDir(async (root) => {
      const dataDir = join(root, 'nested', 'data');
      await withSqlite(dataDir, async (store) => {
        assert.equal(store.filePath, join(dataDir, 'store.sqlite'));
        assert.ok(statSync(store.filePath).isFile());
      });
    }));

  it('honours a chosen file name', () =>
    withDir(async (dataDir) => {
      const store = await openSqliteStore({ dataDir, fileName: 'other.db' });
      await store.close();
      assert.ok(existsSync(join(dataDir, 'other.db')));
      assert.ok(!existsSync(join(dataDir, 'store.sqlite')));
    }));

  it('runs in WAL mode with full fsync on commit, foreign keys and a busy timeout', () =>
    withDir(async (dataDir) => {
      await withSqlite(dataDir, async (store) => {
        assert.equal(store.readPragma('journal_mode'), 'wal');
        assert.equal(store.readPragma('synchronous'), 2, 'synchronous = FULL');
        assert.equal(store.readPragma('foreign_keys'), 1);
        assert.equal(store.readPragma('busy_timeout'), 5000);
      });
      // WAL is a property of the file: another connection sees it too.
      const other = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
      try {
        assert.equal(other.pragma('journal_mode', { simple: true }), 'wal');
      } finally {
        other.close();
      }
    }));

  it('records each migration once, however often the store is opened', () =>
    withDir(async (dataDir) => {
      for (let i = 0; i < 3; i++) await withSqlite(dataDir, (store) => store.migrate());
      const raw = new Database(join(dataDir, 'store.sqlite'), { readonly: true });
      try {
        const names = raw.prepare('select name from kysely_migration order by name').pluck().all();
        assert.deepEqual(names, Object.keys(SQLITE_MIGRATIONS).sort());
        assert.ok(names.length >= 2);
      } finally {
        raw.close();
      }
    }));

  it('refuses a database migrated by a newer version it does not know', () =>
    withDir(async (dataDir) => {
      await withSqlite(dataDir, async () => {});
      const raw = new Database(join(dataDir, 'store.sqlite'));
      raw
        .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
        .run('9999_future', new Date(T0).toISOString());
      raw.close();
      await assert.rejects(openSqliteStore({ dataDir }), /9999_future/);
    }));

  it('a result acknowledged by a process killed with SIGKILL right after is there on reopen', () =>
    withDir(async (dataDir) => {
      const moduleUrl = new URL('../../src/store/sqlite-store.js', import.meta.url).href;
      const ended = sampleEvent('k1', { status: 'ended', endedAt: T0 + 7_000_000 });
      const result = sampleResult('k1');
      const writes = eventWithMarkets(ended, [1, 2]);
      // The child never closes the store: the commit lives only in the WAL when it dies.
      const script = `
        import { openSqliteStore } from ${JSON.stringify(moduleUrl)};
        const store = await openSqliteStore({ dataDir: ${JSON.stringify(dataDir)} });
        await store.saveResult(${JSON.stringify(result)}, ${JSON.stringify(writes)});
        process.stdout.write('saved\\n');
        setInterval(() => {}, 1000);
      `;
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('exit', (_code, signal) => resolve(signal)),
      );
      await new Promise<void>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('saved')) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.on('exit', () => reject(new Error(`child exited before saving: ${stderr}`)));
      });
      assert.equal(await exited, 'SIGKILL');
      assert.ok(statSync(join(dataDir, 'store.sqlite-wal')).size > 0, 'the commit was still in the WAL');

      await withSqlite(dataDir, async (store) => {
        assert.deepEqual(await store.getResult('k1'), result);
        assert.deepEqual(contentsOf(await store.loadEvents()), [
          { event: ended, markets: [sampleMarket(1), sampleMarket(2)] },
        ]);
      });
    }));

  it('writes 100,000 market upserts in one batch, then replaces them all, within seconds', () =>
    withDir(async (dataDir) => {
      await withSqlite(dataDir, async (store) => {
        const events = Array.from({ length: 100 }, (_, i) => sampleEvent(`e${i}`, { startTime: T0 + i }));
        const marketsOf = (odds: number) =>
          events.flatMap((event) =>
            Array.from({ length: 1000 }, (_, i) => ({
              eventId: event.id,
              position: i,
              market: sampleMarket(i + 1, odds),
            })),
          );
        const started = performance.now();
        await store.writeBatch({ events, markets: marketsOf(1.9), removedMarkets: [] });
        await store.writeBatch(batch({ markets: marketsOf(2.1) }));
        const elapsed = performance.now() - started;
        // Generous: two 100k-market flushes take about 2-3 s on a laptop; the bound only catches
        // a fall back to row-by-row round trips.
        assert.ok(elapsed < 30_000, `took ${Math.round(elapsed)} ms`);
        const loaded = await store.loadEvents();
        assert.equal(
          loaded.reduce((n, s) => n + s.markets.length, 0),
          100_000,
        );
        assert.deepEqual(loaded[42]?.markets[999], sampleMarket(1000, 2.1));
      });
    }));
});

describe('SQLite store with a writer thread', () => {
  /** Counts turns of this event loop until `work` settles. */
  async function loopTurnsDuring(work: Promise<unknown>): Promise<number> {
    let done = false;
    let turns = 0;
    const settled = work.finally(() => {
      done = true;
    });
    while (!done) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      turns++;
    }
    await settled;
    return turns;
  }

  const bigBatch = (): WriteBatch => {
    const events = Array.from({ length: 40 }, (_v, i) => sampleEvent(`ev-big-${i}`));
    const ids = Array.from({ length: 500 }, (_v, i) => i + 1);
    return batch({
      events,
      markets: events.flatMap((e) => eventWithMarkets(e, ids).markets),
    });
  };

  it('commits a batch while the caller’s event loop keeps turning, and the caller’s connection reads it', () =>
    withDir(async (dataDir) => {
      const inline = await openSqliteStore({ dataDir: join(dataDir, 'inline') });
      const threaded = await openSqliteStore({ dataDir: join(dataDir, 'threaded'), writerThread: true });
      try {
        // better-sqlite3 is synchronous: on the caller's connection the whole transaction (20,000
        // markets, tens of milliseconds) runs in a turn or two of the loop; on the thread the
        // loop keeps turning until the commit arrives.
        const inlineTurns = await loopTurnsDuring(inline.writeBatch(bigBatch()));
        const threadedTurns = await loopTurnsDuring(threaded.writeBatch(bigBatch()));
        assert.ok(inlineTurns <= 2, `the loop turned ${inlineTurns} times during an inline write`);
        assert.ok(threadedTurns >= 20, `the loop turned only ${threadedTurns} times during a threaded write`);
        assert.deepEqual(contentsOf(await threaded.loadEvents()), contentsOf(await inline.loadEvents()));
      } finally {
        await inline.close();
        await threaded.close();
      }
    }));

  it('keeps the order of batches and writes odds rows as bytes', () =>
    withDir(async (dataDir) => {
      const store = await openSqliteStore({ dataDir, writerThread: true });
      try {
        const e = sampleEvent('ev-order');
        const writes = [
          store.writeBatch(eventWithMarkets(e, [1, 2])),
          store.writeBatch(batch({ events: [{ ...e, updatedAt: e.updatedAt + 1 }] })),
          store.writeBatch(batch({ seq: 3, oddsLog: [{ eventId: e.id, data: Buffer.from([1, 2, 3, 250]) }] })),
          store.writeBatch(batch({ events: [{ ...e, updatedAt: e.updatedAt + 2 }] })),
        ];
        await Promise.all(writes);
        const [loaded] = await store.loadEvents();
        assert.equal(loaded?.event.updatedAt, e.updatedAt + 2);
        assert.deepEqual(
          loaded?.markets.map((m) => m.marketId),
          [1, 2],
        );
        assert.deepEqual(
          loaded?.oddsLog.map((r) => ({ seq: r.seq, data: [...r.data] })),
          [{ seq: 3, data: [1, 2, 3, 250] }],
        );
      } finally {
        await store.close();
      }
    }));

  it('rejects a batch the database refuses, writes none of it, and takes the next one', () =>
    withDir(async (dataDir) => {
      const store = await openSqliteStore({ dataDir, writerThread: true });
      try {
        const e = sampleEvent('ev-known');
        // An odds row of an event never stored breaks its foreign key: the whole batch rolls back.
        const refused = batch({
          events: [e],
          seq: 1,
          oddsLog: [{ eventId: 'ev-unknown', data: Buffer.from([1]) }],
        });
        await assert.rejects(store.writeBatch(refused), /writer thread failed a batch: .*FOREIGN KEY/i);
        assert.deepEqual(await store.loadEvents(), []);
        await store.writeBatch(eventWithMarkets(e, [7]));
        assert.deepEqual(contentsOf(await store.loadEvents()), [{ event: e, markets: [sampleMarket(7)] }]);
      } finally {
        await store.close();
      }
    }));

  it('finishes the batches already sent before close resolves', () =>
    withDir(async (dataDir) => {
      const store = await openSqliteStore({ dataDir, writerThread: true });
      const sent = store.writeBatch(bigBatch());
      await store.close();
      await sent;
      await assert.rejects(store.writeBatch(bigBatch()), /store is closed/);
      const again = await openSqliteStore({ dataDir });
      try {
        assert.equal((await again.loadEvents()).length, 40);
      } finally {
        await again.close();
      }
    }));
});

describe('SQLite store that cannot be opened', () => {
  it('names the file and the cause (a read-only DATA_DIR said only "unable to open database file")', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sds-cantopen-'));
    try {
      // A directory where the database file should be: SQLite cannot open it (as on a read-only volume).
      await mkdir(join(dir, 'store.sqlite'));
      await assert.rejects(openSqliteStore({ dataDir: dir }), (err: Error) => {
        assert.match(err.message, /embedded store/);
        assert.ok(err.message.includes(join(dir, 'store.sqlite')), err.message);
        assert.match(err.message, /unable to open database file/);
        assert.match(err.message, /SQLITE_CANTOPEN/);
        return true;
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
