// `serve` as a process: its console and log output never show a configured key, the admin key or any key used.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const CLI = join(process.cwd(), 'dist/src/cli.js');
const DEMO = 'sk_serve_log_demo_0123456789abcdef';
const ADMIN = 'serve_log_admin_0123456789abcdef';
const WRONG = 'sk_serve_log_wrong_0123456789abcd';

describe('cli: serve logs', () => {
  it('prints where it listens and that a DEMO_API_KEY is configured, never the key; requests log no key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'serve-logs-'));
    const child = spawn(process.execPath, [CLI, 'serve'], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        FEED: 'none',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'trace',
        DEMO_API_KEY: DEMO,
        ADMIN_KEY: ADMIN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no address in time:\n${output}`)), 20_000);
        const check = (): void => {
          const m = /listening on (http:\/\/\S+)/.exec(output);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        };
        child.stdout.on('data', check);
        void exited.then(() => reject(new Error(`serve exited:\n${output}`)));
      });
      const get = async (path: string, headers: Record<string, string>) => {
        const res = await fetch(`${base}${path}`, { headers });
        await res.arrayBuffer();
        return res.status;
      };
      assert.equal(await get('/v1/events', { 'x-api-key': DEMO }), 200);
      assert.equal(await get('/v1/events', { 'x-api-key': WRONG, authorization: `Bearer ${WRONG}` }), 401);
      assert.equal(await get('/metrics', { 'x-admin-key': ADMIN }), 200);
      assert.equal(await get('/metrics', { 'x-admin-key': DEMO }), 401);
      const res = await fetch(`${base}/admin/v1/feed`, {
        method: 'POST',
        headers: { 'x-admin-key': ADMIN, 'content-type': 'application/x-ndjson' },
        body: '{not json\n',
      });
      await res.arrayBuffer();
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      assert.match(output, /Demo API key: the DEMO_API_KEY you configured \(plan developer\)/);
      assert.match(output, /X-API-Key: \$DEMO_API_KEY/);
      for (const secret of [DEMO, ADMIN, WRONG]) assert.ok(!output.includes(secret), `output shows ${secret}`);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
