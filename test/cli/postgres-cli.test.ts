// The CLI with DATABASE_URL: keys and replay work on the PostgreSQL store, and a service started on it sees them. Skipped without a server.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openPostgresStore } from '../../src/store/postgres-store.js';
import { createTestSchema, postgresSkip, type TestSchema } from '../helpers/postgres.js';
import { startService } from '../helpers/service.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');

const skip = await postgresSkip();

let schema: TestSchema;
let dir: string;

function env(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // The data directory is never created: nothing is stored in files with DATABASE_URL.
    DATA_DIR: join(dir, 'never-created'),
    DATABASE_URL: databaseUrl,
    FEED: 'none',
    LOG_LEVEL: 'silent',
    DEMO_API_KEY: '',
    ADMIN_KEY: '',
  };
}

async function cli(
  args: string[],
  databaseUrl = schema.url,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: env(databaseUrl) });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

describe('cli on PostgreSQL', { skip }, () => {
  before(async () => {
    schema = await createTestSchema();
    dir = await mkdtemp(join(tmpdir(), 'cli-pg-'));
  });
  after(async () => {
    await schema.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keys create, list and revoke work on an empty database, migrating it first', async () => {
    const created = await cli(['keys', 'create', '--name', 'backend', '--plan', 'pro']);
    assert.equal(created.code, 0, created.stderr);
    const id = /created key (key_[0-9a-f]{16})/.exec(created.stdout)?.[1];
    assert.ok(id, created.stdout);
    const secret = created.stdout.trim().split('\n').pop() ?? '';

    const listed = await cli(['keys', 'list', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const keys = listed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; name: string; plan: string; state: string });
    assert.deepEqual(
      keys.map((k) => [k.id, k.name, k.plan, k.state]),
      [[id, 'backend', 'pro', 'active']],
    );

    // A service started on the same database accepts the key, until it is revoked.
    const svc = await startService({ env: { DATABASE_URL: schema.url } });
    try {
      assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200);
    } finally {
      await svc.close();
    }
    const revoked = await cli(['keys', 'revoke', id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    const store = await openPostgresStore({ url: schema.url });
    try {
      assert.notEqual((await store.findApiKeyById(id))?.revokedAt ?? null, null);
    } finally {
      await store.close();
    }
  });

  it('replay without --url writes into the PostgreSQL store', async () => {
    const file = join(dir, 'feed.ndjson');
    const lines = [
      {
        type: 'fixture',
        event_id: 'pg-cli-1',
        sport: 'soccer',
        league: { slug: 'test-league', name: 'Test League', country: 'Testland' },
        home_team: 'A',
        away_team: 'B',
        start_time: '2026-03-01T15:00:00Z',
      },
      {
        type: 'result',
        event_id: 'pg-cli-1',
        status: 'ended',
        score: { home: 3, away: 1 },
        ended_at: '2026-03-01T16:55:00Z',
      },
    ];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await cli(['replay', file, '--no-progress']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /accepted 2, rejected 0/);
    const store = await openPostgresStore({ url: schema.url });
    try {
      const res = await store.getResult('pg-cli-1');
      assert.deepEqual([res?.status, res?.score], ['ended', { home: 3, away: 1 }]);
    } finally {
      await store.close();
    }
  });

  it('an unreachable DATABASE_URL fails the command with a clear message', async () => {
    const r = await cli(['keys', 'list'], 'postgres://app:pw@127.0.0.1:1/sports');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/sports is unreachable/);
    assert.doesNotMatch(r.stderr, /:pw@/);
  });
});
