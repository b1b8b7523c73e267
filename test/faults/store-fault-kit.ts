// What the store and Redis fault tests share: a small world to feed, a bounded load of client requests counted by status, and the after-recovery checks.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { admin, TEST_DATABASE_URL } from '../helpers/postgres.js';
import { ADMIN_KEY, at, DAY, HOUR, MINUTE, type TestService } from '../helpers/service.js';

/** A soccer event with two markets, live (not yet ended). */
export function liveGame(id: string): object[] {
  const start = -HOUR;
  return [
    {
      type: 'fixture',
      event_id: id,
      sport: 'soccer',
      league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
      home_team: `Home ${id}`,
      away_team: `Away ${id}`,
      start_time: at(start),
      ts: at(start - DAY),
    },
    {
      type: 'markets',
      event_id: id,
      ts: at(start - DAY),
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: '1x2',
          outcomes: [
            { selection_id: 11, code: 'home', label: 'home', odds: 2.1 },
            { selection_id: 12, code: 'draw', label: 'draw', odds: 3.4 },
            { selection_id: 13, code: 'away', label: 'away', odds: 3.6 },
          ],
        },
        {
          market_id: 2,
          key: 'totals:2.5',
          name: 'totals:2.5',
          outcomes: [
            { selection_id: 21, code: 'over', label: 'over', odds: 1.9 },
            { selection_id: 22, code: 'under', label: 'under', odds: 1.9 },
          ],
        },
      ],
    },
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
  ];
}

/** The official result of a live game. */
export function resultOf(id: string, home = 2, away = 1): object {
  return {
    type: 'result',
    event_id: id,
    status: 'ended',
    score: { home, away },
    period_scores: [
      { period: '1H', home: 1, away: 0 },
      { period: '2H', home: home - 1, away: away },
    ],
    ended_at: at(-5 * MINUTE),
    ts: at(-5 * MINUTE),
  };
}

/** New odds for a live game (makes the write-behind write). */
export function oddsUpdate(id: string, n: number): object {
  return {
    type: 'markets',
    event_id: id,
    ts: at(-MINUTE + n),
    markets: [
      {
        market_id: 1,
        key: '1x2',
        name: '1x2',
        outcomes: [
          { selection_id: 11, code: 'home', label: 'home', odds: 2 + (n % 50) / 100 },
          { selection_id: 12, code: 'draw', label: 'draw', odds: 3.4 },
          { selection_id: 13, code: 'away', label: 'away', odds: 3.6 },
        ],
      },
    ],
  };
}

/** Answers by status: `{ "200": 180, "503": 20 }`. */
export class StatusCounts {
  readonly byStatus = new Map<number, number>();
  /** What answered other than 200 (the first few): shown when an assertion fails. */
  readonly notes: string[] = [];

  add(status: number, note?: string): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (status !== 200 && note !== undefined && this.notes.length < 10) this.notes.push(note);
  }

  get(status: number): number {
    return this.byStatus.get(status) ?? 0;
  }

  get total(): number {
    let n = 0;
    for (const v of this.byStatus.values()) n += v;
    return n;
  }

  /** `200×180 503×20`. */
  toString(): string {
    return [...this.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
  }

  /** The counts and what answered otherwise than 200. */
  explain(): string {
    return `${this.toString()}\n${this.notes.join('\n')}`;
  }
}

/** The reads a client makes, all served from memory: lists, an event, its odds. */
export async function driveReads(
  svc: TestService,
  eventIds: readonly string[],
  rounds: number,
  counts: StatusCounts,
  key?: string,
): Promise<void> {
  const opts = key === undefined ? {} : { key };
  for (let i = 0; i < rounds; i++) {
    const id = eventIds[i % eventIds.length]!;
    const urls = ['/v1/events', `/v1/events/${id}`, `/v1/events/${id}/odds`, '/v1/live', '/v1/sports'];
    for (const url of urls) {
      const r = await svc.get(url, opts);
      counts.add(r.status, `${r.status} ${url} ${r.text.slice(0, 200)}`);
      if (r.status !== 200) {
        assert.notEqual(r.status, 500, `${url} answered 500: ${r.text}`);
      }
    }
  }
}

export interface HealthBody {
  status: string;
  component?: string;
  services: { datastore: { status: string }; usage_counters?: { status: string } };
}

