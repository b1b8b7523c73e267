// Every query and path parameter the served /openapi.json declares is checked exactly as the service checks it: boundary values from each declared schema, sent, accepted or refused alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { SPORT_KEYS, SPORTS } from '../../src/domain/sports.js';
import { oneToPattern } from '../../src/api/schemas/params.js';
import { SseClient } from '../helpers/sse.js';
import { DEMO_KEY, startService, type TestService } from '../helpers/service.js';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ??
  formatsModule) as unknown as FormatsPlugin;

type Json = Record<string, unknown>;
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: Json;
}
interface Doc {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
}

/**
 * Parameters whose declared schema cannot say all the service checks, with the reason: these are
 * documented in words (their description) and tested by their own suites.
 */
const UNDECLARABLE: Record<string, string> = {
  cursor: 'an opaque token: only a next_cursor the same query issued is accepted (its content is checked)',
  api_key: 'the key itself: checked against the key store (401), not its shape',
};

/** A number in a URL is written in decimal digits (what a client serializing an integer writes). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The value a validating proxy reads from the query text, by the declared type. */
function typed(schema: Json, text: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && DECIMAL.test(text)) return Number(text);
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

const list = (n: number, item: (i: number) => string): string => Array.from({ length: n }, (_, i) => item(i)).join(',');

/** Values on both sides of each rule the declared schema can state (and the rules the service had). */
function candidates(schema: Json): string[] {
  const out = new Set<string>(['', 'abc', '0', '1', '-1', '1.5', 'true', 'all', 'x'.repeat(200)]);
  const add = (...values: unknown[]): void => {
    for (const v of values) if (v !== undefined) out.add(String(v));
  };
  if (Array.isArray(schema.enum)) {
    add(...schema.enum, `${String(schema.enum[0])} `, String(schema.enum[0]).toUpperCase(), 'nope');
  }
  add(schema.default);
  if (Array.isArray(schema.examples)) add(...schema.examples);
  for (const bound of ['minimum', 'maximum'] as const) {
    const b = schema[bound];
    if (typeof b === 'number') add(b, b - 1, b + 1);
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    add('007', '-0', '1e2', '0x10', ' 5', '+5', '2.0', String(Number.MAX_SAFE_INTEGER), '9007199254740992', 'Infinity');
  }
  for (const bound of ['minLength', 'maxLength'] as const) {
    const b = schema[bound];
    if (typeof b === 'number') add('x'.repeat(Math.max(0, b - 1)), 'x'.repeat(b), 'x'.repeat(b + 1));
  }
  if (schema.format === 'date') {
    add('2026-03-01', '2024-02-29', '2026-02-29', '0000-02-29', '2026-13-01', '2026-3-1', '20260301');
    add('2026-03-01T00:00:00Z', '2026-02-30', '9999-12-31');
  }
  if (schema.format === 'date-time') {
    add('2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123456789Z', '2026-03-01t10:00:00z');
    add('2026-03-01T10:00:00+01:00', '2026-03-01T10:00:00-05:30', '2024-02-29T10:00:00Z', '0000-01-01T00:00:00Z');
    add('2026-03-01T10:00:00+0100', '2026-03-01 10:00:00Z', '2026-03-01T10:00Z', '2026-03-01T10:00:00');
    add('2026-02-30T10:00:00Z', '2026-03-01T24:00:00Z', '2026-02-28T23:59:60Z', '2026-03-01T10:00:00.Z');
    add('2026-03-01T10:00:00+24:00', '2026-03-01');
  }
  if (typeof schema.pattern === 'string') {
    // starts_within: each unit's edges; lists: counts, empty items, spaces, closed and open names.
    for (const [unit, max] of [
      ['m', 527_040],
      ['h', 8_784],
      ['d', 366],
    ] as const) {
      add(`1${unit}`, `0${unit}`, `01${unit}`, `${max}${unit}`, `${max + 1}${unit}`, `${unit}`, `1.5${unit}`);
    }
    add('30M', '1w', '-1h', '9999999m', '6h ');
    add('e1', 'e1,e2', 'e1,,e2', ',', 'e1,', ' e1 , e2 ', ' ');
    add(
      list(50, (i) => `e${i}`),
      list(51, (i) => `e${i}`),
    );
    add(
      'odds',
      'odds,score',
      'odds,nope',
      'heartbeat',
      'odds,odds',
      list(10, () => 'odds'),
      list(11, () => 'odds'),
    );
    add('1x2', '1x2,totals', '1X2', 'my_family', 'bad-family', 'x'.repeat(64), 'x'.repeat(65));
    add(
      list(100, (i) => `f${i}`),
      list(101, (i) => `f${i}`),
    );
  }
  return [...out];
}

/** A URL of the operation with every path parameter but `name` filled in, and `name`'s value placed. */
function urlOf(path: string, name: string, where: string, value: string): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, p: string) =>
    p === name && where === 'path' ? encodeURIComponent(value) : 'unknown-id',
  );
  return where === 'query' ? `${filled}?${encodeURIComponent(name)}=${encodeURIComponent(value)}` : filled;
}

/** A body the POST routes accept, so that only the parameter is judged. */
const BODIES: Record<string, unknown> = {
  '/v1/events/batch': { ids: ['unknown-id'] },
  '/v1/bets/check': { legs: [{ event_id: 'unknown-id', market: '1x2', outcome: 'home', odds: 2 }] },
};

