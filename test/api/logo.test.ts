// GET /api/logo/{id}: public PNG, cacheable (Cache-Control, ETag, 304), placeholder for unknown ids, linked from events.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { feedOk, fixture, startService, type TestService } from '../helpers/service.js';
import type { EventList } from '../helpers/payloads.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('GET /api/logo/{logoId}', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('answers a PNG without any key', async () => {
    const res = await svc.get('/api/logo/default', { key: null });
    assert.equal(res.status, 200);
    assert.equal(String(res.headers['content-type']).split(';')[0], 'image/png');
    assert.deepEqual(res.raw.subarray(0, 8), PNG_SIGNATURE);
    const image = PNG.sync.read(res.raw);
    assert.ok(image.width > 0 && image.height > 0);
  });

  test('an invalid client key does not matter: logos are used in <img>', async () => {
    const res = await svc.get('/api/logo/default', { key: 'bogus' });
    assert.equal(res.status, 200);
  });

  test('is cacheable: Cache-Control with max-age and an ETag', async () => {
    const res = await svc.get('/api/logo/default', { key: null });
    assert.match(String(res.headers['cache-control']), /max-age=\d+/);
    assert.match(String(res.headers['cache-control']), /public/);
    assert.match(String(res.headers.etag), /^(W\/)?"[^"]+"$/);
  });

  test('a matching If-None-Match answers 304 without a body; a stale one answers the image', async () => {
    const first = await svc.get('/api/logo/default', { key: null });
    const etag = String(first.headers.etag);
    const cached = await svc.get('/api/logo/default', { key: null, headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.raw.length, 0);
    assert.equal(cached.headers.etag, etag);
    const listed = await svc.get('/api/logo/default', { key: null, headers: { 'if-none-match': `"other", ${etag}` } });
    assert.equal(listed.status, 304);
    // If-None-Match compares weakly (RFC 9110 13.1.2): a W/ tag a cache or browser sends back matches too.
    for (const header of [`W/${etag}`, `"other",${etag}`, `W/"other", W/${etag}`, '*']) {
      const hit = await svc.get('/api/logo/default', { key: null, headers: { 'if-none-match': header } });
      assert.equal(hit.status, 304, `If-None-Match: ${header}`);
    }
    for (const header of [etag.slice(1, -1), `${etag}x`, '']) {
      const miss = await svc.get('/api/logo/default', { key: null, headers: { 'if-none-match': header } });
      assert.equal(miss.status, 200, `If-None-Match: ${header}`);
    }
    const stale = await svc.get('/api/logo/default', { key: null, headers: { 'if-none-match': '"something-else"' } });
    assert.equal(stale.status, 200);
    assert.deepEqual(stale.raw, first.raw);
  });

  test('an unknown logo id answers the default placeholder with 200', async () => {
    const placeholder = await svc.get('/api/logo/default', { key: null });
    const unknown = await svc.get('/api/logo/no-such-team-logo', { key: null });
    assert.equal(unknown.status, 200);
    assert.equal(String(unknown.headers['content-type']).split(';')[0], 'image/png');
    assert.deepEqual(unknown.raw, placeholder.raw);
    assert.equal(unknown.headers.etag, placeholder.headers.etag);
  });

  test('the logo URLs of an event point at this endpoint and resolve', async () => {
    await feedOk(svc, [fixture('ev', { home_logo_id: 'arsenal' })]);
    const item = (await svc.get<EventList>('/v1/events')).body.events[0];
    assert.ok(item);
    for (const url of [item.home_logo, item.away_logo]) {
      const u = new URL(url);
      assert.match(u.pathname, /^\/api\/logo\/[^/]+$/);
      const res = await svc.get(u.pathname, { key: null });
      assert.equal(res.status, 200, url);
      assert.deepEqual(res.raw.subarray(0, 8), PNG_SIGNATURE);
    }
    assert.ok(item.home_logo.endsWith('/api/logo/arsenal'));
  });

  test('a logo id named by a fixture gets its own badge, cacheable like the placeholder', async () => {
    await feedOk(svc, [fixture('badge', { home_logo_id: 'chelsea_fc', away_logo_id: 'spurs-1' })]);
    const placeholder = await svc.get('/api/logo/default', { key: null });
    const home = await svc.get('/api/logo/chelsea_fc', { key: null });
    const away = await svc.get('/api/logo/spurs-1', { key: null });
    for (const res of [home, away]) {
      assert.equal(res.status, 200);
      assert.deepEqual(res.raw.subarray(0, 8), PNG_SIGNATURE);
      assert.notEqual(res.headers.etag, placeholder.headers.etag);
    }
    assert.notEqual(home.headers.etag, away.headers.etag);
    const again = await svc.get('/api/logo/chelsea_fc', {
      key: null,
      headers: { 'if-none-match': String(home.headers.etag) },
    });
    assert.equal(again.status, 304);
  });

  test('logo URLs use PUBLIC_URL when it is configured', async () => {
    const other = await startService({ env: { PUBLIC_URL: 'https://data.example.com/' } });
    try {
      await feedOk(other, [fixture('ev', { home_logo_id: 'arsenal' })]);
      const item = (await other.get<EventList>('/v1/events')).body.events[0];
      assert.equal(item?.home_logo, 'https://data.example.com/api/logo/arsenal');
    } finally {
      await other.close();
    }
  });
});