/** GET /v1/health, moving the test clock on a second first (health's own limit is 2 a second per caller). */
export async function health(svc: TestService): Promise<{ status: number; body: HealthBody }> {
  svc.clock.advance(1000);
  const r = await svc.get<HealthBody>('/v1/health');
  return { status: r.status, body: r.body };
}

/** Polls health until it answers 200 (bounded); the milliseconds it took. */
export async function untilHealthy(svc: TestService, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const h = await health(svc);
    if (h.status === 200) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`health still ${h.status} after ${timeoutMs} ms: ${JSON.stringify(h.body)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Settlements {
  settlements: Array<{ event_id: string; settlement_status: string; resolved_markets_count: number }>;
}

/**
 * Every acknowledged result is there (result lookup) and settled (settlement feed), waiting up to
 * `settleMs` for settlement the store refused during the fault; how many were checked.
 */
export async function checkResultsKept(svc: TestService, ids: readonly string[], settleMs = 10_000): Promise<number> {
  for (const id of ids) {
    const r = await svc.get<{ status?: string }>(`/v1/events/${id}/result`);
    assert.equal(r.status, 200, `result of ${id}: ${r.text}`);
  }
  const started = Date.now();
  for (;;) {
    await svc.service.settlement.idle();
    const feed = await svc.get<Settlements>(`/v1/settlements?event_ids=${ids.join(',')}&limit=100`);
    assert.equal(feed.status, 200, feed.text);
    const settled = new Map(feed.body.settlements.map((e) => [e.event_id, e]));
    const missing = ids.filter((id) => (settled.get(id)?.resolved_markets_count ?? 0) === 0);
    if (missing.length === 0) return ids.length;
    if (Date.now() - started > settleMs) assert.fail(`not settled after ${settleMs} ms: ${missing.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Feeds a body and tells each line's fate: accepted, or refused with which error. */
export async function feedLines(
  svc: TestService,
  messages: object[],
): Promise<{ accepted: number; refused: string[] }> {
  const res = await svc.inject<FeedAnswer>('POST', '/admin/v1/feed', {
    key: null,
    headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-ndjson' },
    body: messages.map((m) => JSON.stringify(m)).join('\n') + '\n',
  });
  if (res.status === 503) {
    // Nothing in the body could be applied and all of it may be sent again: every line refused.
    assert.equal(res.body.error, 'service_unavailable', res.text);
    assert.equal(res.body.component, 'datastore', res.text);
    return { accepted: 0, refused: messages.map(() => 'service_unavailable') };
  }
  assert.equal(res.status, 200, res.text);
  const report = res.body as FeedReport;
  for (const e of report.errors) {
    // A store fault's refusal tells the producer to send the line again.
    if (e.error === 'service_unavailable') assert.equal(e.retryable, true, JSON.stringify(e));
  }
  return { accepted: report.accepted, refused: report.errors.map((e) => e.error) };
}

interface FeedReport {
  accepted: number;
  errors: Array<{ line: number; error: string; retryable?: boolean }>;
}
type FeedAnswer = FeedReport & { error?: string; component?: string };

export { DAY, HOUR, MINUTE };

/** A database of the test's own (never `test` itself) that can be made to refuse and drop connections. */
export interface FaultDatabase {
  name: string;
  url: string;
  /** ALLOW_CONNECTIONS false, then ends every session of this database. */
  refuse(): Promise<void>;
  /** ALLOW_CONNECTIONS true. */
  allow(): Promise<void>;
  /** pg_terminate_backend of every session of this database (and only of it); how many. */
  terminate(): Promise<number>;
  /** Allows connections again, ends the sessions, drops the database. */
  drop(): Promise<void>;
}

export async function createFaultDatabase(): Promise<FaultDatabase> {
  const name = `sds_fault_${randomBytes(5).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const terminate = (): Promise<number> =>
    admin(async (c) => {
      const r = await c.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return r.rowCount ?? 0;
    });
  const allow = (): Promise<void> =>
    admin((c) => c.query(`alter database ${name} allow_connections true`)).then(() => undefined);
  return {
    name,
    url: url.toString(),
    async refuse() {
      await admin((c) => c.query(`alter database ${name} allow_connections false`));
      await terminate();
    },
    allow,
    terminate,
    async drop() {
      await allow().catch(() => undefined);
      await terminate().catch(() => undefined);
      await admin((c) => c.query(`drop database if exists ${name}`));
    },
  };
}
