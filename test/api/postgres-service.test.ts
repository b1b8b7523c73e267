// The whole service on PostgreSQL (DATABASE_URL): the same answers as on SQLite, across restarts and across processes. Skipped without a server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createService } from '../../src/service.js';
import { createTestSchema, postgresSkip, type TestSchema } from '../helpers/postgres.js';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  LA_LIGA,
  markets,
  MINUTE,
  odds,
  result,
  score,
  SEL,
  startService,
  status,
  type TestService,
} from '../helpers/service.js';

const skip = await postgresSkip();

/** A small world: a prematch event with moved odds, a live one, and settled games with tie-breaking ids. */
const WORLD: object[] = [
  fixture('pre', { start_time: at(2 * HOUR) }),
  markets('pre'),
  odds('pre', [
    { selection_id: SEL.home, odds: 2.2 },
    { selection_id: SEL.under, is_locked: true },
  ]),
  fixture('live', { start_time: at(-HOUR), league: LA_LIGA }),
  markets('live'),
  status('live', 'live'),
  score('live', 1, 0, { period: '2H', clock: '61:00' }),
  // Ended at the same instant: the feed breaks the tie by id, byte-wise (upper case first).
  ...['G-b', 'G_a', 'g-a', 'Ga'].flatMap((id, i) => [
    fixture(id, { start_time: at(-3 * HOUR) }),
    markets(id),
    status(id, 'live'),
    result(id, i, 1, { ended_at: at(-MINUTE) }),
  ]),
];

const URLS = [
  '/v1/events?status=all',
  '/v1/events/pre',
  '/v1/events/pre/odds?odds_format=american',
  '/v1/events/live',
  '/v1/events/G-b/result',
  '/v1/settlements',
  '/v1/settlements?limit=2',
  '/v1/leagues',
];

/** Every answer of URLS, then the settlement feed walked two entries at a time by cursor. */
async function answers(svc: TestService): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const url of URLS) {
    const res = await svc.get(url);
    assert.equal(res.status, 200, `${url}: ${res.text}`);
    out.set(url, res.text);
  }
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const url: string = `/v1/settlements?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await svc.get<{ next_cursor: string | null }>(url);
    assert.equal(res.status, 200, `${url}: ${res.text}`);
    out.set(`walk ${page}`, res.text);
    cursor = res.body.next_cursor;
    if (cursor === null) break;
  }
  return out;
}

async function fed(env: Record<string, string> = {}): Promise<TestService> {
  const svc = await startService({ env });
  await feedOk(svc, WORLD);
  await svc.service.settlement.idle();
  svc.clock.advance(MINUTE);
  return svc;
}

describe('the service on PostgreSQL', { skip }, () => {
  it('answers exactly as on SQLite, and again after a restart', async () => {
    const schema = await createTestSchema();
    const services: TestService[] = [];
    try {
      const sqlite = await fed();
      services.push(sqlite);
      const postgres = await fed({ DATABASE_URL: schema.url });
      services.push(postgres);
      assert.equal(sqlite.service.store.kind, 'sqlite');
      assert.equal(postgres.service.store.kind, 'postgres');

      const expected = await answers(sqlite);
      const settled = JSON.parse(expected.get('/v1/settlements') ?? '{}') as {
        settlements: Array<{ event_id: string }>;
      };
      assert.deepEqual(
        settled.settlements.map((s) => s.event_id),
        ['g-a', 'Ga', 'G_a', 'G-b'],
      );
      const onPostgres = await answers(postgres);
      assert.deepEqual([...onPostgres.keys()], [...expected.keys()]);
      for (const [url, body] of expected) assert.equal(onPostgres.get(url), body, url);

      const now = postgres.clock.now();
      await postgres.close();
      const restarted = await startService({ env: { DATABASE_URL: schema.url }, now });
      services.push(restarted);
      const afterRestart = await answers(restarted);
      for (const [url, body] of expected) assert.equal(afterRestart.get(url), body, `after restart: ${url}`);
    } finally {
      for (const s of services) await s.close();
      await schema.drop();
    }
  });

  it('a result acknowledged by one process is served by another opened on the same database', async () => {
    const schema: TestSchema = await createTestSchema();
    let first: TestService | undefined;
    let second: TestService | undefined;
    try {
      first = await startService({ env: { DATABASE_URL: schema.url, FLUSH_INTERVAL_MS: '1000' } });
      await feedOk(first, [
        fixture('x', { start_time: at(-2 * HOUR) }),
        markets('x'),
        status('x', 'live'),
        result('x', 2, 2, { ended_at: at(-MINUTE) }),
      ]);
      // The first process still runs, its write-behind maybe not flushed: the result is committed.
      second = await startService({ env: { DATABASE_URL: schema.url }, now: first.clock.now() });
      const res = await second.get<{ status: string; score: unknown }>('/v1/events/x/result');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.status, res.body.score], ['ended', { home: 2, away: 2 }]);
    } finally {
      await second?.close();
      await first?.close();
      await schema.drop();
    }
  });

  it('an unreachable DATABASE_URL stops the start with a message naming the server', async () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/sports',
      FEED: 'none',
      LOG_LEVEL: 'silent',
    });
    await assert.rejects(
      createService(config),
      /PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/sports is unreachable/,
    );
  });
});
