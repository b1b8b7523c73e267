// Content codings (decisions.md "Real-time delivery"): br and gzip for JSON of 1 KB or more, by Accept-Encoding, with Vary; cached payloads compressed once per change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decoded, deepMarkets, deepOver, metric, tokens } from '../helpers/codings.js';
import {
  at,
  DAY,
  feedOk,
  fixture,
  HOUR,
  MINUTE,
  odds,
  prematchEvent,
  startService,
  type InjectOptions,
  type Reply,
  type TestService,
} from '../helpers/service.js';
import { SPORTS } from '../../src/domain/sports.js';

/** One fixture in every sport, each in a league of its own: /v1/sports and /v1/leagues pass 1 KB. */
function everySport(): object[] {
  return SPORTS.map((s, i) =>
    fixture(`sport-${s.key}`, {
      sport: s.key,
      league: { slug: `league-${s.key.replace(/_/g, '-')}`, name: `League of ${s.name}`, country: `Country ${i}` },
      start_time: at(2 * HOUR + i * MINUTE),
    }),
  );
}

/** A game played and ended with 2-1: its settlement entry resolves 1x2 and six totals lines (> 1 KB). */
function settledGame(id: string): object[] {
  const start = -2 * HOUR;
  const lines = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5];
  return [
    fixture(id, { start_time: at(start), ts: at(start - DAY) }),
    {
      type: 'markets',
      event_id: id,
      ts: at(start - DAY),
      markets: [
        {
          market_id: 1,
          key: '1x2',
          name: 'Match Result',
          outcomes: [
            { selection_id: 11, code: 'home', label: 'Home', odds: 2.1 },
            { selection_id: 12, code: 'draw', label: 'Draw', odds: 3.4 },
            { selection_id: 13, code: 'away', label: 'Away', odds: 3.6 },
          ],
        },
        ...lines.map((l, i) => ({
          market_id: 10 + i,
          key: `totals:${l}`,
          name: `Total Goals ${l}`,
          outcomes: [
            { selection_id: 100 + 2 * i, code: 'over', label: `Over ${l}`, odds: 1.9 },
            { selection_id: 101 + 2 * i, code: 'under', label: `Under ${l}`, odds: 1.9 },
          ],
        })),
      ],
    },
    { type: 'status', event_id: id, status: 'live', ts: at(start) },
    {
      type: 'result',
      event_id: id,
      status: 'ended',
      score: { home: 2, away: 1 },
      ended_at: at(start + 115 * MINUTE),
      ts: at(start + 115 * MINUTE),
    },
  ];
}

/** The JSON reads of 1 KB or more: cached payloads (odds in three formats, detail, list pages, batch) and others. */
const LARGE_READS: Array<{ method: 'GET' | 'POST'; url: string; body?: unknown }> = [
  { method: 'GET', url: '/v1/events/deep/odds' },
  { method: 'GET', url: '/v1/events/deep/odds?odds_format=american' },
  { method: 'GET', url: '/v1/events/deep/odds?odds_format=fractional' },
  { method: 'GET', url: '/v1/events/deep' },
  { method: 'GET', url: '/v1/events?status=all&limit=200' },
  { method: 'GET', url: '/v1/events?starts_within=1d' },
  { method: 'POST', url: '/v1/events/batch', body: { ids: ['deep', 'small', 'missing'] } },
  { method: 'GET', url: '/v1/events/featured?limit=30' },
  { method: 'GET', url: '/v1/sports' },
  { method: 'GET', url: '/v1/leagues' },
  { method: 'GET', url: '/v1/settlements' },
];

async function world(svc: TestService): Promise<void> {
  await feedOk(svc, [
    fixture('deep', { start_time: at(HOUR) }),
    deepMarkets('deep', 100),
    ...prematchEvent('small'),
    ...everySport(),
    ...settledGame('done'),
  ]);
  await svc.service.settlement.idle();
}

const read = (
  svc: TestService,
  r: { method: 'GET' | 'POST' | 'HEAD'; url: string; body?: unknown },
  headers: Record<string, string> = {},
): Promise<Reply> => {
  const opts: InjectOptions = { headers };
  if (r.body !== undefined) opts.body = r.body;
  return svc.inject(r.method, r.url, opts);
};

