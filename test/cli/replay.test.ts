// The CLI: convert a real openfootball season, replay it into the embedded store and into a running service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ADMIN_KEY, DEMO_KEY, startService } from '../helpers/service.js';

const run = promisify(execFile);
const CLI = join(process.cwd(), 'dist/src/cli.js');
const SEASON = join(process.cwd(), 'test/feed/fixtures/openfootball/en.1.2023-24.json');

function env(dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, DATA_DIR: dataDir, FEED: 'none', LOG_LEVEL: 'silent', DEMO_API_KEY: '', ADMIN_KEY: '' };
}

let dir: string;
let ndjson: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-test-'));
  ndjson = join(dir, 'en.ndjson');
  await run(process.execPath, [CLI, 'convert-openfootball', SEASON, '-o', ndjson], { env: env(join(dir, 'unused')) });
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cli: replay', () => {
  it('replays a whole Premier League season into the embedded store with nothing rejected', async () => {
    const dataDir = join(dir, 'embedded');
    const { stdout } = await run(process.execPath, [CLI, 'replay', ndjson], { env: env(dataDir) });
    assert.match(stdout, /accepted 2280, rejected 0/);

    // The season ended in 2024: keep its finished events in the read model to list them.
    const svc = await startService({ dataDir, env: { ENDED_RETENTION_HOURS: String(24 * 365 * 10) } });
    try {
      const list = await svc.get<{ total: number }>('/v1/events?status=ended&sport=soccer&limit=1');
      assert.equal(list.body.total, 380);
      const result = await svc.get<{ status: string; score: { home: number; away: number } }>(
        '/v1/events/of-en-1-2023-24-m001/result',
      );
      assert.equal(result.body.status, 'ended');
      assert.deepEqual(result.body.score, { home: 0, away: 3 });
    } finally {
      await svc.close();
    }
  });

  it('replays into a running service over HTTP, reporting bad lines with their file line numbers', async () => {
    const svc = await startService();
    const address = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const file = join(dir, 'mixed.ndjson');
    const fixture = {
      type: 'fixture',
      event_id: 'cli-1',
      sport: 'soccer',
      league: { slug: 'test-league', name: 'Test League', country: 'Testland' },
      home_team: 'A',
      away_team: 'B',
      start_time: '2026-03-02T15:00:00Z',
    };
    await writeFile(
      file,
      [
        JSON.stringify(fixture),
        '{not json',
        '',
        JSON.stringify({ type: 'status', event_id: 'nope', status: 'live' }),
      ].join('\n'),
    );
    try {
      const r = await run(
        process.execPath,
        [CLI, 'replay', file, '--url', address, '--admin-key', ADMIN_KEY, '--batch', '2'],
        {
          env: env(join(dir, 'unused')),
        },
      ).catch((err: { stdout: string; code: number }) => err);
      assert.equal((r as { code?: number }).code, 1, 'a replay with rejected lines exits 1');
      assert.match(r.stdout, /accepted 1, rejected 2/);
      assert.match(r.stdout, /line 2: bad_request/);
      assert.match(r.stdout, /line 4: bad_request: unknown event 'nope'/);
      const detail = await svc.inject('GET', '/v1/events/cli-1', { key: DEMO_KEY });
      assert.equal(detail.status, 200);
    } finally {
      await svc.close();
    }
  });

  it('refuses a replay to a running service without the admin key', async () => {
    const svc = await startService();
    const address = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const r = await run(process.execPath, [CLI, 'replay', ndjson, '--url', address], {
        env: env(join(dir, 'unused')),
      }).catch((err: { stderr: string; code: number }) => err);
      assert.equal((r as { code?: number }).code, 1);
      assert.match((r as { stderr: string }).stderr, /HTTP 401/);
    } finally {
      await svc.close();
    }
  });
});
