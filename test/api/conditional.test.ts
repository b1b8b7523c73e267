// ETag and If-None-Match on cacheable reads (decisions.md "Real-time delivery"): 304 with no body, a new tag after a change, counted like any request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { outrightMarket, outrightResult, tournament } from '../helpers/outrights.js';
import { deepMarkets, deepOver, tokens } from '../helpers/codings.js';
import {
  at,
  feedOk,
  fixture,
  HOUR,
  MINUTE,
  odds,
  prematchEvent,
  result,
  score,
  SEL,
  startService,
  status,
  type InjectOptions,
  type Reply,
  type TestService,
} from '../helpers/service.js';
import { keyOn, TEST_PLANS, usageOf } from '../helpers/usage.js';

interface Read {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

/** Every cacheable read: cached payloads (tags from their version) and the others (tags from their bytes). */
const CACHEABLE: Read[] = [
  { method: 'GET', url: '/v1/events' },
  { method: 'GET', url: '/v1/events?status=all&odds_format=american' },
  { method: 'GET', url: '/v1/events?starts_within=2h' },
  { method: 'GET', url: '/v1/live' },
  { method: 'GET', url: '/v1/events/deep' },
  { method: 'GET', url: '/v1/events/deep/odds' },
  { method: 'GET', url: '/v1/events/small/odds?odds_format=fractional' },
  { method: 'POST', url: '/v1/events/batch', body: { ids: ['deep', 'small'] } },
  { method: 'GET', url: '/v1/events/done/result' },
  { method: 'GET', url: '/v1/events/small/result' },
  { method: 'GET', url: '/v1/settlements' },
  { method: 'GET', url: '/v1/settlements/outrights' },
  { method: 'GET', url: '/v1/leagues' },
  { method: 'GET', url: '/v1/sports' },
  // Other reads clients poll (docs/api.md, "ETag"): tagged from their bytes.
  { method: 'GET', url: '/v1/events/featured' },
  { method: 'GET', url: '/v1/scores' },
  { method: 'GET', url: '/v1/outrights' },
  { method: 'GET', url: '/v1/outrights?sport_id=1&odds_format=fractional' },
  { method: 'GET', url: '/v1/outrights/sports' },
  { method: 'GET', url: '/v1/events/deep/odds/history' },
  { method: 'GET', url: `/v1/events/deep/odds?at=${at(0)}` },
];

function call(svc: TestService, r: Read, headers: Record<string, string> = {}, key?: string): Promise<Reply> {
  const opts: InjectOptions = { headers };
  if (r.body !== undefined) opts.body = r.body;
  if (key !== undefined) opts.key = key;
  return svc.inject(r.method, r.url, opts);
}

const label = (r: Read): string => `${r.method} ${r.url}`;

describe('ETag and If-None-Match', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
    await feedOk(svc, [
      fixture('deep', { start_time: at(HOUR) }),
      deepMarkets('deep', 20),
      ...prematchEvent('small'),
      fixture('live', { start_time: at(-30 * MINUTE) }),
      status('live', 'live'),
      fixture('done', { start_time: at(-2 * HOUR) }),
      status('done', 'live'),
      result('done', 2, 1),
      tournament('cup', 'soccer', 'Cup'),
      outrightMarket('cup', 10, [
        [101, 'A', 2],
        [102, 'B', 3],
      ]),
      outrightResult('cup', 10, [101]),
      tournament('open', 'tennis', 'Open'),
      outrightMarket('open', 20, [
        [201, 'C', 1.5],
        [202, 'D', 4],
      ]),
    ]);
    await svc.service.settlement.idle();
  });
  after(() => svc.close());

  test('every cacheable read carries a strong ETag, the same while its bytes do not change', async () => {
    for (const r of CACHEABLE) {
      const first = await call(svc, r);
      assert.equal(first.status, 200, `${label(r)}: ${first.text}`);
      const etag = first.headers.etag;
      assert.match(String(etag), /^"[!#-~]+"$/, `${label(r)}: strong ETag, got ${String(etag)}`);
      const second = await call(svc, r);
      assert.equal(second.headers.etag, etag, label(r));
      assert.ok(second.raw.equals(first.raw), label(r));
    }
  });

  test('a matching If-None-Match is answered 304 with no body and the same ETag', async () => {
    for (const r of CACHEABLE) {
      const etag = String((await call(svc, r)).headers.etag);
      const res = await call(svc, r, { 'if-none-match': etag });
      assert.equal(res.status, 304, label(r));
      assert.equal(res.raw.length, 0, label(r));
      assert.equal(res.headers.etag, etag, label(r));
      assert.equal(res.headers['content-encoding'], undefined, label(r));
    }
  });

  test('HEAD is answered 304 too, with no body', async () => {
    for (const url of ['/v1/events/deep/odds', '/v1/events', '/v1/sports', '/v1/settlements']) {
      const get = await svc.get(url);
      const head = await svc.inject('HEAD', url, { headers: { 'if-none-match': String(get.headers.etag) } });
      assert.equal(head.status, 304, url);
      assert.equal(head.raw.length, 0, url);
      assert.equal(head.headers.etag, get.headers.etag, url);
      const full = await svc.inject('HEAD', url);
      assert.equal(full.status, 200, url);
      assert.equal(full.headers['content-length'], String(get.raw.length), url);
    }
  });

  test('lists, weak tags and * match; other tags do not', async () => {
    const r = CACHEABLE.find((x) => x.url === '/v1/events/deep/odds')!;
    const etag = String((await call(svc, r)).headers.etag);
    const cases: Array<[string, number]> = [
      [etag, 304],
      [`W/${etag}`, 304],
      [`"other", ${etag}`, 304],
      [`"other",${etag} , "more"`, 304],
      [`W/"other", W/${etag}`, 304],
      ['*', 304],
      ['"other"', 200],
      [etag.slice(0, -2) + '"', 200],
      [etag.slice(1, -1), 200],
      ['', 200],
    ];
    for (const [header, expected] of cases) {
      const res = await call(svc, r, { 'if-none-match': header });
      assert.equal(res.status, expected, `If-None-Match: ${header}`);
    }
    for (const sports of ['/v1/sports', '/v1/events/done/result']) {
      const tag = String((await svc.get(sports)).headers.etag);
      assert.equal((await svc.get(sports, { headers: { 'if-none-match': `"x", W/${tag}` } })).status, 304);
      assert.equal((await svc.get(sports, { headers: { 'if-none-match': '*' } })).status, 304);
      assert.equal((await svc.get(sports, { headers: { 'if-none-match': '"x"' } })).status, 200);
    }
  });

  test('each content coding has a tag of its own, matched only for that coding', async () => {
    for (const r of CACHEABLE.filter((x) => ['/v1/events/deep/odds', '/v1/events/deep'].includes(x.url))) {
      const identity = await call(svc, r);
      const br = await call(svc, r, { 'accept-encoding': 'br' });
      const gzip = await call(svc, r, { 'accept-encoding': 'gzip' });
      assert.equal(br.headers['content-encoding'], 'br');
      const tags = new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]);
      assert.equal(tags.size, 3, `${label(r)}: ${[...tags].join(' ')}`);
      const brTag = String(br.headers.etag);
      const hit = await call(svc, r, { 'accept-encoding': 'br', 'if-none-match': brTag });
      assert.equal(hit.status, 304);
      assert.equal(hit.headers.etag, brTag);
      assert.deepEqual(tokens(hit.headers.vary), ['accept-encoding']);
      // The identity tag does not validate the br representation (nor the reverse).
      const miss = await call(svc, r, { 'accept-encoding': 'br', 'if-none-match': String(identity.headers.etag) });
      assert.equal(miss.status, 200);
      assert.equal(miss.headers['content-encoding'], 'br');
      assert.equal((await call(svc, r, { 'if-none-match': brTag })).status, 200);
    }
  });

  test('after a price change: 200 with a new ETag for the event payloads, list and batch; the new tag matches', async () => {
    const reads = CACHEABLE.filter((r) =>
      ['/v1/events', '/v1/events/deep', '/v1/events/deep/odds', '/v1/events/batch'].includes(r.url),
    );
    const before = new Map<Read, string>();
    for (const r of reads) before.set(r, String((await call(svc, r)).headers.etag));
    svc.clock.advance(MINUTE);
    await feedOk(svc, [
      odds('deep', [{ selection_id: deepOver(3), odds: 4.5 }]),
      odds('small', [{ selection_id: SEL.home, odds: 2.75 }]),
    ]);
    for (const r of reads) {
      const old = before.get(r)!;
      const res = await call(svc, r, { 'if-none-match': old });
      assert.equal(res.status, 200, label(r));
      assert.notEqual(res.headers.etag, old, label(r));
      assert.match(res.text, /4\.5|2\.75/, `${label(r)} shows the new price`);
      const again = await call(svc, r, { 'if-none-match': String(res.headers.etag) });
      assert.equal(again.status, 304, label(r));
    }
  });

  test('scores, featured and outrights: a change gives a new tag and a 200', async () => {
    const reads = ['/v1/scores', '/v1/events/featured', '/v1/outrights'];
    const tags = new Map<string, string>();
    for (const url of reads) tags.set(url, String((await svc.get(url)).headers.etag));
    svc.clock.advance(MINUTE);
    await feedOk(svc, [
      score('live', 1, 0, { period: '1H', clock: '31:00' }),
      odds('small', [{ selection_id: SEL.away, odds: 5.5 }]),
      outrightMarket('open', 20, [
        [201, 'C', 1.6],
        [202, 'D', 3.5],
      ]),
    ]);
    for (const url of reads) {
      const res = await svc.get(url, { headers: { 'if-none-match': tags.get(url)! } });
      assert.equal(res.status, 200, url);
      assert.notEqual(res.headers.etag, tags.get(url), url);
      assert.equal((await svc.get(url, { headers: { 'if-none-match': String(res.headers.etag) } })).status, 304, url);
    }
  });

  test('errors carry no ETag and are never 304', async () => {
    const res = await svc.get('/v1/events/nope/odds', { headers: { 'if-none-match': '*' } });
    assert.equal(res.status, 404);
    assert.equal(res.headers.etag, undefined);
    const bad = await svc.get('/v1/settlements?limit=0', { headers: { 'if-none-match': '*' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.headers.etag, undefined);
  });

  test('a 304 counts against the quota like any request, with its X-RateLimit headers', async () => {
    const key = await keyOn(svc, 'meter');
    for (const r of CACHEABLE) {
      const etag = String((await call(svc, r, {}, key)).headers.etag);
      const before = (await usageOf(svc, key)).current.this_month;
      const res = await call(svc, r, { 'if-none-match': etag }, key);
      assert.equal(res.status, 304, label(r));
      assert.ok(res.headers['x-ratelimit-remaining'] !== undefined, `${label(r)}: X-RateLimit-Remaining`);
      const after = (await usageOf(svc, key)).current;
      // The usage read counts itself.
      assert.equal(after.this_month, before + 2, label(r));
      assert.equal(after.errors_today, 0, `${label(r)}: a 304 is not an error`);
    }
  });
});
