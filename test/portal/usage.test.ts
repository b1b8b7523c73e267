// The usage, getting-started and explorer pages, the portal's static files and error pages; portal traffic is never metered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';
import { TEST_PLANS, usageOf } from '../helpers/usage.js';
import { PortalClient, signedUp } from './portal-client.js';

const today = '2026-03-01';

describe('portal usage page', () => {
  let svc: TestService;
  let ann: PortalClient;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
    ann = await signedUp(svc, 'ann@example.com');
  });
  after(() => svc.close());

  test('without keys the page says how to get some', async () => {
    const page = await ann.get('/portal/usage');
    assert.equal(page.status, 200);
    assert.match(page.text, /No keys yet/);
  });

  test('the chart’s data, the quota bar and the counts follow the key’s requests', async () => {
    const { id, secret } = await ann.createKey('meter key');
    await svc.service.keyAdmin.setPlan(id, 'meter');
    const before = await ann.get(`/portal/usage?key=${id}`);
    assert.match(before.text, new RegExp(`<tr data-date="${today}" data-requests="0" data-errors="0">`));

    for (let i = 0; i < 6; i++) await svc.get('/v1/sports', { key: secret });
    await svc.get('/v1/events/nope', { key: secret });
    const page = await ann.get(`/portal/usage?key=${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`<tr data-date="${today}" data-requests="7" data-errors="1">`));
    assert.match(page.text, /<figure class="chart" data-days-in-month="31" data-month-total="7">/);
    assert.match(
      page.text,
      /<canvas id="usage-chart" role="img" aria-label="Bar chart of daily requests in March 2026: 7 in total/,
    );
    assert.match(page.text, /<progress id="quota-bar" max="1000000" value="7"/);
    assert.match(page.text, /7<\/span> of 1,000,000 requests used this month/);
    assert.match(page.text, /No active warnings/);
    assert.match(page.text, /<script src="\/portal\/assets\/chart\.umd\.min\.js\?v=[0-9a-f]{12}" defer><\/script>/);
    assert.equal(
      (await usageOf(svc, secret)).current.this_month,
      8,
      'the portal shows what /v1/usage counts (plus itself)',
    );
  });

  test('reading the usage page counts nothing', async () => {
    const { id, secret } = await ann.createKey('quiet');
    await svc.service.keyAdmin.setPlan(id, 'meter');
    for (let i = 0; i < 3; i++) await ann.get(`/portal/usage?key=${id}`);
    await ann.get('/portal/keys');
    await ann.get('/portal/explorer');
    assert.equal((await usageOf(svc, secret)).current.this_month, 1);
  });

  test('warnings of the quota show with their level', async () => {
    const { id, secret } = await ann.createKey('tiny key');
    await svc.service.keyAdmin.setPlan(id, 'tiny');
    for (let i = 0; i < 10; i++) await svc.get('/v1/sports', { key: secret });
    const page = await ann.get(`/portal/usage?key=${id}`);
    assert.match(page.text, /<li class="warning warning-blocked"><span class="badge">blocked<\/span>/);
    assert.match(page.text, /<progress id="quota-bar" max="10" value="10"/);
    assert.match(page.text, /\(100%\), 0 left/);
  });

  test('the key picker lists the account’s keys with the chosen one selected', async () => {
    const keys = await svc.service.keyAdmin.listOfAccount(
      (await svc.service.store.findAccountByEmail('ann@example.com'))?.id ?? '',
    );
    const chosen = keys[1];
    assert.ok(chosen !== undefined);
    const page = await ann.get(`/portal/usage?key=${chosen.id}`);
    assert.match(page.text, new RegExp(`<option value="${chosen.id}" selected>`));
    assert.equal(page.text.match(/<option value="key_/g)?.length, keys.length);
  });
});

describe('portal pages and files', () => {
  let svc: TestService;
  let ann: PortalClient;
  before(async () => {
    svc = await startService({ env: { PUBLIC_URL: 'https://sports.example.com' } });
    const client = new PortalClient(svc);
    await client.get('/portal');
    const reply = await client.post('/portal/sign-up', {
      fields: { email: 'ann@example.com', password: 'correct horse battery staple' },
    });
    assert.equal(reply.status, 303);
    ann = client;
  });
  after(() => svc.close());

  test('getting started shows curl examples against the service’s own address and links to /docs', async () => {
    const page = await new PortalClient(svc).get('/portal/start');
    assert.equal(page.status, 200, 'public');
    assert.match(
      page.text,
      /curl -s -H &quot;X-API-Key: \$SDS_KEY&quot; &quot;https:\/\/sports\.example\.com\/v1\/sports&quot;/,
    );
    assert.match(page.text, /curl -s &quot;https:\/\/sports\.example\.com\/v1\/status&quot;/);
    assert.match(page.text, /<a href="\/docs">API reference<\/a>/);
    assert.match(page.text, /<th scope="row">free<\/th> <td>10,000<\/td> <td>5<\/td>/);
  });

  test('the explorer offers the account’s active keys and the GET endpoints of /v1 with their parameters', async () => {
    const { id } = await ann.createKey('explorer key');
    const page = await ann.get(`/portal/explorer?key=${id}`);
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`<option value="${id}" selected>explorer key \\(${id}\\)</option>`));
    assert.match(page.text, /<p id="ex-status" role="status" aria-live="polite">/);
    const data = /<script type="application\/json" id="explorer-endpoints">(.*?)<\/script>/s.exec(page.text)?.[1];
    const endpoints = JSON.parse(data ?? '[]') as Array<{ path: string; params: Array<{ name: string; in: string }> }>;
    const paths = endpoints.map((e) => e.path);
    assert.ok(
      paths.includes('/v1/events') && paths.includes('/v1/usage') && paths.includes('/v1/events/{eventId}/odds'),
    );
    assert.ok(!paths.some((p) => p.startsWith('/portal')));
    const events = endpoints.find((e) => e.path === '/v1/events');
    assert.ok(events?.params.some((p) => p.name === 'status' && p.in === 'query'));
    const odds = endpoints.find((e) => e.path === '/v1/events/{eventId}/odds');
    assert.ok(odds?.params.some((p) => p.name === 'eventId' && p.in === 'path'));
  });

  test('portal routes stay out of the OpenAPI document', async () => {
    const doc = await svc.get<{ paths: Record<string, unknown> }>('/openapi.json', { key: null });
    assert.ok(!Object.keys(doc.body.paths).some((p) => p.startsWith('/portal')));
  });

  test('static files are served with their types and cached by version; Chart.js comes from node_modules', async () => {
    const landing = await new PortalClient(svc).get('/portal');
    const css = /href="(\/portal\/assets\/portal\.css\?v=[0-9a-f]+)"/.exec(landing.text)?.[1] ?? '';
    const styles = await svc.inject('GET', css, { key: null });
    assert.equal(styles.status, 200);
    assert.match(String(styles.headers['content-type']), /^text\/css/);
    assert.equal(styles.headers['cache-control'], 'public, max-age=31536000, immutable');
    const etag = String(styles.headers.etag);
    assert.equal((await svc.inject('GET', css, { key: null, headers: { 'if-none-match': etag } })).status, 304);
    const chart = await svc.inject('GET', '/portal/assets/chart.umd.min.js', { key: null });
    assert.equal(chart.status, 200);
    assert.match(String(chart.headers['content-type']), /^text\/javascript/);
    assert.match(chart.text, /Chart\.js v4/);
    const missing = await svc.inject('GET', '/portal/assets/secrets.txt', { key: null });
    assert.equal(missing.status, 404);
  });

  test('unknown portal pages answer a 404 page in HTML', async () => {
    const reply = await new PortalClient(svc).get('/portal/nowhere');
    assert.equal(reply.status, 404);
    assert.match(String(reply.headers['content-type']), /text\/html/);
    assert.match(reply.text, /There is no such page in the portal/);
  });

  test('a failure inside the portal is a 500 page without details', async () => {
    const store = svc.service.store as { findApiKeyById: (id: string) => Promise<unknown> };
    const real = store.findApiKeyById;
    store.findApiKeyById = () => Promise.reject(new Error('database on fire'));
    try {
      const reply = await ann.get('/portal/usage?key=key_anything');
      assert.equal(reply.status, 500);
      assert.match(reply.text, /The portal could not answer/);
      assert.ok(!reply.text.includes('database on fire'));
    } finally {
      store.findApiKeyById = real;
    }
  });
});
