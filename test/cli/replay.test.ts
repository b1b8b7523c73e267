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

  it('a replayed feed keeps closing prices the last prematch ones: none for an event first seen live or a market added live', async () => {
    // Stamped lines (ts): a replay applies them at their own time, not at the time it runs.
    const dataDir = join(dir, 'closing');
    const file = join(dir, 'closing.ndjson');
    const start = Date.parse('2026-02-27T15:00:00Z');
    const ts = (offsetMs: number): string => new Date(start + offsetMs).toISOString();
    const MIN = 60_000;
    const league = { slug: 'replay-league', name: 'Replay League', country: 'Testland' };
    const fixture = (id: string, offset: number): object => ({
      type: 'fixture',
      ts: ts(offset),
      event_id: id,
      sport: 'soccer',
      league,
      home_team: `${id} Home`,
      away_team: `${id} Away`,
      start_time: ts(0),
    });
    const oneXTwo = (id: string, offset: number, home: number): object => ({
      type: 'markets',
      ts: ts(offset),
      event_id: id,
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: 'Match Result',
          outcomes: [
            { selection_id: 11, code: 'home', label: 'Home', odds: home, team_side: 'home' },
            { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.4 },
            { selection_id: 13, code: 'away', label: 'Away', odds: 3.0, team_side: 'away' },
          ],
        },
      ],
    });
    const btts = (id: string, offset: number): object => ({
      type: 'markets',
      ts: ts(offset),
      event_id: id,
      markets: [
        {
          market_id: 2,
          key: 'btts',
          name: 'Both Teams to Score',
          outcomes: [
            { selection_id: 21, code: 'yes', label: 'Yes', odds: 1.7 },
            { selection_id: 22, code: 'no', label: 'No', odds: 2.1 },
          ],
        },
      ],
    });
    const move = (id: string, offset: number, odds: number): object => ({
      type: 'odds',
      ts: ts(offset),
      event_id: id,
      changes: [{ selection_id: 11, odds }],
    });
    const live = (id: string, offset: number): object => ({
      type: 'status',
      ts: ts(offset),
      event_id: id,
      status: 'live',
    });
    const result = (id: string, offset: number): object => ({
      type: 'result',
      ts: ts(offset),
      event_id: id,
      status: 'ended',
      score: { home: 2, away: 1 },
      period_scores: [
        { period: '1H', home: 1, away: 0 },
        { period: '2H', home: 1, away: 1 },
      ],
    });
    const lines = [
      // rp1: priced a day ahead, moved an hour before kick-off, live, a market added in play.
      fixture('rp1', -24 * 60 * MIN),
      oneXTwo('rp1', -24 * 60 * MIN, 2.5),
      move('rp1', -60 * MIN, 2.2),
      live('rp1', 0),
      move('rp1', 10 * MIN, 1.6),
      btts('rp1', 20 * MIN),
      result('rp1', 110 * MIN),
      // rp2: first seen 13 minutes into the game, with in-play prices.
      fixture('rp2', 13 * MIN),
      oneXTwo('rp2', 13 * MIN, 4.2),
      live('rp2', 13 * MIN),
      move('rp2', 20 * MIN, 3.9),
      result('rp2', 110 * MIN),
    ];
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const { stdout } = await run(process.execPath, [CLI, 'replay', file], { env: env(dataDir) });
    assert.match(stdout, /accepted 12, rejected 0/);

    // The service's clock two days after the games: their entries are in the feed.
    const svc = await startService({ dataDir, now: Date.parse('2026-03-01T12:00:00Z') });
    try {
      await svc.service.settlement.idle();
      type Entry = {
        event_id: string;
        resolved_markets: Array<{
          outcomes: Array<{ selection_id: number; opening_odds: number | null; closing_odds: number | null }>;
        }>;
      };
      const page = await svc.get<{ settlements: Entry[] }>('/v1/settlements?event_ids=rp1,rp2');
      assert.equal(page.status, 200, page.text);
      const prices = (id: string): Record<number, [number | null, number | null]> =>
        Object.fromEntries(
          (page.body.settlements.find((e) => e.event_id === id)?.resolved_markets ?? [])
            .flatMap((m) => m.outcomes)
            .map((o) => [o.selection_id, [o.opening_odds, o.closing_odds]]),
        );
      assert.deepEqual(prices('rp1'), {
        11: [2.5, 2.2],
        12: [3.4, 3.4],
        13: [3.0, 3.0],
        21: [1.7, null],
        22: [2.1, null],
      });
      assert.deepEqual(prices('rp2'), { 11: [4.2, null], 12: [3.4, null], 13: [3.0, null] });
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
