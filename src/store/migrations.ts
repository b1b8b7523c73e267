// Versioned schema migrations of the store, provided in code to Kysely's Migrator: one list for SQLite and PostgreSQL.
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

// Column types are the portable subset (text, integer, bigint, real, blob; JSON as text): PostgreSQL
// runs these very migrations with the types mapped by postgres-migrations.ts (text COLLATE "C",
// bytea, double precision), so the same Kysely queries run on both. Write new ones the same way.
// Times are epoch milliseconds and market ids go up to 2^53 (feed.md): both need 64-bit `bigint`.
// Migrations receive an untyped Kysely because they describe the schema at their own point in
// history, not today's StoreDatabase.

const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('league_slug', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('ended_at', 'bigint')
      .addColumn('doc', 'text', (c) => c.notNull())
      .execute();

    // A market belongs to a stored event: a market for an unknown event is a bug upstream and
    // fails the whole batch rather than leaving an orphan no restart could attach anywhere.
    await db.schema
      .createTable('markets')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('market_id', 'bigint', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('doc', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('markets_pk', ['event_id', 'market_id'])
      .execute();
    // No separate index on event_id: it leads the primary key, whose index already serves every
    // lookup by event, and a second index would slow the 10k-market flushes for nothing.

    // No foreign key to events: results outlive the events they settle.
    await db.schema
      .createTable('results')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('home', 'integer', (c) => c.notNull())
      .addColumn('away', 'integer', (c) => c.notNull())
      .addColumn('period_scores', 'text', (c) => c.notNull())
      .addColumn('winner', 'text')
      .addColumn('ended_at', 'bigint', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('recorded_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
  },
};

// Settlement entries: one row per settled event, its resolved markets as the JSON array clients
// receive (pages are assembled from stored text, never re-serialized). Ordered two ways: by end
// (the feed, newest first) and by last change (`updated_since`, oldest first).
const settlements: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('settlements')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('ended_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('resolved_count', 'integer', (c) => c.notNull())
      .addColumn('total_count', 'integer', (c) => c.notNull())
      .addColumn('pending_count', 'integer', (c) => c.notNull())
      .addColumn('header', 'text', (c) => c.notNull())
      .addColumn('markets', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('settlements_by_end').on('settlements').columns(['ended_at', 'event_id']).execute();
    await db.schema
      .createIndex('settlements_by_update')
      .on('settlements')
      .columns(['updated_at', 'event_id'])
      .execute();
  },
};

// Live odds are written as compact deltas, not market documents: a flush appends, per event, one
// row of the selections that changed (17 bytes each), and now and then one full row that lets the
// older ones go. `seq` orders flushes; a market document records the flush that wrote it, so a
// restart applies only the odds written after it.
const oddsLog: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('markets')
      .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('odds_log')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('data', 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('odds_log_pk', ['event_id', 'seq'])
      .execute();
  },
};

// Outrights (futures), written through: tournaments, their markets (selections with last odds as
// JSON, the result once settled) and the outright settlement feed, one row per selection of a
// settled market. The feed pages newest first on (settled_at, entry_id); a correction replaces a
// market's rows, found by (tournament_id, market_id), which also serves the tournament filter.
const outrights: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('outright_tournaments')
      .addColumn('tournament_id', 'text', (c) => c.primaryKey())
      .addColumn('tournament', 'text', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .addColumn('sport_id', 'integer', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('outright_markets')
      .addColumn('tournament_id', 'text', (c) =>
        c.notNull().references('outright_tournaments.tournament_id').onDelete('cascade'),
      )
      .addColumn('market_id', 'bigint', (c) => c.notNull())
      .addColumn('market', 'text', (c) => c.notNull())
      .addColumn('selections', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('result', 'text')
      .addPrimaryKeyConstraint('outright_markets_pk', ['tournament_id', 'market_id'])
      .execute();
    // No foreign key: like results, settlement entries are facts that stand on their own.
    await db.schema
      .createTable('outright_settlements')
      .addColumn('entry_id', 'text', (c) => c.primaryKey())
      .addColumn('tournament_id', 'text', (c) => c.notNull())
      .addColumn('tournament', 'text', (c) => c.notNull())
      .addColumn('market_id', 'bigint', (c) => c.notNull())
      .addColumn('market', 'text', (c) => c.notNull())
      .addColumn('selection_id', 'bigint', (c) => c.notNull())
      .addColumn('selection', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('dead_heat_factor', 'real')
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      .addColumn('sport', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('outright_settlements_by_time')
      .on('outright_settlements')
      .columns(['settled_at', 'entry_id'])
      .execute();
    await db.schema
      .createIndex('outright_settlements_by_market')
      .on('outright_settlements')
      .columns(['tournament_id', 'market_id'])
      .execute();
  },
};

// Portal accounts, key ownership and usage counts. A key made by the CLI has no account. Usage is
// one row per key per UTC day, written in batches by the API's counters with absolute values (so a
// retried write is harmless); no foreign key, like results: counts are facts about the past.
const accountsUsage: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable('api_keys')
      .addColumn('account_id', 'text', (c) => c.references('accounts.id'))
      .execute();
    await db.schema.createIndex('api_keys_by_account').on('api_keys').column('account_id').execute();
    await db.schema
      .createTable('api_usage')
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('requests', 'integer', (c) => c.notNull())
      .addColumn('errors', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_usage_pk', ['key_id', 'day'])
      .execute();
    // Start-up loads the current month of every key: by day first.
    await db.schema.createIndex('api_usage_by_day').on('api_usage').columns(['day', 'key_id']).execute();
  },
};

// Portal sign-ins: one row per session, found by the hash of the cookie's token (a stolen copy of
// the table signs no one in). Expired rows are swept by `expires_at`.
const portalSessions: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('portal_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('portal_sessions_by_expiry').on('portal_sessions').column('expires_at').execute();
  },
};

// One row that health rewrites while writes are failing: a read (ping) cannot tell whether the
// disk takes writes again, and an idle node has no other write that would.
const writeProbe: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('write_probe')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
  },
};

// Odds history (decisions.md, "History and closing prices"): chunks of changes per event, read by
// event and time. No foreign key: the history outlives the event's rows (retention is its own).
const oddsHistory: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('odds_history')
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('from_at', 'bigint', (c) => c.notNull())
      .addColumn('to_at', 'bigint', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('data', 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('odds_history_pk', ['event_id', 'seq'])
      .execute();
    await db.schema.createIndex('odds_history_by_time').on('odds_history').columns(['event_id', 'to_at']).execute();
    await db.schema.createIndex('odds_history_by_age').on('odds_history').column('to_at').execute();
    // Opening and closing prices per event: the odds rows carry current prices only.
    await db.schema
      .createTable('odds_marks')
      .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('data', 'blob', (c) => c.notNull())
      .execute();
  },
};

// The change log's replay window (decisions.md, "Real-time delivery": it survives a restart): one
// binary segment per flush, found by where it ends; and the counters that tell a restart whether
// the stored window accounts for every fact committed (log-window.ts).
const logWindow: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('log_segments')
      .addColumn('to_ms', 'bigint', (c) => c.notNull())
      .addColumn('to_seq', 'bigint', (c) => c.notNull())
      .addColumn('from_ms', 'bigint', (c) => c.notNull())
      .addColumn('from_seq', 'bigint', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('data', 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('log_segments_pk', ['to_ms', 'to_seq'])
      .execute();
    await db.schema
      .createTable('log_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await db
      .insertInto('log_state' as never)
      .values({ name: 'facts', value: 0 } as never)
      .execute();
  },
};

// What an upstream adapter spent of its provider's credits per UTC month (issue 18): without it a
// restart or a new pipeline leader would start the month at zero and could spend the budget twice.
const upstreamSpend: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('upstream_spend')
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('credits', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('upstream_spend_pk', ['provider', 'month'])
      .execute();
  },
};

// An event's markets as one image of its book (live/book-image.ts) instead of a JSON document per
// market: a restart of 11,000 events × 1,000 markets parsed 11M documents (two minutes, and a heap
// out of memory). A flush that writes an event's image deletes its market documents and the odds
// rows before it; stores written before keep their documents until the event's markets change.
const bookImages: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('book_images')
      .addColumn('event_id', 'text', (c) => c.primaryKey().references('events.id').onDelete('cascade'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('data', 'blob', (c) => c.notNull())
      .execute();
  },
};

// The odds history keyed by its sequence number alone, as SQLite's rowid: a flush inserts a row
// per ticking event (2,000 a second at capacity), and each B-tree a row goes into is most of its
// cost: the table, the (event_id, seq) key and two indexes were four; the rowid table and the two
// indexes are three (a capacity flush's history insert ~16 -> ~10 ms of the writer thread).
// `seq` is unique on its own (flush sequence x span + the chunk's place in the flush). SQLite only:
// PostgreSQL's table is a heap either way, and keeps its key (postgres-migrations.ts).
const oddsHistoryBySeq: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`create table odds_history_by_seq (
      seq integer primary key,
      event_id text not null,
      from_at bigint not null,
      to_at bigint not null,
      count integer not null,
      data blob not null
    )`.execute(db);
    await sql`insert or ignore into odds_history_by_seq (seq, event_id, from_at, to_at, count, data)
      select seq, event_id, from_at, to_at, count, data from odds_history`.execute(db);
    await sql`drop table odds_history`.execute(db);
    await sql`alter table odds_history_by_seq rename to odds_history`.execute(db);
    await db.schema.createIndex('odds_history_by_time').on('odds_history').columns(['event_id', 'to_at']).execute();
    await db.schema.createIndex('odds_history_by_age').on('odds_history').column('to_at').execute();
  },
};

