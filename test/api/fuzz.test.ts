// Seeded fuzz over every client endpoint: random query strings, paths, headers and bodies; no 5xx, only {error, message}, nothing changed.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { HTTP_STATUS } from '../../src/api/errors.js';
import { Rng } from '../../src/feed/simulator/rng.js';
import { decodedText } from '../helpers/codings.js';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import {
  ADMIN_KEY,
  DEMO_KEY,
  feedOk,
  liveEventMessages,
  MARKET,
  prematchEvent,
  result,
  SEL,
  startService,
  type TestService,
} from '../helpers/service.js';
import { keyOn, type UsageBody } from '../helpers/usage.js';

const SEED = Number(process.env.FUZZ_SEED ?? 14);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);

/** The project's seeded generator, so a failing run can be replayed with its seed. */
function prng(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

const EVENTS = ['pre', 'live', 'done'];

/** Percent-encodes; a lone surrogate (which has no UTF-8) becomes the bytes of one, undecodable on purpose. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}
const TOURNAMENT = 'open-2026';

class Fuzzer {
  constructor(private readonly random: () => number) {}

  int(n: number): number {
    return Math.floor(this.random() * n);
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }

  /** Text that is troublesome somewhere: numbers at the edges, unicode, escapes, injections, long runs. */
  text(): string {
    return this.pick<() => string>([
      () =>
        this.pick(['', ' ', '0', '-1', '1', '200', '201', '1e308', '1e400', '-1e400', 'NaN', 'Infinity', '-Infinity']),
      () => this.pick(['0x10', '1_000', '5.5', '  7 ', '+3', '1e3', '9007199254740993', '-0', '00012', '1,2', 'null']),
      () => this.pick(['true', 'false', 'undefined', '[]', '{}', '__proto__', 'constructor', 'prototype', 'toString']),
      () => this.pick(['é', '日本語', '🏈⚽', '\u0000', '\uFEFF', '\uD800', 'ﬀ', 'İ', 'a\u0301', '\u202Eevil']),
      () => this.pick(["' OR 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', '%00', '%', '%zz', '%E0%A4%A']),
      () => this.pick(EVENTS) + this.pick(['', ' ', '/', '%2F..', '\n', '?x']),
      () => this.pick(['soccer', 'SOCCER', 'tennis', 'nope', 'live', 'all', 'ended', 'decimal', 'american', 'x']),
      () => this.pick(['2026-03-01', '2026-02-30', '2026-13-01', '2026-03-01T12:00:00Z', '1h', '30m', '0d', '-1h']),
      () => 'x'.repeat(this.pick([129, 300, 5000, 70_000])),
      () => String(this.random() * 10 ** this.int(320)),
    ])();
  }

  /** A JSON value of any kind, nested up to `depth`, with dangerous keys now and then. */
  json(depth = 4): unknown {
    const kind = depth <= 0 ? this.int(6) : this.int(9);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick([0, -1, 1, 1.5, 2.1, 1e200, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER + 2, 20, 21]);
      case 3:
      case 4:
        return this.text();
      case 5:
        return this.pick(EVENTS);
      case 6:
      case 7: {
        const o: Record<string, unknown> = {};
        const n = this.int(5);
        for (let i = 0; i < n; i++) {
          const key = this.pick([
            '__proto__',
            'constructor',
            'prototype',
            'legs',
            'ids',
            'stake',
            'odds',
            'event_id',
            'market_id',
            'selection_id',
            'tournament_id',
            'market',
            'outcome',
            this.text(),
          ]);
          o[key] = this.json(depth - 1);
        }
        return o;
      }
      default:
        return Array.from({ length: this.int(this.chance(0.1) ? 30 : 4) }, () => this.json(depth - 1));
    }
  }

  /** A bet check leg: mostly right, with one field wrong in type or range. */
  leg(): Record<string, unknown> {
    const outright = this.chance(0.25);
    const leg: Record<string, unknown> = outright
      ? { tournament_id: TOURNAMENT, market_id: 500, selection_id: this.pick([501, 502]) }
      : // The ended event most often: its legs are settled, so a payout is computed.
        { event_id: this.pick([...EVENTS, 'done', 'done']), market_id: MARKET.oneXTwo, selection_id: SEL.home };
    if (this.chance(0.3)) leg.odds = this.pick([1, 1.01, 2.5, 1e6, 1e6 + 1, 1e200, 0.5, -2, '2.1', null, [2]]);
    if (this.chance(0.2))
      leg.market = this.pick(['1X2', 'Match Winner', 'moneyline', 'totals:2.5', 'Winner', this.text()]);
    if (this.chance(0.2)) leg.outcome = this.pick(['1', 'X', '2', 'home', 'Over 2.5', this.text()]);
    if (this.chance(0.4)) {
      const field = this.pick(Object.keys(leg).concat(['event_id', 'market_id', 'selection_id', 'tournament_id']));
      leg[field] = this.json(2);
    }
    if (this.chance(0.1)) delete leg[this.pick(Object.keys(leg))];
    return leg;
  }

  betBody(): unknown {
    if (this.chance(0.15)) return this.json();
    const body: Record<string, unknown> = {
      legs: Array.from({ length: this.pick([0, 1, 1, 2, 3, 20, 21]) }, () => this.leg()),
    };
    if (this.chance(0.6)) body.stake = this.pick([10, 0.01, 1e12, 1e12 + 1, 1e308, 0, -5, '10', null, [10]]);
    if (this.chance(0.2)) body[this.pick(['__proto__', 'constructor', 'extra'])] = this.json(2);
    return body;
  }

  batchBody(): unknown {
    if (this.chance(0.2)) return this.json();
    return {
      ids: this.pick<() => unknown>([
        () => EVENTS.slice(0, 1 + this.int(3)),
        () => this.pick(EVENTS),
        () => [1, 2],
        () => Array.from({ length: this.pick([0, 20, 21]) }, () => this.pick(EVENTS)),
        () => [this.text(), this.pick(EVENTS)],
        () => this.json(2),
      ])(),
    };
  }

  /** A body as bytes: JSON (maybe broken), deep nesting, NDJSON junk, or plain garbage. */
  serialize(value: unknown): string | Buffer {
    const text = JSON.stringify(value) ?? 'null';
    return this.pick<() => string | Buffer>([
      () => text,
      () => text,
      () => text,
      () => text.slice(0, this.int(text.length + 1)), // truncated
      () => text.replace(/"__proto__"/g, '"__proto__"').replace(/^\{/, '{"__proto__":{"polluted":1},'),
      () => '{"constructor":{"prototype":{"polluted":1}},"ids":["pre"]}',
      () => '',
      () => ' ',
      () => '[]',
      () => 'null',
      () => '{"stake": NaN}',
      () => '{"legs": [], "stake": 1e999}',
      () => '['.repeat(this.pick([33, 1000, 100_000])) + ']'.repeat(this.pick([0, 33, 1000])),
      () => '{"a":'.repeat(this.pick([40, 5000])) + '1' + '}'.repeat(40),
      () => `${text}\n${text}\n`,
      () => Buffer.from(text, 'utf16le'),
      () => Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x7b, 0x7d]),
      () => '\uFEFF' + text,
    ])();
  }

  query(names: readonly string[]): string {
    const parts: string[] = [];
    const n = this.int(4);
    for (let i = 0; i < n; i++) {
      const name = this.chance(0.85) ? this.pick(names) : this.text();
      const value = this.text();
      const raw = this.chance(0.3);
      parts.push(raw ? `${name}=${value}` : `${encode(name)}=${encode(value)}`);
      if (this.chance(0.05)) parts.push(name); // a name without a value
    }
    return parts.length === 0 && this.chance(0.5) ? '' : `?${parts.join('&')}`;
  }

  pathId(): string {
    return this.chance(0.5) ? this.pick(EVENTS) : encode(this.text()) || 'x';
  }

  contentType(): string | undefined {
    return this.pick([
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json; charset=utf-16',
      'application/json; charset=',
      'application/json; charset=latin1; charset=utf-8',
      'APPLICATION/JSON',
      'application/x-ndjson',
      'application/x-ndjson; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      ';;;',
      '',
      undefined,
    ]);
  }
}

