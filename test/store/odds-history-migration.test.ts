// SQLite migration 0013: the odds history keyed by its sequence number as the rowid, the rows written before kept.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { SQLITE_MIGRATIONS } from '../../src/store/migrations.js';
import { openSqliteStore } from '../../src/store/sqlite-store.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');

describe('odds history keyed by seq (SQLite migration 0013)', () => {
  it('keeps every chunk of a store written before it, and leaves three B-trees for a row to go into', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'store-0013-'));
    try {
      // A store as the previous version left it: every migration up to 0012, and history rows.
      const file = join(dataDir, 'store.sqlite');
      const raw = new Database(file);
      const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
      const before = Object.fromEntries(Object.entries(SQLITE_MIGRATIONS).filter(([name]) => name < '0013'));
      const { error } = await new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(before) },
      }).migrateToLatest();
      assert.equal(error, undefined);
      const insert = raw.prepare(
        'insert into odds_history (event_id, from_at, to_at, seq, count, data) values (?, ?, ?, ?, ?, ?)',
      );
      const rows: Array<[string, number, number, number, number, Buffer]> = [];
      for (let flush = 1; flush <= 5; flush++) {
        for (let k = 0; k < 3; k++) {
          rows.push([
            `e${k}`,
            T0 + flush * 500,
            T0 + flush * 500 + 200,
            flush * 1_000_000 + k,
            10 + k,
            Buffer.from([1, flush, k]),
          ]);
        }
      }
      for (const r of rows) insert.run(...r);
      const old = raw.prepare('select * from odds_history order by seq').all();
      await db.destroy();

      // Opening the store runs 0013.
      const store = await openSqliteStore({ dataDir });
      await store.close();
      const after = new Database(file, { readonly: true });
      try {
        assert.deepEqual(
          after.prepare('select * from odds_history order by seq').all().map(sortKeys),
          old.map(sortKeys),
        );
        const keys = (
          after.prepare('pragma table_info(odds_history)').all() as Array<{ name: string; pk: number; type: string }>
        )
          .filter((c) => c.pk > 0)
          .map((c) => `${c.name} ${c.type}`);
        assert.deepEqual(keys, ['seq INTEGER'], 'seq is the rowid');
        const indexes = (after.prepare('pragma index_list(odds_history)').all() as Array<{ name: string }>)
          .map((i) => i.name)
          .sort();
        assert.deepEqual(indexes, ['odds_history_by_age', 'odds_history_by_time']);
        // A read by event and time walks the by-time index (not the whole table).
        const plan = (
          after
            .prepare(
              'explain query plan select * from odds_history where event_id = ? and to_at >= ? and from_at <= ? and seq > ? order by seq limit 10',
            )
            .all('e1', T0, T0 + 10_000, 0) as Array<{ detail: string }>
        )
          .map((p) => p.detail)
          .join('\n');
        assert.match(plan, /odds_history_by_time/, plan);
      } finally {
        after.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

function sortKeys(row: unknown): Record<string, unknown> {
  const r = row as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(r)
      .sort()
      .map((k) => [k, r[k]]),
  );
}