// Webhooks (issue 35): subscriptions per API key, the outbox of their deliveries (one row per
// message and subscription, kept after delivery as the delivery log) and the change-log position
// the outbox has been derived up to. `seq` orders a subscription's deliveries; the first index
// finds each subscription's next pending one, the second serves the log and `max(seq)`.
const webhooks: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('types', 'text', (c) => c.notNull())
      .addColumn('sport', 'text')
      .addColumn('league', 'text')
      .addColumn('event_ids', 'text')
      .addColumn('markets', 'text')
      .addColumn('odds_format', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'bigint')
      .addColumn('failing_since', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_by_key').on('webhooks').columns(['key_id', 'created_at']).execute();
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('webhook_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('position', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('last_latency_ms', 'integer')
      .addColumn('delivered_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_pending')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'status', 'seq'])
      .execute();
    await db.schema.createIndex('webhook_deliveries_seq').on('webhook_deliveries').column('seq').execute();
    await db.schema
      .createTable('webhook_cursor')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('pos_ms', 'bigint', (c) => c.notNull())
      .addColumn('pos_seq', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** Migrations that are SQLite's own: PostgreSQL records them by name and runs nothing. */
export const SQLITE_ONLY_MIGRATIONS: ReadonlySet<string> = new Set(['0013_odds_history_by_seq']);

/** Every SQLite migration, old and new; names sort in the order they must run. */
export const SQLITE_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001_initial': initial,
  '0002_settlements': settlements,
  '0003_odds_log': oddsLog,
  '0004_outrights': outrights,
  '0005_accounts_usage': accountsUsage,
  '0006_portal_sessions': portalSessions,
  '0007_write_probe': writeProbe,
  '0009_odds_history': oddsHistory,
  '0010_log_window': logWindow,
  '0011_upstream_spend': upstreamSpend,
  '0012_book_images': bookImages,
  '0013_odds_history_by_seq': oddsHistoryBySeq,
  '0014_webhooks': webhooks,
};

export const sqliteMigrationProvider: MigrationProvider = {
  getMigrations: async () => ({ ...SQLITE_MIGRATIONS }),
};
