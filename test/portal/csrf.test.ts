// Every state-changing portal request needs a token bound to the session (or, before sign-in, to the forms cookie) and our own origin.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';
import { PASSWORD, PortalClient, signedUp } from './portal-client.js';

describe('portal CSRF protection', () => {
  let svc: TestService;
  let ann: PortalClient;
  let bob: PortalClient;
  before(async () => {
    svc = await startService();
    ann = await signedUp(svc, 'ann@example.com');
    bob = await signedUp(svc, 'bob@example.com');
    await ann.get('/portal/keys');
    await bob.get('/portal/keys');
  });
  after(() => svc.close());

  const keyCount = async (): Promise<number> => {
    const account = await svc.service.store.findAccountByEmail('ann@example.com');
    return (await svc.service.store.listApiKeysOfAccount(account?.id ?? '')).length;
  };

  test('creating a key without a token, with a wrong one, or with another session’s is refused with a 403 page', async () => {
    const tokens: Array<[string, string | null]> = [
      ['no token', null],
      ['wrong token', 'x'.repeat(43)],
      ["bob's token", bob.csrf],
    ];
    for (const [what, csrf] of tokens) {
      const reply = await ann.post('/portal/keys', { fields: { name: 'forged' }, csrf });
      assert.equal(reply.status, 403, what);
      assert.match(String(reply.headers['content-type']), /text\/html/);
      assert.match(reply.text, /security token/);
    }
    assert.equal(await keyCount(), 0);
  });

  test('a request from a foreign Origin, or a foreign Referer without Origin, is refused even with the right token', async () => {
    const foreign: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const reply = await ann.post('/portal/keys', { fields: { name: 'forged' }, headers });
      assert.equal(reply.status, 403, JSON.stringify(headers));
      assert.match(reply.text, /sent from another site/);
    }
    assert.equal(await keyCount(), 0);
  });

  test('our own Origin (the Host the request came to) with the right token is accepted', async () => {
    const reply = await ann.post('/portal/keys', {
      fields: { name: 'mine' },
      headers: { origin: 'http://localhost', referer: 'http://localhost/portal/keys' },
    });
    assert.equal(reply.status, 200);
    assert.equal(await keyCount(), 1);
  });

  test('sign-in and sign-up need the forms cookie and the same token in the form', async () => {
    const noCookie = new PortalClient(svc);
    await noCookie.get('/portal');
    const token = noCookie.csrf;
    noCookie.jar.clear();
    const refused = await noCookie.post('/portal/sign-in', {
      fields: { email: 'ann@example.com', password: PASSWORD },
      csrf: token,
    });
    assert.equal(refused.status, 403);

    const mismatched = new PortalClient(svc);
    await mismatched.get('/portal');
    const reply = await mismatched.post('/portal/sign-up', {
      fields: { email: 'new@example.com', password: PASSWORD },
      csrf: 'y'.repeat(43),
    });
    assert.equal(reply.status, 403);
    assert.equal(await svc.service.store.findAccountByEmail('new@example.com'), null);

    const crossSite = new PortalClient(svc);
    await crossSite.get('/portal');
    const login = await crossSite.post('/portal/sign-in', {
      fields: { email: 'ann@example.com', password: PASSWORD },
      headers: { origin: 'https://evil.example' },
    });
    assert.equal(login.status, 403, 'no login CSRF');
  });
});
