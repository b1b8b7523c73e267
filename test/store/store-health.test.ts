// Datastore faults: which errors are faults (503 datastore), how health follows reads and writes, and transactions that keep the real error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { ServiceError } from '../../src/domain/errors.js';
import type { StoreDatabase } from '../../src/store/schema.js';
import { logStoreHealth, StoreHealth, storeFaultCode, toStoreError } from '../../src/store/store-health.js';
import { inTransaction } from '../../src/store/transactions.js';

const coded = (code: string, message = code): Error => Object.assign(new Error(message), { code });

describe('datastore faults', () => {
  test('connection, disk and server faults are datastore faults; bugs and constraints are not', () => {
    const faults: Array<[unknown, string]> = [
      [coded('SQLITE_FULL'), 'SQLITE_FULL'],
      [coded('SQLITE_READONLY_DBMOVED'), 'SQLITE_READONLY_DBMOVED'],
      [coded('SQLITE_IOERR_WRITE'), 'SQLITE_IOERR_WRITE'],
      [coded('SQLITE_BUSY'), 'SQLITE_BUSY'],
      [coded('ECONNREFUSED'), 'ECONNREFUSED'],
      [coded('57P01', 'terminating connection due to administrator command'), '57P01'],
      [coded('55000', 'database "x" is not currently accepting connections'), '55000'],
      [coded('53100', 'could not extend file: No space left on device'), '53100'],
      [coded('25006', 'cannot execute INSERT in a read-only transaction'), '25006'],
      [new Error('Connection terminated unexpectedly'), 'connection'],
      [new Error('timeout exceeded when trying to connect'), 'connection'],
      [new AggregateError([coded('ECONNREFUSED')], ''), 'ECONNREFUSED'],
    ];
    for (const [err, code] of faults) {
      assert.equal(storeFaultCode(err), code);
      const mapped = toStoreError(err);
      assert.ok(mapped instanceof ServiceError);
      assert.equal(mapped.code, 'service_unavailable');
      assert.equal(mapped.component, 'datastore');
    }
    for (const err of [coded('SQLITE_CONSTRAINT_UNIQUE'), coded('23505'), coded('42P01'), new TypeError('x')]) {
      assert.equal(storeFaultCode(err), null);
      assert.equal(toStoreError(err), err);
    }
  });

  test('health: read_only while writes fail, disconnected while reads fail, connected again once each works; one log line a change', () => {
    const health = new StoreHealth(() => 0);
    const lines: string[] = [];
    logStoreHealth(health, {
      error: (_o, msg) => lines.push(`error ${msg}`),
      warn: (_o, msg) => lines.push(`warn ${msg}`),
    });
    health.record('write', 'writeBatch', coded('SQLITE_FULL'));
    health.record('write', 'writeBatch', coded('SQLITE_FULL'));
    health.record('read', 'ping', null);
    assert.equal(health.status, 'read_only', 'a read that works does not prove writes work');
    assert.equal(health.report().code, 'SQLITE_FULL');
    health.record('write', 'saveUsage', coded('SQLITE_CONSTRAINT'));
    assert.equal(health.status, 'read_only');
    health.record('write', 'writeBatch', null);
    assert.equal(health.status, 'connected');
    health.record('read', 'findApiKeyByHash', coded('ECONNREFUSED'));
    health.record('write', 'saveUsage', coded('ECONNREFUSED'));
    assert.equal(health.status, 'disconnected');
    health.record('read', 'ping', null);
    assert.equal(health.status, 'connected', 'a connection fault seen by a write ends with the first read that works');
    assert.equal(lines.length, 4, lines.join('\n'));
    assert.match(lines[0]!, /^error datastore writes fail.*SQLITE_FULL/);
    assert.match(lines[1]!, /^warn datastore reads and writes work again/);
  });

  test('a full disk with room for small writes: the write probe or a small write working does not clear a failing flush', () => {
    const health = new StoreHealth(() => 0);
    const lines: string[] = [];
    logStoreHealth(health, {
      error: (_o, msg) => lines.push(`error ${msg}`),
      warn: (_o, msg) => lines.push(`warn ${msg}`),
    });
    // Seen on a DATA_DIR that filled up: the WAL's free frames take a one-row write, a flush does not fit.
    for (let i = 0; i < 3; i++) {
      health.record('write', 'writeBatch', coded('SQLITE_FULL'));
      health.record('write', 'checkWrites', null);
      health.record('write', 'saveResult', null);
      assert.equal(health.status, 'read_only', 'the write-behind still cannot flush');
      assert.equal(health.report().code, 'SQLITE_FULL');
    }
    assert.equal(lines.length, 1, `one line, not one per probe: ${lines.join('\n')}`);
    health.record('write', 'writeBatch', null);
    assert.equal(health.status, 'connected', 'the flush that works ends it');
    // A write nobody retries by itself (a result refused to its producer) is ended by the probe.
    health.record('write', 'saveResult', coded('SQLITE_FULL'));
    assert.equal(health.status, 'read_only');
    health.record('write', 'checkWrites', null);
    assert.equal(health.status, 'connected');
    assert.equal(lines.length, 4, lines.join('\n'));
  });

  test('a transaction failed by a full disk rejects with SQLITE_FULL, not the rollback error that used to hide it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sds-full-'));
    const sqlite = new Database(join(dir, 'full.sqlite'));
    sqlite.pragma('journal_mode = WAL');
    const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
    try {
      await sql`create table t (v blob)`.execute(db);
      const pages = Number(sqlite.pragma('page_count', { simple: true }));
      // The file may not grow: any write past it fails with SQLITE_FULL, as on a full disk.
      sqlite.pragma(`max_page_count = ${pages}`);
      await assert.rejects(
        inTransaction(db, async (trx) => {
          await sql`insert into t values (zeroblob(1000000))`.execute(trx);
        }),
        (err: unknown) => {
          assert.equal((err as { code?: string }).code, 'SQLITE_FULL');
          return true;
        },
      );
      // The connection is usable afterwards (released, no transaction left open).
      await sql`select 1`.execute(db);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
