// The store's one migration list on PostgreSQL: the portable column types of migrations.ts mapped to their PostgreSQL equivalents.
import { DataTypeNode, OperationNodeTransformer, RawNode } from 'kysely';
import type {
  ColumnDefinitionNode,
  Kysely,
  KyselyPlugin,
  Migration,
  MigrationProvider,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { SQLITE_MIGRATIONS, SQLITE_ONLY_MIGRATIONS } from './migrations.js';

/**
 * Where a portable type means something else on PostgreSQL. Every other type (integer, bigint…)
 * is the same on both engines.
 * - `text` compares byte-wise on SQLite (BINARY). PostgreSQL compares by the database's locale
 *   unless told otherwise, which would order feeds and cursors (event_id, entry_id…) differently,
 *   so every text column is created `COLLATE "C"`: byte order of UTF-8, the same as SQLite's.
 * - `blob` is `bytea` (node-postgres reads it back as a Buffer, as better-sqlite3 does).
 * - `real` is an 8-byte float on SQLite but a 4-byte one on PostgreSQL: `double precision`.
 */
const POSTGRES_TYPES: Readonly<Record<string, DataTypeNode | RawNode>> = {
  text: RawNode.createWithSql('text collate "C"'),
  blob: DataTypeNode.create('bytea'),
  real: DataTypeNode.create('double precision'),
};

class PostgresColumnTypes extends OperationNodeTransformer {
  protected override transformColumnDefinition(node: ColumnDefinitionNode, queryId?: QueryId): ColumnDefinitionNode {
    const out = super.transformColumnDefinition(node, queryId);
    if (!DataTypeNode.is(out.dataType)) return out;
    const mapped = POSTGRES_TYPES[out.dataType.dataType];
    return mapped === undefined ? out : { ...out, dataType: mapped };
  }
}

/** Rewrites the column types of DDL statements for PostgreSQL; queries pass unchanged. */
export class PostgresDdlPlugin implements KyselyPlugin {
  readonly #transformer = new PostgresColumnTypes();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

function forPostgres(migration: Migration): Migration {
  const plugin = new PostgresDdlPlugin();
  return {
    up: (db: Kysely<unknown>) => migration.up(db.withPlugin(plugin)),
    ...(migration.down !== undefined ? { down: (db: Kysely<unknown>) => migration.down!(db.withPlugin(plugin)) } : {}),
  };
}

/**
 * The same migrations, by the same names, as SQLite runs: a database moves between versions the
 * same way on both engines. The list is read when the migrator asks, so a migration added to
 * migrations.ts is picked up without touching this file.
 */
export const postgresMigrationProvider: MigrationProvider = {
  getMigrations: async () =>
    Object.fromEntries(
      Object.entries(SQLITE_MIGRATIONS).map(([name, m]) => [
        name,
        SQLITE_ONLY_MIGRATIONS.has(name) ? { up: () => Promise.resolve() } : forPostgres(m),
      ]),
    ),
};