describe('OpenAPI: every parameter is declared as strictly as the service checks it', () => {
  let svc: TestService;
  let base: string;
  let doc: Doc;
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);

  before(async () => {
    svc = await startService();
    base = await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
    doc = (await svc.inject<Doc>('GET', '/openapi.json', { key: null })).body;
  });
  after(() => svc.close());

  /** Whether the service refused the value, with a 400 naming the parameter. */
  async function refuses(method: string, path: string, p: Parameter, value: string): Promise<boolean> {
    const url = urlOf(path, p.name, p.in, value);
    const named = (status: number, message: unknown): boolean =>
      status === 400 && typeof message === 'string' && message.includes(`'${p.name}'`);
    if (path === '/v1/stream') {
      const opened = await SseClient.open(base, url, { 'x-api-key': DEMO_KEY });
      if (opened instanceof SseClient) {
        opened.close();
        return false;
      }
      return named(opened.status, opened.body.message);
    }
    const body = BODIES[path];
    const res = await svc.inject<{ message?: string }>(method.toUpperCase(), url, {
      ...(body !== undefined ? { body } : {}),
      ...(path.startsWith('/admin/') ? { key: null, headers: { 'x-admin-key': 'test-admin-key' } } : {}),
    });
    return named(res.status, res.body?.message);
  }

  it('accepts exactly the values each declared schema accepts, and refuses the others with 400', async () => {
    const disagreements: string[] = [];
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const p of op.parameters ?? []) {
          if (p.in !== 'query' && p.in !== 'path') continue;
          if (UNDECLARABLE[p.name] !== undefined) continue;
          const validate: ValidateFunction = ajv.compile(p.schema);
          let accepted = 0;
          let refused = 0;
          for (const value of candidates(p.schema)) {
            // A path parameter cannot be empty or hold a slash in a URL the router matches.
            if (p.in === 'path' && value === '') continue;
            const declared = validate(typed(p.schema, value));
            const service = !(await refuses(method, path, p, value));
            checked++;
            if (declared) accepted++;
            else refused++;
            if (declared !== service) {
              disagreements.push(
                `${method.toUpperCase()} ${path} ${p.in} '${p.name}'=${JSON.stringify(value.slice(0, 60))}: declared ${declared ? 'accepts' : 'refuses'}, service ${service ? 'accepts' : 'refuses'}`,
              );
            }
          }
          if (accepted === 0) disagreements.push(`${method} ${path} '${p.name}': no candidate value is accepted`);
          if (refused === 0) disagreements.push(`${method} ${path} '${p.name}': declared to accept any value`);
        }
      }
    }
    assert.deepEqual(disagreements, [], `${disagreements.length} of ${checked} values judged differently`);
    assert.ok(checked > 1000, `${checked} values checked`);
  });

  it('declares the catalog: sport keys (with all), sport ids, the stream event names', () => {
    const params = (path: string, method = 'get'): Record<string, Json> =>
      Object.fromEntries((doc.paths[path]?.[method]?.parameters ?? []).map((p) => [p.name, p.schema]));
    for (const path of ['/v1/events', '/v1/events/featured', '/v1/live', '/v1/scores', '/v1/stream']) {
      assert.deepEqual(params(path).sport?.enum, ['all', ...SPORT_KEYS], path);
    }
    const ids = SPORTS.map((s) => s.sportId).sort((a, b) => a - b);
    assert.deepEqual(
      ids,
      Array.from({ length: ids.length }, (_, i) => i + 1),
      'sport ids are 1..n, no gap',
    );
    assert.equal(params('/v1/outrights').sport_id?.minimum, 1);
    assert.equal(params('/v1/outrights').sport_id?.maximum, ids.length);
    const history = params('/v1/events/{eventId}/odds/history');
    assert.equal(history.market_id?.type, 'integer');
    assert.equal(history.selection_id?.type, 'integer');
    assert.equal(history.limit?.default, 200);
    assert.equal(history.from?.format, 'date-time');
    assert.equal(params('/v1/events/{eventId}/odds').at?.format, 'date-time');
    assert.equal(params('/v1/settlements').updated_since?.format, 'date-time');
    for (const name of ['date', 'from', 'to']) assert.equal(params('/v1/events')[name]?.format, 'date', name);
  });
});

describe('a refused pattern is told in words', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  it('names the list item at fault or the count, and shows a refused value with the rule', async () => {
    const ids51 = list(51, (i) => `e${i}`);
    const cases: Array<[string, RegExp]> = [
      ['/v1/stream?types=odds,nonsense', /^query parameter 'types' has an unknown event name 'nonsense' \(/],
      ['/v1/settlements?event_ids=a,,b', /^query parameter 'event_ids' has an empty item \(/],
      [
        `/v1/settlements/outrights?tournament_ids=${ids51}`,
        /^query parameter 'tournament_ids' lists 51 ids; at most 50/,
      ],
      ['/v1/events?starts_within=0m', /^query parameter 'starts_within' is not valid \(got '0m'\): \{n\}\{m\|h\|d\}/],
      ['/v1/events?date=2026-02-30', /^query parameter 'date' is not valid \(got '2026-02-30'\): YYYY-MM-DD/],
    ];
    for (const [url, message] of cases) {
      const r = await svc.get<{ error: string; message: string }>(url);
      assert.equal(r.status, 400, url);
      assert.match(r.body.message, message, url);
    }
  });
});

describe('oneToPattern: the whole numbers 1 to max, no leading zero', () => {
  it('matches exactly 1..max for many maxima', () => {
    for (const max of [1, 9, 10, 11, 19, 20, 99, 100, 101, 366, 999, 1000, 8784, 527_040]) {
      const re = new RegExp(`^${oneToPattern(max)}$`);
      for (let n = 0; n <= max + 50; n++) assert.equal(re.test(String(n)), n >= 1 && n <= max, `${n} of 1..${max}`);
      assert.equal(re.test('01'), false);
    }
  });
});
