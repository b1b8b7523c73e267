// Keys in the portal: created with the secret shown once, listed, renamed, revoked after a confirm step; only by their owner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ErrorBody } from '../helpers/payloads.js';
import { startService, type TestService } from '../helpers/service.js';
import { PortalClient, signedUp } from './portal-client.js';

describe('portal keys', () => {
  let svc: TestService;
  let ann: PortalClient;
  let bob: PortalClient;
  before(async () => {
    svc = await startService();
    ann = await signedUp(svc, 'ann@example.com');
    bob = await signedUp(svc, 'bob@example.com');
  });
  after(() => svc.close());

  test('a new key’s secret is shown once, with a copy button, and works on the API at once', async () => {
    const { id, secret, page } = await ann.createKey('production server');
    assert.match(secret, /^sk_[A-Za-z0-9_-]{43}$/);
    assert.match(page.text, /shown only this once/);
    assert.match(page.text, /<button type="button" data-copy="new-secret">Copy<\/button>/);
    assert.match(page.text, /data-copy-status="new-secret" role="status" aria-live="polite"/);
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200);

    const list = await ann.get('/portal/keys');
    assert.ok(!list.text.includes(secret), 'never shown again');
    assert.match(
      list.text,
      new RegExp(`<tr data-key-id="${id}">\\s*<th scope="row" data-label="Name">production server</th>`),
    );
    assert.match(list.text, /<td data-label="Plan">free<\/td>/);
    assert.match(list.text, /badge-ok">Active/);
    const stored = await svc.service.store.findApiKeyById(id);
    assert.equal(stored?.accountId, (await svc.service.store.findAccountByEmail('ann@example.com'))?.id);
  });

  test('a key name is required (400 with the reason) and at most 100 characters', async () => {
    for (const name of ['', '   ', 'n'.repeat(101)]) {
      await ann.get('/portal/keys');
      const reply = await ann.post('/portal/keys', { fields: { name } });
      assert.equal(reply.status, 400);
      assert.match(reply.text, /id="create-error" role="alert">Give the key a name of 1 to 100 characters/);
    }
  });

  test('key names are escaped wherever they are shown', async () => {
    const evil = '<script>alert("x")</script>&';
    const { id, page } = await ann.createKey(evil);
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;';
    for (const text of [
      page.text,
      (await ann.get('/portal/keys')).text,
      (await ann.get(`/portal/keys/${id}/revoke`)).text,
      (await ann.get(`/portal/usage?key=${id}`)).text,
      (await ann.get(`/portal/explorer?key=${id}`)).text,
    ]) {
      assert.ok(!text.includes('<script>alert'), 'no raw markup from the name');
      assert.ok(text.includes(escaped));
    }
  });

  test('a key can be renamed by its owner', async () => {
    const { id } = await ann.createKey('old name');
    await ann.get('/portal/keys');
    const reply = await ann.post(`/portal/keys/${id}/name`, { fields: { name: 'new name' } });
    assert.equal(reply.status, 303);
    assert.equal(reply.headers.location, `/portal/keys?renamed=${id}`);
    assert.match((await ann.get(reply.headers.location as string)).text, /Key “new name” renamed\./);
    assert.equal((await svc.service.store.findApiKeyById(id))?.name, 'new name');
  });

  test('revoking asks for confirmation, then the API refuses the key (401) and the list shows it revoked', async () => {
    const { id, secret } = await ann.createKey('to revoke');
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200);
    const confirm = await ann.get(`/portal/keys/${id}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Revoke key “to revoke”\?/);
    assert.match(confirm.text, new RegExp(`<form method="post" action="/portal/keys/${id}/revoke"`));
    assert.equal((await svc.service.store.findApiKeyById(id))?.revokedAt, null, 'the confirm page changes nothing');

    const done = await ann.post(`/portal/keys/${id}/revoke`);
    assert.equal(done.status, 303);
    const refused = await svc.get<ErrorBody>('/v1/sports', { key: secret });
    assert.equal(refused.status, 401);
    assert.match(refused.body.message, /revoked/);
    const list = await ann.get(done.headers.location as string);
    assert.match(list.text, /Key “to revoke” revoked/);
    assert.match(list.text, new RegExp(`<tr data-key-id="${id}">[\\s\\S]*?badge-off">Revoked`));
  });

  test('another account can neither see, rename, revoke nor read the usage of a key (404), and it stays active', async () => {
    const { id, secret } = await ann.createKey('ann only');
    assert.ok(!(await bob.get('/portal/keys')).text.includes(id));
    for (const url of [`/portal/keys/${id}/revoke`, `/portal/usage?key=${id}`]) {
      const reply = await bob.get(url);
      assert.equal(reply.status, 404, url);
      assert.match(reply.text, /no such key in your account/);
    }
    await bob.get('/portal/keys');
    assert.equal((await bob.post(`/portal/keys/${id}/revoke`)).status, 404);
    assert.equal((await bob.post(`/portal/keys/${id}/name`, { fields: { name: 'taken' } })).status, 404);
    assert.equal((await bob.post('/portal/keys/key_unknown/revoke')).status, 404);
    const key = await svc.service.store.findApiKeyById(id);
    assert.equal(key?.revokedAt, null);
    assert.equal(key?.name, 'ann only');
    assert.equal((await svc.get('/v1/sports', { key: secret })).status, 200);
  });

  test('an account holds at most 20 active keys', async () => {
    const carol = await signedUp(svc, 'carol@example.com');
    for (let i = 0; i < 20; i++) await carol.createKey(`k${i}`);
    await carol.get('/portal/keys');
    const reply = await carol.post('/portal/keys', { fields: { name: 'one more' } });
    assert.equal(reply.status, 400);
    assert.match(reply.text, /already have 20 active keys/);
  });
});
