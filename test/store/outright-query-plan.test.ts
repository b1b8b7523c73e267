// The outright settlement feed's page query on SQLite: one range of the (settled_at, entry_id) index, no sort.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { outrightPageQuery } from '../../src/store/outright-queries.js';
import type { StoreDatabase } from '../../src/store/schema.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';

describe('outright settlement page query (SQLite plan)', () => {
  it('walks the (settled_at, entry_id) index, from the top and after a cursor, without sorting', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-plan-'));
    try {
      const store = await openSqliteStore({ dataDir });
      await store.close();
      const raw = new Database(join(dataDir, 'store.sqlite'));
      const db = new Kysely<StoreDatabase>({ dialect: new SqliteDialect({ database: raw }) });
      try {
        for (const after of [null, { settledAt: Date.parse('2026-03-01T12:00:00Z'), entryId: 't:1:2:won' }]) {
          const compiled = outrightPageQuery(db, { tournamentIds: null, after, limit: 101, offset: 0 }).compile();
          if (after !== null) assert.match(compiled.sql, /\("settled_at", "entry_id"\) < \(\?, \?\)/);
          const plan = raw
            .prepare(`EXPLAIN QUERY PLAN ${compiled.sql}`)
            .all(...(compiled.parameters as unknown[])) as Array<{ detail: string }>;
          const text = plan.map((p) => p.detail).join('\n');
          assert.match(text, /outright_settlements_by_time/, text);
          assert.doesNotMatch(text, /TEMP B-TREE/, text);
          if (after !== null) assert.match(text, /SEARCH/, text);
        }
      } finally {
        await db.destroy();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
