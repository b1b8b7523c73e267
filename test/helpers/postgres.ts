// PostgreSQL for tests: is a server there (skip, or fail under CI), and a throwaway schema per store so test files never collide.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server the PostgreSQL suites use: TEST_DATABASE_URL, else the local default. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let availability: Promise<string | false> | null = null;

async function probe(): Promise<string | false> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return false;
  } catch (error) {
    const reason = `no PostgreSQL answers at ${TEST_DATABASE_URL} (${error instanceof Error ? error.message : String(error)}); set TEST_DATABASE_URL to run these tests`;
    // CI always provides the server: a missing one there is a broken setup, not a reason to skip.
    if (process.env.CI === 'true') throw new Error(`CI=true but ${reason}`);
    return reason;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * `false` when the server answers, else the reason to skip (for node:test's `skip` option).
 * Throws under CI=true when nothing answers.
 */
export function postgresSkip(): Promise<string | false> {
  availability ??= probe();
  return availability;
}

export interface TestSchema {
  name: string;
  /** TEST_DATABASE_URL with the schema as search_path: a store opened on it lives only there. */
  url: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** Runs `body` on a connection of its own to the test database, closed afterwards. */
export async function admin<T>(body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

/** A new empty schema `t_<random>` in the test database. */
export async function createTestSchema(): Promise<TestSchema> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create schema ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${name}`);
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`drop schema if exists ${name} cascade`)).then(() => undefined),
  };
}

/** Runs `body` with a fresh schema, dropped afterwards whatever happens. */
export async function withTestSchema<T>(body: (schema: TestSchema) => Promise<T>): Promise<T> {
  const schema = await createTestSchema();
  try {
    return await body(schema);
  } finally {
    await schema.drop();
  }
}

/** Runs SQL on the test database with `schema` as search_path (inspection in tests). */
export async function queryIn<R extends pg.QueryResultRow>(
  schema: TestSchema,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: schema.url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
