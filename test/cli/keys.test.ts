// The keys CLI (create, list, revoke, plan) against the embedded store, and what a running service makes of its keys.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { openSqliteStore } from '../../src/store/sqlite-store.js';
import { startService } from '../helpers/service.js';
import { usageOf } from '../helpers/usage.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');
const PLANS = JSON.stringify({ team: { per_month: 500, per_second: 50 } });

let dataDir: string;

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    FEED: 'none',
    LOG_LEVEL: 'silent',
    DEMO_API_KEY: '',
    ADMIN_KEY: '',
    PLANS,
  };
}

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'keys', ...args], { env: env() });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cli-keys-'));
});
after(() => rm(dataDir, { recursive: true, force: true }));

describe('cli: keys', () => {
  let id: string;
  let secret: string;

  it('create prints the id and the secret once; list shows neither the secret nor its hash', async () => {
    const created = await cli('create', '--name', 'backend', '--plan', 'team');
    assert.equal(created.code, 0, created.stderr);
    const match = /created key (key_[0-9a-f]{16}) \(backend, plan team\)\. The secret is shown once:\n(sk_\S+)\n/.exec(
      created.stdout,
    );
    assert.ok(match, created.stdout);
    id = match[1]!;
    secret = match[2]!;
    const listed = await cli('list');
    assert.equal(listed.code, 0);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(id));
    assert.ok(line, listed.stdout);
    const [, name, plan, account, createdAt, lastUsed, state] = line.split('\t');
    assert.deepEqual([name, plan, account, lastUsed, state], ['backend', 'team', '-', '-', 'active']);
    assert.ok(!Number.isNaN(Date.parse(createdAt ?? '')));
    assert.ok(!listed.stdout.includes(secret));
    const json = await cli('list', '--json');
    const row = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.id === id);
    assert.equal(row?.plan, 'team');
    assert.equal(row?.keyHash, undefined);
  });

  it('create refuses an unknown plan, naming the configured ones', async () => {
    const r = await cli('create', '--plan', 'gold');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown plan 'gold'; configured plans: free, starter, pro, developer, unlimited, team/);
  });

  it('a running service accepts the key on its plan and records its last use', async () => {
    const svc = await startService({ dataDir, env: { PLANS } });
    try {
      const usage = await usageOf(svc, secret);
      assert.equal(usage.plan, 'team');
      assert.deepEqual(usage.limits, { per_second: 50, per_month: 500 });
    } finally {
      await svc.close();
    }
    const listed = await cli('list');
    const line = listed.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
    assert.notEqual(line.split('\t')[5], '-', 'last used is set');
  });

  it('plan moves a key to another configured plan; unknown plans and ids are refused', async () => {
    const moved = await cli('plan', id, 'pro');
    assert.equal(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, new RegExp(`key ${id} is now on plan pro`));
    assert.equal((await cli('plan', id, 'gold')).code, 2);
    const unknown = await cli('plan', 'key_nope', 'pro');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no key with id key_nope/);
    const svc = await startService({ dataDir, env: { PLANS } });
    try {
      assert.equal((await usageOf(svc, secret)).plan, 'pro');
    } finally {
      await svc.close();
    }
  });

  it('create --account attaches the key to a portal account found by email', async () => {
    const store = await openSqliteStore({ dataDir });
    try {
      await store.createAccount({ id: 'acc_cli', email: 'ops@example.com', passwordHash: 'x', createdAt: Date.now() });
    } finally {
      await store.close();
    }
    const r = await cli('create', '--name', 'owned', '--account', 'OPS@example.com');
    assert.equal(r.code, 0, r.stderr);
    const listed = await cli('list');
    assert.ok(listed.stdout.split('\n').some((l) => l.split('\t')[1] === 'owned' && l.split('\t')[3] === 'acc_cli'));
    const missing = await cli('create', '--account', 'nobody@example.com');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no account with email nobody@example.com/);
  });

  it('revoke marks the key revoked; a service refuses it', async () => {
    const r = await cli('revoke', id);
    assert.equal(r.code, 0, r.stderr);
    const listed = await cli('list');
    assert.match(listed.stdout.split('\n').find((l) => l.startsWith(id)) ?? '', /\trevoked \d{4}-/);
    assert.equal((await cli('revoke', 'key_nope')).code, 1);
    const svc = await startService({ dataDir, env: { PLANS } });
    try {
      assert.equal((await svc.get('/v1/events', { key: secret })).status, 401);
    } finally {
      await svc.close();
    }
  });
});
