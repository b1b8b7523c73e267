// Fault: the embedded store's disk is full (a small tmpfs, filled up, then freed): reads keep serving, health says datastore read_only, no result is lost.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ServiceError } from '../../src/domain/errors.js';
import { toStoreError } from '../../src/store/store-health.js';
import type { Store } from '../../src/store/store.js';
import { hashApiKey } from '../../src/api/keys.js';
import { DEMO_KEY, startService, type TestService } from '../helpers/service.js';
import {
  checkResultsKept,
  driveReads,
  feedLines,
  health,
  liveGame,
  oddsUpdate,
  resultOf,
  StatusCounts,
  untilHealthy,
} from './store-fault-kit.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'sds-fault-disk-'));

/**
 * Mounts a 24 MB tmpfs (the test machine runs as root). Where that is not allowed, the store's
 * writes are made to fail with SQLITE_FULL by hand instead (an injected failing store), and the
 * figures say so.
 */
function mountTmpfs(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

// FAULT_INJECT_DISK_FULL=1 takes the injected path even where mounting works (to test it).
const mounted = process.env.FAULT_INJECT_DISK_FULL !== '1' && mountTmpfs();
const dataDir = join(mountPoint, 'data');
const filler = join(mountPoint, 'filler');

/** Writes zeros until the file system refuses (ENOSPC); how many bytes went in. */
function fillDisk(): number {
  const fd = openSync(filler, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    // 24 MB at most: bounded by the mount's size.
    for (let i = 0; i < 1024; i++) written += writeSync(fd, chunk);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  return written;
}

const WRITES = ['writeBatch', 'saveResult', 'saveUsage', 'saveSettlement', 'checkWrites'] as const;

/** Without a tmpfs: every write of the store fails as on a full disk until `free()`. */
function injectFullDisk(store: Store): () => void {
  const real = new Map(WRITES.map((name) => [name, store[name]]));
  const mutable = store as unknown as Record<string, unknown>;
  for (const name of WRITES) {
    mutable[name] = () => {
      const err = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      store.health.record('write', name, err);
      return Promise.reject(toStoreError(err));
    };
  }
  return () => {
    for (const [name, fn] of real) mutable[name] = fn;
  };
}

describe('fault: the embedded store cannot write (disk full)', () => {
  let svc: TestService;

  before(async () => {
    mkdirSync(dataDir, { recursive: true });
    svc = await startService({ dataDir });
  });

  after(async () => {
    await svc?.close().catch(() => undefined);
    rmSync(filler, { force: true });
    if (mounted) execFileSync('umount', [mountPoint], { stdio: 'pipe' });
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('reads keep serving, health answers 503 datastore read_only with SQLITE_FULL, results are refused then kept', async () => {
    const before = ['d1', 'd2'];
    const during = ['d3', 'd4'];
    const all = [...before, ...during];
    const setup = await feedLines(svc, [...all.flatMap(liveGame), ...before.map((id) => resultOf(id))]);
    assert.deepEqual(setup.refused, []);
    await svc.service.pipeline.flush();
    assert.equal((await health(svc)).status, 200);

    // The fault: the WAL is emptied into the database first, so the next write must grow a file.
    let free: () => void;
    if (mounted) {
      const sqlite = new Database(join(dataDir, 'store.sqlite'));
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.close();
      assert.ok(fillDisk() > 0);
      free = () => rmSync(filler);
    } else free = injectFullDisk(svc.service.store);

    // Live odds keep coming: the write-behind flush fails and keeps them.
    await feedLines(
      svc,
      during.map((id, i) => oddsUpdate(id, i)),
    );
    await svc.service.pipeline.flush();
    await svc.service.pipeline.flush();
    assert.ok(svc.service.pipeline.counters.flushFailures >= 1, 'the flush failed');
    assert.ok(svc.service.pipeline.backlog > 0, 'the unwritten odds are kept');

    const counts = new StatusCounts();
    const h = await health(svc);
    counts.add(h.status);
    assert.equal(h.status, 503, JSON.stringify(h.body));
    assert.equal(h.body.component, 'datastore');
    assert.equal(h.body.services.datastore.status, 'read_only');
    // The real error, not the ROLLBACK's "no transaction is active" that hid it.
    assert.equal(svc.service.store.health.report().code, 'SQLITE_FULL');

    // A result fed now cannot be committed: refused as retryable (service_unavailable), not lost.
    const refused = await feedLines(
      svc,
      during.map((id) => resultOf(id)),
    );
    assert.deepEqual(refused.refused, ['service_unavailable', 'service_unavailable']);
    await assert.rejects(
      svc.service.store.saveUsage({
        days: [{ keyId: `demo-${hashApiKey(DEMO_KEY).slice(0, 12)}`, date: '2026-03-01', requests: 7, errors: 0 }],
        lastUsed: [],
      }),
      (err) => {
        assert.ok(err instanceof ServiceError);
        assert.equal(err.component, 'datastore');
        assert.match(err.message, /SQLITE_FULL/);
        return true;
      },
    );

    await driveReads(svc, all, 40, counts);
    // The settlement feed reads the store: reads work on a full disk.
    const feed = await svc.get(`/v1/settlements?event_ids=${before.join(',')}`);
    counts.add(feed.status);
    assert.equal(feed.status, 200);
    assert.equal(counts.get(500), 0, `answers: ${counts.explain()}`);
    assert.equal(counts.get(200), counts.total - 1, `answers: ${counts.explain()}`);

    // Space comes back: the next health check writes, and health recovers by itself.
    free();
    const recoverMs = await untilHealthy(svc, 10_000);
    // The producer sends the refused results again.
    const resent = await feedLines(
      svc,
      during.map((id) => resultOf(id)),
    );
    assert.deepEqual(resent.refused, []);
    await svc.service.pipeline.flush();
    assert.equal(svc.service.pipeline.backlog, 0, 'the kept odds are written');
    let checked = await checkResultsKept(svc, all);

    // And after a restart on the same file.
    await svc.close({ keepDir: true });
    svc = await startService({ dataDir });
    checked += await checkResultsKept(svc, all);
    const after = await health(svc);
    assert.equal(after.status, 200);

    console.log(
      `FAULT-FIGURES sqlite-unwritable (${mounted ? 'a full 24 MB tmpfs' : 'no tmpfs allowed: an injected failing store'}): during the fault ${counts.toString()} (reads 200, health 503 datastore read_only SQLITE_FULL), ` +
        `${refused.refused.length} results refused service_unavailable then resent; health 200 again ${recoverMs} ms after space was freed; ` +
        `${checked} result checks after recovery and after a restart (${all.length} results, all settled)`,
    );
  });

  it('a disk with room for one row but not for a flush: health stays 503 read_only while flushes fail', async () => {
    // Seen with DATA_DIR on a small volume that the store filled itself: the WAL's free frames took
    // health's one-row write probe, so health said healthy between failing flushes.
    const ids = ['s1', 's2'];
    await feedLines(svc, ids.flatMap(liveGame));
    await svc.service.pipeline.flush();
    const store = svc.service.store;
    const realWriteBatch = store.writeBatch;
    const mutable = store as unknown as Record<string, unknown>;
    mutable.writeBatch = () => {
      const err = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      store.health.record('write', 'writeBatch', err);
      return Promise.reject(toStoreError(err));
    };
    try {
      for (let i = 0; i < 3; i++) {
        await feedLines(svc, [oddsUpdate(ids[i % 2]!, 100 + i)]);
        await svc.service.pipeline.flush();
        const h = await health(svc);
        assert.equal(h.status, 503, `check ${i}: ${JSON.stringify(h.body)}`);
        assert.equal(h.body.services.datastore.status, 'read_only');
      }
      assert.ok(svc.service.pipeline.backlog > 0, 'the unwritten odds are kept');
    } finally {
      mutable.writeBatch = realWriteBatch;
    }
    await svc.service.pipeline.flush();
    assert.equal(svc.service.pipeline.backlog, 0, 'the kept odds are written');
    assert.equal((await health(svc)).status, 200);
  });
});