interface Target {
  method: string;
  path: (f: Fuzzer) => string;
  /** Query parameter names this endpoint knows (others are fuzzed too). */
  params: readonly string[];
  body?: (f: Fuzzer) => unknown;
  /** An HTML page (the portal): its errors are pages, not {error, message}. */
  html?: boolean;
  /** Sends the admin key (the feed: junk only, never a valid message). */
  admin?: boolean;
}

const LIST = ['sport', 'status', 'league', 'country', 'date', 'from', 'to', 'starts_within', 'limit', 'offset'];
const ODDS = ['odds_format'];
const TARGETS: Target[] = [
  { method: 'GET', path: () => '/v1/events', params: [...LIST, ...ODDS] },
  { method: 'GET', path: () => '/v1/live', params: ['sport', 'league', 'country', 'limit', 'offset', ...ODDS] },
  { method: 'GET', path: () => '/v1/events/featured', params: ['sport', 'limit', ...ODDS] },
  { method: 'GET', path: (f) => `/v1/events/${f.pathId()}`, params: ODDS },
  { method: 'GET', path: (f) => `/v1/events/${f.pathId()}/odds`, params: ['at', ...ODDS] },
  { method: 'GET', path: (f) => `/v1/events/${f.pathId()}/result`, params: [] },
  { method: 'POST', path: () => '/v1/events/batch', params: ODDS, body: (f) => f.batchBody() },
  { method: 'POST', path: () => '/v1/bets/check', params: [], body: (f) => f.betBody() },
  { method: 'GET', path: () => '/v1/scores', params: ['sport', 'limit'] },
  { method: 'GET', path: () => '/v1/sports', params: [] },
  { method: 'GET', path: () => '/v1/leagues', params: ['sport', 'country'] },
  {
    method: 'GET',
    path: () => '/v1/settlements',
    params: ['event_id', 'sport', 'league', 'limit', 'offset', 'cursor', 'updated_since', 'from', 'to'],
  },
  {
    method: 'GET',
    path: () => '/v1/settlements/outrights',
    params: ['tournament_id', 'tournament_ids', 'limit', 'offset', 'cursor'],
  },
  { method: 'GET', path: () => '/v1/outrights', params: ['sport_id', ...ODDS] },
  { method: 'GET', path: () => '/v1/outrights/sports', params: [] },
  { method: 'GET', path: () => '/v1/usage', params: [] },
  { method: 'GET', path: () => '/v1/usage/warnings', params: [] },
  { method: 'GET', path: () => '/v1/health', params: [] },
  { method: 'GET', path: () => '/v1/status', params: [] },
  { method: 'GET', path: (f) => `/api/logo/${f.pathId()}`, params: [] },
  { method: 'GET', path: () => '/livez', params: [] },
  { method: 'GET', path: () => '/readyz', params: [] },
  { method: 'GET', path: () => '/metrics', params: [] },
  { method: 'GET', path: (f) => f.pick(['/openapi.json', '/nope', '/v1', '/v2/events', '/v1/events/']), params: [] },
  { method: 'POST', path: () => '/admin/v1/feed', params: [], admin: true, body: (f) => f.json() },
  {
    method: 'GET',
    path: (f) =>
      f.pick(['/portal', '/portal/sign-in', '/portal/sign-up', '/portal/start', '/portal/explorer', '/portal/keys']) +
      f.pick(['', '/', '/x']),
    params: ['next', 'error'],
    html: true,
  },
  { method: 'GET', path: (f) => `/portal/assets/${f.pathId()}`, params: [], html: true },
  {
    method: 'POST',
    path: (f) =>
      f.pick([
        '/portal/sign-in',
        '/portal/sign-up',
        '/portal/sign-out',
        '/portal/keys',
        `/portal/keys/${f.pathId()}/name`,
      ]),
    params: [],
    body: (f) => f.json(2),
    html: true,
  },
];