describe('content codings without CORS', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await world(svc);
  });
  after(() => svc.close());

  test('every coding decodes to exactly the identity bytes, cached payloads and others alike', async () => {
    for (const r of LARGE_READS) {
      const plain = await read(svc, r);
      assert.equal(plain.status, 200, `${r.url}: ${plain.text}`);
      assert.equal(plain.headers['content-encoding'], undefined, r.url);
      assert.ok(plain.raw.length >= 1024, `${r.url} is ${plain.raw.length} bytes: the test needs 1 KB or more`);
      for (const coding of ['br', 'gzip']) {
        const res = await read(svc, r, { 'accept-encoding': coding });
        assert.equal(res.status, 200, `${r.url} ${coding}`);
        assert.equal(res.headers['content-encoding'], coding, `${r.url} ${coding}`);
        assert.match(String(res.headers['content-type']), /^application\/json/, r.url);
        assert.ok(res.raw.length < plain.raw.length, `${r.url} ${coding}: ${res.raw.length} vs ${plain.raw.length}`);
        assert.equal(Number(res.headers['content-length']), res.raw.length, `${r.url} ${coding}: Content-Length`);
        assert.ok(decoded(res).equals(plain.raw), `${r.url} ${coding} decodes to the identity bytes`);
      }
    }
  });

  test('a body under 1 KB is sent as it is, without Vary', async () => {
    const res = await svc.get('/v1/events/small/odds', { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(res.status, 200);
    assert.ok(res.raw.length < 1024, `the small odds payload is ${res.raw.length} bytes`);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers.vary, undefined);
    const result = await svc.get('/v1/events/done/result', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(result.status, 200);
    assert.equal(result.headers['content-encoding'], undefined);
  });

  test('the coding follows q-values, identity and * (a q=0 coding is never sent)', async () => {
    const table: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['deflate', undefined],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['GZIP', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['br;q=0, *', 'gzip'],
      ['br;q=0, gzip;q=0, *', undefined],
      ['*', 'br'],
      ['*;q=0', undefined],
      ['identity;q=0', undefined],
      ['gzip;q=0.5, br;q=0.8', 'br'],
      ['gzip, br;q=0.5', 'gzip'],
      ['br;q=0.1', 'br'],
      // RFC 9110 8.4.1.3: x-gzip is gzip.
      ['x-gzip', 'gzip'],
      ['X-GZIP;q=0.8, br;q=0.5', 'gzip'],
      ['deflate, x-gzip;q=0.5', 'gzip'],
    ];
    for (const url of ['/v1/events/deep/odds', '/v1/sports']) {
      const identity = (await svc.get(url)).raw;
      for (const [header, expected] of table) {
        const res = await svc.get(url, header === undefined ? {} : { headers: { 'accept-encoding': header } });
        const label = `${url} Accept-Encoding: ${JSON.stringify(header)}`;
        assert.equal(res.status, 200, label);
        assert.equal(res.headers['content-encoding'], expected, label);
        assert.ok(decoded(res).equals(identity), label);
        assert.deepEqual(tokens(res.headers.vary), ['accept-encoding'], label);
      }
    }
  });

  test('Vary is Accept-Encoding alone, on identity and coded answers and on a 304', async () => {
    const br = await svc.get('/v1/events/deep/odds', { headers: { 'accept-encoding': 'br' } });
    assert.equal(br.headers.vary, 'Accept-Encoding');
    const none = await svc.get('/v1/events/deep/odds');
    assert.equal(none.headers.vary, 'Accept-Encoding');
    const sports = await svc.get('/v1/sports', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(sports.headers.vary, 'Accept-Encoding');
    const notModified = await svc.get('/v1/events/deep/odds', {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.vary, 'Accept-Encoding');
    // A tag from the bytes (not a cached payload) also names its coding.
    const plainSports = await svc.get('/v1/sports');
    assert.notEqual(sports.headers.etag, plainSports.headers.etag);
    const sports304 = await svc.get('/v1/sports', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(sports.headers.etag) },
    });
    assert.equal(sports304.status, 304);
    assert.equal(sports304.headers.vary, 'Accept-Encoding');
    assert.equal(sports304.headers.etag, sports.headers.etag);
  });

  test('HEAD answers the headers of GET, coding included, with no body', async () => {
    for (const url of ['/v1/events/deep/odds', '/v1/events/deep', '/v1/sports']) {
      const headers = { 'accept-encoding': 'br' };
      const get = await svc.get(url, { headers });
      const head = await svc.inject('HEAD', url, { headers });
      assert.equal(head.status, 200, url);
      assert.equal(head.raw.length, 0, url);
      assert.equal(head.headers['content-encoding'], 'br', url);
      assert.equal(head.headers['content-length'], String(get.raw.length), url);
      assert.equal(head.headers.etag, get.headers.etag, url);
      assert.equal(head.headers.vary, 'Accept-Encoding', url);
    }
  });

  test('an error stays a JSON {error, message}, whatever the coding asked for', async () => {
    const res = await svc.get<{ error: string; message: string }>('/v1/events/nope/odds', {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    assert.equal(res.status, 404);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    assert.equal(res.body.error, 'not_found');
    assert.equal(res.headers.etag, undefined);
  });

  test('cached payloads are compressed once per change and reused; a price change rebuilds them', async () => {
    const br = { 'accept-encoding': 'br' };
    const gzip = { 'accept-encoding': 'gzip' };
    // A change first, so that no earlier test's forms are current.
    const url = '/v1/events/deep/odds?odds_format=american';
    svc.clock.advance(MINUTE);
    await feedOk(svc, [odds('deep', [{ selection_id: deepOver(1), odds: 2.5 }])]);
    await svc.get(url);
    const builds = await metric(svc, 'read_model_payload_compressions');
    const reuses = await metric(svc, 'read_model_payload_compression_reuses');
    const first = await svc.get(url, { headers: br });
    for (let i = 0; i < 3; i++) assert.ok((await svc.get(url, { headers: br })).raw.equals(first.raw));
    assert.equal(await metric(svc, 'read_model_payload_compressions'), builds + 1, 'one br build');
    assert.equal(await metric(svc, 'read_model_payload_compression_reuses'), reuses + 3, 'three reuses');
    await svc.get(url, { headers: gzip });
    await svc.get(url, { headers: gzip });
    assert.equal(await metric(svc, 'read_model_payload_compressions'), builds + 2, 'one gzip build');
    assert.ok((await metric(svc, 'read_model_payload_compressed_bytes')) > 0);

    svc.clock.advance(MINUTE);
    await feedOk(svc, [odds('deep', [{ selection_id: deepOver(0), odds: 3.25 }])]);
    const changed = await svc.get(url, { headers: br });
    assert.equal(await metric(svc, 'read_model_payload_compressions'), builds + 3, 'rebuilt after the change');
    const identity = (await svc.get(url)).raw;
    assert.ok(decoded(changed).equals(identity), 'the rebuilt form decodes to the new bytes');
    assert.match(identity.toString(), /"odds":225,/);
    await svc.get(url, { headers: br });
    assert.equal(await metric(svc, 'read_model_payload_compressions'), builds + 3, 'and reused again');

    // A list page: built once per change of the list too.
    const list = '/v1/events?status=all&limit=200&odds_format=fractional';
    await svc.get(list, { headers: br });
    const listBuilds = await metric(svc, 'read_model_payload_compressions');
    await svc.get(list, { headers: br });
    assert.equal(await metric(svc, 'read_model_payload_compressions'), listBuilds);
  });

  test('the compressed forms count in the payload cache and leave it with their payload', async () => {
    const cacheBefore = await metric(svc, 'read_model_payload_cache_bytes');
    await feedOk(svc, [fixture('other', { start_time: at(3 * HOUR) }), deepMarkets('other', 80)]);
    const plain = await svc.get('/v1/events/other/odds');
    const afterIdentity = await metric(svc, 'read_model_payload_cache_bytes');
    assert.equal(afterIdentity, cacheBefore + plain.raw.length);
    const br = await svc.get('/v1/events/other/odds', { headers: { 'accept-encoding': 'br' } });
    assert.equal(await metric(svc, 'read_model_payload_cache_bytes'), afterIdentity + br.raw.length);
    // A change of shape (a market withdrawn) frees the event's payloads, compressed forms included.
    await feedOk(svc, [{ type: 'remove_markets', event_id: 'other', market_ids: [100] }]);
    assert.equal(await metric(svc, 'read_model_payload_cache_bytes'), cacheBefore);
  });
});

describe('content codings with CORS', () => {
  const APP = 'https://app.example.com';
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { CORS_ORIGINS: APP } });
    await feedOk(svc, [fixture('deep', { start_time: at(HOUR) }), deepMarkets('deep', 100), ...everySport()]);
  });
  after(() => svc.close());

  test('Vary keeps Origin and adds Accept-Encoding, each once', async () => {
    for (const url of ['/v1/events/deep/odds', '/v1/events/deep', '/v1/sports']) {
      for (const coding of ['br', 'gzip', 'identity']) {
        const res = await svc.get(url, { headers: { origin: APP, 'accept-encoding': coding } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], APP);
        assert.deepEqual(tokens(res.headers.vary).sort(), ['accept-encoding', 'origin'], `${url} ${coding}`);
        const again = await svc.get(url, {
          headers: { origin: APP, 'accept-encoding': coding, 'if-none-match': String(res.headers.etag) },
        });
        assert.equal(again.status, 304, `${url} ${coding}`);
        assert.deepEqual(tokens(again.headers.vary).sort(), ['accept-encoding', 'origin'], `${url} ${coding} 304`);
      }
    }
    // A small answer varies on Origin only.
    const small = await svc.get('/v1/events/sport-soccer/odds', { headers: { origin: APP, 'accept-encoding': 'br' } });
    assert.deepEqual(tokens(small.headers.vary), ['origin']);
  });
});
