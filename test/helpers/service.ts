// Starts a real service for a test (temp DATA_DIR, no simulator, injected clock) and drives it like a client: feed + HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createService, type Service, type ServiceOptions } from '../../src/service.js';

export const ADMIN_KEY = 'test-admin-key';
export const DEMO_KEY = 'test-demo-key';
/** The default clock reading of a test service: fixtures are placed relative to it. */
export const T0 = Date.parse('2026-03-01T12:00:00Z');

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** ISO text of T0 + offset (ms): the readable way to place fixtures around the clock. */
export const at = (offsetMs: number): string => new Date(T0 + offsetMs).toISOString();

export interface InjectOptions {
  headers?: Record<string, string>;
  /** An object or array is sent as JSON; a string is sent as is (set content-type in headers). */
  body?: unknown;
  /** The X-API-Key to send: the demo key by default, null for none. */
  key?: string | null;
}

export interface Reply<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: T;
  text: string;
  raw: Buffer;
}

export interface FeedReport {
  accepted: number;
  rejected: number;
  errors: Array<{ line: number; error: string; message: string }>;
}

export interface TestService {
  service: Service;
  dataDir: string;
  /** The injected clock: read it, set it, move it. */
  clock: { now(): number; set(ms: number | string): void; advance(ms: number): void };
  inject<T = unknown>(method: string, url: string, opts?: InjectOptions): Promise<Reply<T>>;
  /** GET with the demo key, parsed. */
  get<T = unknown>(url: string, opts?: InjectOptions): Promise<Reply<T>>;
  /** POSTs NDJSON to /admin/v1/feed with the admin key; fails the test unless it answers 200. */
  feed(messages: readonly object[] | string): Promise<FeedReport>;
  /** Closes the service; removes the data dir unless it was given by the caller or keepDir is set. */
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

export interface StartOptions {
  /** Reuse this data dir (a restart); it is then never removed by close(). */
  dataDir?: string;
  /** Initial clock reading (default T0). */
  now?: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Extra service options (e.g. a fake upstream's fast poll loop); the clock stays the test's. */
  options?: Omit<ServiceOptions, 'now'>;
}

export async function startService(opts: StartOptions = {}): Promise<TestService> {
  const ownsDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'sds-api-test-')));
  let t = opts.now ?? T0;
  const config = loadConfig({
    DATA_DIR: dataDir,
    FEED: 'none',
    ADMIN_KEY,
    DEMO_API_KEY: DEMO_KEY,
    DEMO_PLAN: 'unlimited',
    LOG_LEVEL: 'silent',
    // The stale-feed sweeper runs on a real timer against the injected clock: a test that moves
    // the clock would see locks come at whatever moment the timer fired. Tests of the protection
    // set it and sweep themselves (pipeline.sweepStale()).
    STALE_LOCK_SECONDS: '0',
    // TEST_STREAM_PROCESS=on runs a suite with streams moving to the stream process mid-test.
    STREAM_PROCESS: process.env.TEST_STREAM_PROCESS ?? 'off',
    ...opts.env,
  });
  const service = await createService(config, { ...opts.options, now: () => t });

  async function inject<T>(method: string, url: string, o: InjectOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = {};
    const key = o.key === undefined ? DEMO_KEY : o.key;
    if (key !== null) headers['x-api-key'] = key;
    let payload: string | undefined;
    if (typeof o.body === 'string') payload = o.body;
    else if (o.body !== undefined) {
      payload = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, o.headers);
    const res = await service.app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
    });
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: body as T, text: res.body, raw: res.rawPayload };
  }

  let closed = false;
  return {
    service,
    dataDir,
    clock: {
      now: () => t,
      set: (ms) => {
        t = typeof ms === 'string' ? Date.parse(ms) : ms;
      },
      advance: (ms) => {
        t += ms;
      },
    },
    inject,
    get: (url, o) => inject('GET', url, o),
    async feed(messages) {
      const body = typeof messages === 'string' ? messages : messages.map((m) => JSON.stringify(m)).join('\n') + '\n';
      const res = await inject<FeedReport>('POST', '/admin/v1/feed', {
        key: null,
        headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-ndjson' },
        body,
      });
      if (res.status !== 200) throw new Error(`feed answered ${res.status}: ${res.text}`);
      return res.body;
    },
    async close(o = {}) {
      if (closed) return;
      closed = true;
      await service.close();
      if (ownsDir && o.keepDir !== true) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Feeds messages and fails unless every line was accepted (setup steps of a test). */
export async function feedOk(svc: TestService, messages: readonly object[]): Promise<void> {
  const report = await svc.feed(messages);
  if (report.rejected !== 0) throw new Error(`feed rejected lines: ${JSON.stringify(report.errors)}`);
}

// ---- feed message builders (spec/feed.md) ----

export interface FixtureOptions {
  sport?: string;
  league?: { slug: string; name: string; country: string; tier?: number };
  home_team?: string;
  away_team?: string;
  /** ISO start time (default: T0 + 1 hour). */
  start_time?: string;
  home_logo_id?: string;
  away_logo_id?: string;
  ts?: string;
}

export const PREMIER_LEAGUE = { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 };
export const LA_LIGA = { slug: 'spain-la-liga', name: 'La Liga', country: 'Spain', tier: 1 };
export const NBA = { slug: 'usa-nba', name: 'NBA', country: 'United States', tier: 1 };

export function fixture(eventId: string, o: FixtureOptions = {}): Record<string, unknown> {
  return {
    type: 'fixture',
    event_id: eventId,
    sport: o.sport ?? 'soccer',
    league: o.league ?? PREMIER_LEAGUE,
    home_team: o.home_team ?? `${eventId} Home`,
    away_team: o.away_team ?? `${eventId} Away`,
    start_time: o.start_time ?? at(HOUR),
    ...(o.home_logo_id !== undefined ? { home_logo_id: o.home_logo_id } : {}),
    ...(o.away_logo_id !== undefined ? { away_logo_id: o.away_logo_id } : {}),
    ...(o.ts !== undefined ? { ts: o.ts } : {}),
  };
}

export interface MarketPrices {
  home?: number;
  draw?: number;
  away?: number;
  over?: number;
  under?: number;
}

/** Selection ids of the markets built by `markets()`: the same in every event. */
export const SEL = { home: 11, draw: 12, away: 13, over: 21, under: 22 } as const;
export const MARKET = { oneXTwo: 1, totals: 2 } as const;

/** A 1x2 (market 1: selections 11/12/13) and a totals 2.5 (market 2: selections 21/22). */
export function markets(eventId: string, p: MarketPrices = {}): Record<string, unknown> {
  return {
    type: 'markets',
    event_id: eventId,
    markets: [
      {
        market_id: MARKET.oneXTwo,
        key: '1x2',
        name: 'Match Result',
        outcomes: [
          { selection_id: SEL.home, code: 'home', label: 'Home', odds: p.home ?? 2.5, team_side: 'home' },
          { selection_id: SEL.draw, code: 'draw', label: 'Draw', odds: p.draw ?? 3.2 },
          { selection_id: SEL.away, code: 'away', label: 'Away', odds: p.away ?? 2.9, team_side: 'away' },
        ],
      },
      {
        market_id: MARKET.totals,
        key: 'totals:2.5',
        name: 'Total Goals 2.5',
        outcomes: [
          { selection_id: SEL.over, code: 'over', label: 'Over 2.5', odds: p.over ?? 1.91 },
          { selection_id: SEL.under, code: 'under', label: 'Under 2.5', odds: p.under ?? 1.91 },
        ],
      },
    ],
  };
}

export function odds(
  eventId: string,
  changes: Array<{ selection_id: number; odds?: number; is_locked?: boolean }>,
): Record<string, unknown> {
  return { type: 'odds', event_id: eventId, changes };
}

export function status(eventId: string, s: string): Record<string, unknown> {
  return { type: 'status', event_id: eventId, status: s };
}

export function score(
  eventId: string,
  home: number,
  away: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: 'score', event_id: eventId, score: { home, away }, ...extra };
}

export function result(
  eventId: string,
  home: number,
  away: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return { type: 'result', event_id: eventId, status: 'ended', score: { home, away }, ...extra };
}

/** fixture + markets: a prematch event with a 1x2 and a totals market. */
export function prematchEvent(
  eventId: string,
  o: FixtureOptions = {},
  p: MarketPrices = {},
): Array<Record<string, unknown>> {
  return [fixture(eventId, o), markets(eventId, p)];
}

/** fixture + markets + live + a score. */
export function liveEventMessages(
  eventId: string,
  o: FixtureOptions = {},
  home = 1,
  away = 0,
): Array<Record<string, unknown>> {
  return [
    fixture(eventId, { start_time: at(-30 * MINUTE), ...o }),
    markets(eventId),
    status(eventId, 'live'),
    score(eventId, home, away, { period: '1H', clock: '30:00' }),
  ];
}