/** Long runs of one character written as `x×70000`, so a failure's URL can be read and replayed. */
const shorten = (text: string): string => text.replace(/(.)\1{20,}/g, (run, c: string) => `${c}×${run.length}`);

/** Bodies are where most of the input is: the body endpoints are drawn more often. */
const WEIGHTED: Target[] = TARGETS.flatMap((t) =>
  t.body !== undefined && t.html !== true ? [t, t, t, t] : t.path.length === 0 ? [t, t] : [t],
);

const KNOWN_CODES = new Set(Object.keys(HTTP_STATUS));
/** What must never reach a client: stack frames, file paths, internal module names. */
const LEAKS = /\n\s+at |node:internal|node_modules|file:\/\/|\/work\/|\/tmp\/|dist\/(src|test)|\.(ts|js):\d+:\d+/;

/** Writes raw bytes on a new connection, half-closes it, and returns all the server sent back (bounded wait). */
function rawExchange(port: number, request: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, 2000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.end(request);
  });
}

/** Each HTTP/1.1 response in a byte stream: status, content type and body (content-length framed). */
function responsesIn(text: string): Array<{ status: number; type: string; body: string }> {
  const out: Array<{ status: number; type: string; body: string }> = [];
  let rest = text;
  for (let i = 0; i < 10 && rest.startsWith('HTTP/1.1 '); i++) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const head = rest.slice(0, headEnd);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(headEnd + 4, headEnd + 4 + length);
    out.push({ status: Number(head.slice(9, 12)), type: /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '', body });
    rest = rest.slice(headEnd + 4 + length);
  }
  return out;
}

