// Key management on a running node: revocation takes effect at once, plan changes apply at once; client keys never reach admin routes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import type { ErrorBody } from '../helpers/payloads.js';
import { ADMIN_KEY, DEMO_KEY, startService, type TestService } from '../helpers/service.js';
import { TEST_PLANS, usageOf } from '../helpers/usage.js';

describe('key administration', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ env: { PLANS: TEST_PLANS } });
  });
  after(() => svc.close());

  test('a key revoked on this node is refused by the very next request: 401 unauthorized', async () => {
    const { key, secret } = await svc.service.keyAdmin.create({ name: 'to revoke', plan: 'meter', accountId: null });
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200, 'cached as valid');
    const revoked = await svc.service.keyAdmin.revoke(key.id);
    assert.equal(revoked?.revokedAt, svc.clock.now());
    const res = await svc.get<ErrorBody>('/v1/sports', { key: secret });
    assert.equal(res.status, 401);
    assert.equal(res.body.error, 'unauthorized');
    assert.match(res.body.message, /revoked/);
    assert.equal((await svc.get('/v1/usage/warnings', { key: secret })).status, 401);
    assert.equal((await svc.get('/v1/health', { key: secret })).status, 401);
    assert.equal(await svc.service.keyAdmin.revoke('key_unknown'), null);
  });

  test('a key revoked by another process (the keys CLI) is refused within the 5-second cache', async () => {
    const { key, secret } = await svc.service.keyAdmin.create({ name: 'cli revoke', plan: 'meter', accountId: null });
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200);
    await svc.service.store.revokeApiKey(key.id, svc.clock.now());
    svc.clock.advance(5000);
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 401);
  });

  test("a plan change applies to the next request and keeps the month's count", async () => {
    const { key, secret } = await svc.service.keyAdmin.create({ name: 'mover', plan: 'meter', accountId: null });
    for (let i = 0; i < 12; i++) await svc.get('/v1/sports', { key: secret });
    await svc.service.keyAdmin.setPlan(key.id, 'tiny');
    const refused = await svc.get<ErrorBody>('/v1/sports', { key: secret });
    assert.equal(refused.status, 429);
    assert.match(refused.body.message, /monthly quota exhausted/);
    await svc.service.keyAdmin.setPlan(key.id, 'hundred');
    const usage = await usageOf(svc, secret);
    assert.equal(usage.plan, 'hundred');
    assert.equal(usage.current.this_month, 13);
  });

  test('unknown plans and empty names are refused with 400 bad_request naming the plans', async () => {
    await assert.rejects(svc.service.keyAdmin.create({ name: 'x', plan: 'gold', accountId: null }), (err: unknown) => {
      assert.ok(err instanceof ServiceError);
      assert.equal(err.code, 'bad_request');
      assert.match(err.message, /unknown plan 'gold'; configured plans: .*free/);
      return true;
    });
    await assert.rejects(svc.service.keyAdmin.create({ name: '  ', accountId: null }), /key name/);
    await assert.rejects(
      svc.service.keyAdmin.create({ name: 'bad\u0000name', accountId: null }),
      /key name must not contain control characters/,
    );
    const { key } = await svc.service.keyAdmin.create({ name: 'p', accountId: null });
    assert.equal(key.plan, 'free', 'free by default');
    await assert.rejects(svc.service.keyAdmin.setPlan(key.id, 'gold'), /unknown plan/);
  });

  test("an account's keys: created for it, listed for it, secrets never stored", async () => {
    const created = await svc.service.store.createAccount({
      id: 'acc_1',
      email: 'Dev@Example.com',
      passwordHash: 'scrypt$not-a-real-hash',
      createdAt: svc.clock.now(),
    });
    assert.equal(created, true);
    const one = await svc.service.keyAdmin.create({ name: 'one', accountId: 'acc_1' });
    svc.clock.advance(1000); // listed oldest first (same instant: by id, which is random)
    const two = await svc.service.keyAdmin.create({ name: 'two', plan: 'meter', accountId: 'acc_1' });
    const listed = await svc.service.keyAdmin.listOfAccount('acc_1');
    assert.deepEqual(
      listed.map((k) => [k.id, k.name, k.plan, k.accountId]),
      [
        [one.key.id, 'one', 'free', 'acc_1'],
        [two.key.id, 'two', 'meter', 'acc_1'],
      ],
    );
    for (const k of listed) {
      assert.ok(!JSON.stringify(k).includes(one.secret) && !JSON.stringify(k).includes(two.secret));
    }
    assert.match(one.secret, /^sk_[A-Za-z0-9_-]{43}$/);
    assert.match(one.key.id, /^key_[0-9a-f]{16}$/);
    assert.equal((await svc.get('/v1/sports', { key: two.secret })).status, 200);
  });
});

describe('client keys on admin routes', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  const feed = (headers: Record<string, string>, key: string | null) =>
    svc.inject<ErrorBody>('POST', '/admin/v1/feed', {
      key,
      headers: { 'content-type': 'application/x-ndjson', ...headers },
      body: '{"type":"status","event_id":"x","status":"live"}\n',
    });

  test('a client key on /admin/v1/* is refused with 401 unauthorized, as X-API-Key or as X-Admin-Key', async () => {
    for (const [headers, key] of [
      [{}, DEMO_KEY],
      [{ 'x-admin-key': DEMO_KEY }, null],
      [{ 'x-admin-key': DEMO_KEY }, DEMO_KEY],
    ] as Array<[Record<string, string>, string | null]>) {
      const res = await feed(headers, key);
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.body.error, 'unauthorized');
    }
    assert.equal((await feed({ 'x-admin-key': ADMIN_KEY }, null)).status, 200);
  });

  test('admin requests are not counted toward the client key sent along', async () => {
    const before = (await usageOf(svc, DEMO_KEY)).current.this_month;
    await feed({ 'x-admin-key': ADMIN_KEY }, DEMO_KEY);
    assert.equal((await usageOf(svc, DEMO_KEY)).current.this_month, before + 1);
  });
});