describe('fuzz: every client endpoint', () => {
  let svc: TestService;
  let secondKey: string;

  before(async () => {
    svc = await startService();
    await feedOk(svc, [
      ...prematchEvent('pre'),
      ...liveEventMessages('live'),
      ...liveEventMessages('done'),
      result('done', 2, 1, {
        period_scores: [
          { period: '1H', home: 1, away: 0 },
          { period: '2H', home: 1, away: 1 },
        ],
      }),
      tournament(TOURNAMENT, 'tennis', 'Open 2026'),
      outrightMarket(TOURNAMENT, 500, [
        [501, 'Player A', 2.5],
        [502, 'Player B', 3.0],
      ]),
      tournament('masters', 'snooker', 'Masters'),
      outrightMarket('masters', 600, [
        [601, 'Player C', 1.8],
        [602, 'Player D', 2.1],
      ]),
      outrightResult('masters', 600, [601]),
    ]);
    secondKey = await keyOn(svc, 'unlimited', 'untouched');
  });
  after(async () => svc.close());

  /** What a client can read, in full: compared before and after the fuzz. */
  async function snapshot(): Promise<Record<string, string>> {
    const urls = [
      '/v1/events?status=all',
      '/v1/live',
      '/v1/scores',
      '/v1/sports',
      '/v1/leagues',
      '/v1/settlements',
      '/v1/settlements/outrights',
      '/v1/outrights/sports',
      ...EVENTS.flatMap((id) => [`/v1/events/${id}`, `/v1/events/${id}/odds`, `/v1/events/${id}/result`]),
    ];
    const out: Record<string, string> = {};
    for (const url of urls) out[url] = (await svc.get(url)).text;
    const sports = JSON.parse(out['/v1/outrights/sports'] ?? '{}') as { sports?: Array<{ sport_id: number }> };
    for (const s of sports.sports ?? []) {
      out[`/v1/outrights?sport_id=${s.sport_id}`] = (await svc.get(`/v1/outrights?sport_id=${s.sport_id}`)).text;
    }
    return out;
  }

  it(`${REQUESTS} random requests (seed ${SEED}): no 5xx, errors are {error, message}, nothing leaks, nothing changes`, async () => {
    const before0 = await snapshot();
    const usage0 = (await svc.get<UsageBody>('/v1/usage', { key: secondKey })).body;
    assert.ok(Object.keys(before0).length >= 18, Object.keys(before0).join(' '));

    const f = new Fuzzer(prng(SEED));
    const byStatus = new Map<number, number>();
    const failures: string[] = [];
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i++) {
      const target = f.pick(WEIGHTED);
      const method = f.chance(0.05)
        ? f.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'GET', 'POST'])
        : target.method;
      const url = target.path(f) + f.query(target.params);
      const headers: Record<string, string> = {};
      if (!f.chance(0.05)) headers['x-api-key'] = f.chance(0.95) ? DEMO_KEY : f.pick(['', 'sk_wrong', f.text()]);
      if (target.admin === true) headers['x-admin-key'] = f.chance(0.8) ? ADMIN_KEY : f.pick(['', 'wrong']);
      if (f.chance(0.1)) headers['accept-encoding'] = f.pick(['gzip', 'br', 'deflate', 'identity;q=0', '*', f.text()]);
      if (f.chance(0.05)) headers['if-none-match'] = f.pick(['*', '"x"', 'W/"1"', f.text()]);
      if (f.chance(0.05)) headers.accept = f.pick(['text/event-stream', 'application/xml', '*/*', f.text()]);
      let payload: string | Buffer | undefined;
      if (target.body !== undefined && method !== 'GET' && method !== 'HEAD') {
        payload = f.serialize(target.body(f));
        const ct = f.contentType();
        if (ct !== undefined) headers['content-type'] = ct;
        if (f.chance(0.05)) headers['content-length'] = String(f.pick([0, 1, Buffer.byteLength(payload) + 10]));
      }
      // Header values must be sendable at all: Node refuses control characters before the service sees them.
      for (const [k, v] of Object.entries(headers)) if (/[^\t\x20-\x7e]/.test(v)) delete headers[k];

      let res;
      try {
        res = await svc.service.app.inject({
          method: method as 'GET',
          url,
          headers,
          ...(payload !== undefined ? { payload } : {}),
        });
      } catch (err) {
        failures.push(`${method} ${url}: inject failed: ${String(err)}`);
        continue;
      }
      byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
      const where = `#${i} ${method} ${shorten(url)} [${headers['content-type'] ?? ''}] -> ${res.statusCode}`;
      // A coded answer is read as its client would: decoded by its Content-Encoding.
      let text: string;
      try {
        text = decodedText(res.rawPayload, res.headers['content-encoding']);
      } catch (err) {
        failures.push(`${where}: body does not decode as ${String(res.headers['content-encoding'])}: ${String(err)}`);
        continue;
      }
      if (res.statusCode >= 500) failures.push(`${where}: ${text.slice(0, 200)}`);
      if (LEAKS.test(text)) failures.push(`${where}: body leaks internals: ${text.slice(0, 300)}`);
      const json = String(res.headers['content-type'] ?? '').includes('json');
      if (res.statusCode === 200 && json && method !== 'HEAD') {
        // A payload the service wrote itself must be JSON (a non-finite number, echoed, is not).
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          failures.push(`${where}: 200 body is not JSON: ${text.slice(0, 200)}`);
          continue;
        }
        if (url.startsWith('/v1/bets/check') && !Number.isFinite(body.combined_odds)) {
          failures.push(`${where}: combined_odds ${String(body.combined_odds)}`);
        }
      }
      if (res.statusCode >= 400 && target.html !== true && method !== 'HEAD') {
        let body: Record<string, unknown> | undefined;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          failures.push(`${where}: error body is not JSON: ${text.slice(0, 200)}`);
          continue;
        }
        const keys = Object.keys(body).sort().join(',');
        const code = String(body.error);
        if (keys !== (res.statusCode === 503 ? 'component,error,message' : 'error,message')) {
          failures.push(`${where}: error body keys ${keys}`);
        }
        if (!KNOWN_CODES.has(code) || HTTP_STATUS[code as keyof typeof HTTP_STATUS] !== res.statusCode) {
          failures.push(`${where}: error code ${code} with status ${res.statusCode}`);
        }
        if (typeof body.message !== 'string' || body.message.length === 0) failures.push(`${where}: no message`);
      }
      if (failures.length > 20) break;
    }
    const ms = performance.now() - started;
    const statuses = [...byStatus.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}:${n}`)
      .join(' ');
    console.log(`FAULT-FIGURES fuzz: ${REQUESTS} requests, ${statuses}, ${(ms / 1000).toFixed(1)} s (seed ${SEED})`);
    assert.deepEqual(failures, []);

    // Nothing changed: every read, and the other key's usage (one more: the look itself).
    assert.deepEqual(await snapshot(), before0);
    const usage1 = (await svc.get<UsageBody>('/v1/usage', { key: secondKey })).body;
    assert.equal(usage1.current.this_month, usage0.current.this_month + 1);
    assert.equal(usage1.current.errors_today, usage0.current.errors_today);
    // No prototype was polluted on the way.
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(byStatus.size >= 5, `a fuzz that meets only ${statuses} explores too little`);
    assert.ok((byStatus.get(200) ?? 0) > REQUESTS / 10, `too few successful requests: ${statuses}`);
  });

  it('malformed HTTP on a real socket (Content-Length lies, bad chunks, bad headers): 400 {error, message}', async () => {
    const before0 = await snapshot();
    const base = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(base).port);
    const f = new Fuzzer(prng(SEED + 1));
    const byStatus = new Map<number, number>();
    const failures: string[] = [];
    const ROUNDS = 150;
    for (let i = 0; i < ROUNDS; i++) {
      const path = f.pick(['/v1/bets/check', '/v1/events/batch', '/admin/v1/feed', '/v1/events', '/portal/sign-in']);
      const body = Buffer.from(
        f.pick([
          '{"ids":["pre"]}',
          JSON.stringify({ legs: [{ event_id: 'done', market_id: 1, selection_id: 11 }], stake: 10 }),
          '',
          f.text(),
        ]),
      );
      const lines = [
        `${f.pick(['POST', 'GET', 'POST'])} ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        `x-api-key: ${DEMO_KEY}`,
      ];
      if (path.startsWith('/admin')) lines.push(`x-admin-key: ${ADMIN_KEY}`);
      lines.push(`content-type: ${f.pick(['application/json', 'application/x-ndjson', 'text/plain'])}`);
      let payload = body;
      switch (f.int(8)) {
        case 0: // declares more than it sends
          lines.push(`content-length: ${body.length + 1 + f.int(1000)}`);
          break;
        case 1: // declares less: the rest reads as a second, broken request
          lines.push(`content-length: ${Math.max(0, body.length - 1 - f.int(5))}`);
          break;
        case 2:
          lines.push(`content-length: ${f.pick(['abc', '-1', '1e3', ' ', '0x10', '99999999999999999999'])}`);
          break;
        case 3:
          lines.push(`content-length: ${body.length}`, `content-length: ${body.length + 1}`);
          break;
        case 4: // a chunk size that lies, or is not hex
          lines.push('transfer-encoding: chunked');
          payload = Buffer.concat([
            Buffer.from(`${f.pick(['zz', 'ffffffffffffffff', '1', (body.length + 5).toString(16)])}\r\n`),
            body,
            Buffer.from('\r\n0\r\n\r\n'),
          ]);
          break;
        case 5:
          lines.push('transfer-encoding: chunked', `content-length: ${body.length}`);
          break;
        case 6:
          lines.push(f.pick(['bad header line', 'x-a: b\u0000c', `x-long: ${'a'.repeat(20_000)}`, ': empty-name']));
          lines.push(`content-length: ${body.length}`);
          break;
        default:
          lines.push(`content-length: ${body.length}`);
      }
      const request = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
      const answers = responsesIn(await rawExchange(port, request));
      for (const a of answers) {
        byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
        const where = `raw #${i} ${shorten(lines.join(' | '))} -> ${a.status}`;
        if (a.status >= 500) failures.push(`${where}: ${a.body.slice(0, 200)}`);
        if (LEAKS.test(a.body)) failures.push(`${where}: body leaks internals`);
        if (a.status >= 400 && a.type.includes('json')) {
          const e = JSON.parse(a.body) as Record<string, unknown>;
          const code = String(e.error);
          if (
            Object.keys(e).sort().join(',') !== 'error,message' ||
            HTTP_STATUS[code as keyof typeof HTTP_STATUS] !== a.status
          ) {
            failures.push(`${where}: error body ${a.body.slice(0, 200)}`);
          }
        } else if (a.status >= 400 && !path.startsWith('/portal')) failures.push(`${where}: error in ${a.type}`);
      }
    }
    const statuses = [...byStatus.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([st, n]) => `${st}:${n}`)
      .join(' ');
    console.log(`FAULT-FIGURES fuzz-raw: ${ROUNDS} connections, ${statuses} (seed ${SEED + 1})`);
    assert.deepEqual(failures, []);
    assert.ok((byStatus.get(400) ?? 0) > ROUNDS / 4, statuses);
    assert.deepEqual(await snapshot(), before0);
  });
});
