// Portal sign-up, sign-in, sessions and sign-out: validation, cookie flags, throttled failures, expiry.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MINUTE, DAY, startService, type TestService } from '../helpers/service.js';
import { PASSWORD, PortalClient, setCookieOf, signedUp } from './portal-client.js';

describe('portal sign-up', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test('the landing page sets the forms cookie (HttpOnly, SameSite=Strict, Path=/portal) and offers both forms', async () => {
    const page = await new PortalClient(svc).get('/portal');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const cookie = setCookieOf(page, 'sds_csrf');
    assert.match(cookie ?? '', /^sds_csrf=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Strict$/);
    assert.match(page.text, /<form method="post" action="\/portal\/sign-in"/);
    assert.match(page.text, /<form method="post" action="\/portal\/sign-up"/);
    assert.match(page.text, /<label for="sign-up-password">Password<\/label>/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(page.headers['x-frame-options'], 'DENY');
  });

  test('a new account is signed in at once: session cookie HttpOnly, SameSite=Lax, Path=/portal, 7 days, not Secure over http', async () => {
    const client = new PortalClient(svc);
    const reply = await client.signUp('Ann@Example.com');
    assert.equal(reply.status, 303);
    assert.equal(reply.headers.location, '/portal/keys?welcome=1');
    const cookie = setCookieOf(reply, 'sds_session') ?? '';
    assert.match(cookie, /^sds_session=[A-Za-z0-9_-]{43}; Path=\/portal; HttpOnly; SameSite=Lax; Max-Age=604800$/);
    const keys = await client.get('/portal/keys?welcome=1');
    assert.equal(keys.status, 200);
    assert.match(keys.text, /ann@example\.com/, 'the email, stored lower-cased, is in the header');
    assert.match(keys.text, /Your account is ready/);
    const stored = await svc.service.store.findAccountByEmail('ann@example.com');
    assert.match(stored?.passwordHash ?? '', /^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    assert.ok(!stored?.passwordHash.includes(PASSWORD));
  });

  test('invalid sign-ups answer 400 with the reason next to the form, keeping the email typed', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['', PASSWORD, /Enter your email address/],
      ['not-an-email', PASSWORD, /Enter a valid email address/],
      ['a b@example.com', PASSWORD, /Enter a valid email address/],
      ['bob@example.com', 'short', /at least 10 characters/],
      ['bob@example.com', 'x'.repeat(257), /at most 256 characters/],
    ];
    for (const [email, password, message] of cases) {
      const client = new PortalClient(svc);
      const reply = await client.signUp(email, password);
      assert.equal(reply.status, 400, `${email} / ${password.length} characters`);
      assert.match(reply.text, message);
      assert.match(reply.text, /id="sign-up-error" role="alert"/);
      assert.equal(setCookieOf(reply, 'sds_session'), undefined);
    }
    assert.equal(await svc.service.store.findAccountByEmail('bob@example.com'), null);
  });

  test('an email already registered, in any case, is refused with 400 and nothing changes', async () => {
    await signedUp(svc, 'carol@example.com');
    const before = await svc.service.store.findAccountByEmail('carol@example.com');
    const reply = await new PortalClient(svc).signUp('CAROL@example.com', 'another long password');
    assert.equal(reply.status, 400);
    assert.match(reply.text, /already exists/);
    assert.deepEqual(await svc.service.store.findAccountByEmail('carol@example.com'), before);
  });

  test('the email typed is escaped when the form is shown again', async () => {
    const reply = await new PortalClient(svc).signUp('"><script>alert(1)</script>', PASSWORD);
    assert.equal(reply.status, 400);
    assert.ok(!reply.text.includes('<script>alert(1)</script>'));
    assert.match(reply.text, /value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;"/);
  });
});

describe('portal sign-in and sessions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
    await signedUp(svc, 'dan@example.com');
    await signedUp(svc, 'erin@example.com');
  });
  after(() => svc.close());

  test('the right password signs in; a wrong one or an unknown email answers 401 with the same message', async () => {
    const wrong = await new PortalClient(svc).signIn('dan@example.com', 'not the password');
    assert.equal(wrong.status, 401);
    assert.match(wrong.text, /Wrong email or password/);
    assert.equal(setCookieOf(wrong, 'sds_session'), undefined);
    const unknown = await new PortalClient(svc).signIn('nobody@example.com');
    assert.equal(unknown.status, 401);
    assert.match(unknown.text, /Wrong email or password/);
    const client = new PortalClient(svc);
    const ok = await client.signIn('DAN@example.com');
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.location, '/portal/keys');
    assert.equal((await client.get('/portal/keys')).status, 200);
    svc.clock.advance(16 * MINUTE);
  });

  test('5 failed sign-ins of one email lock it for 15 minutes (429, Retry-After), even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal((await new PortalClient(svc).signIn('dan@example.com', `wrong ${i}`)).status, 401);
      svc.clock.advance(1000);
    }
    const locked = await new PortalClient(svc).signIn('dan@example.com');
    assert.equal(locked.status, 429);
    assert.match(locked.text, /Too many failed sign-ins\. Try again in 15 minutes/);
    assert.equal(locked.headers['retry-after'], String(15 * 60 - 5));
    assert.equal(setCookieOf(locked, 'sds_session'), undefined);
    assert.equal((await new PortalClient(svc).signIn('erin@example.com')).status, 303, 'another email is not locked');

    svc.clock.advance(15 * MINUTE - 5000);
    assert.equal((await new PortalClient(svc).signIn('dan@example.com')).status, 303, 'unlocked after the window');
    svc.clock.advance(16 * MINUTE);
  });

  test('20 failed sign-ins from one address lock that address for every email', async () => {
    for (let i = 0; i < 20; i++) {
      assert.equal((await new PortalClient(svc).signIn(`guess${i}@example.com`, 'wrong password')).status, 401);
    }
    assert.equal((await new PortalClient(svc).signIn('erin@example.com')).status, 429);
    svc.clock.advance(15 * MINUTE);
    assert.equal((await new PortalClient(svc).signIn('erin@example.com')).status, 303);
  });

  test('signed-in pages without a valid session send the browser to the sign-in page', async () => {
    for (const url of ['/portal/keys', '/portal/usage', '/portal/explorer']) {
      const anonymous = await new PortalClient(svc).get(url);
      assert.equal(anonymous.status, 303, url);
      assert.equal(anonymous.headers.location, '/portal');
      const forged = await new PortalClient(svc).get(url, { cookie: `sds_session=${'A'.repeat(43)}` });
      assert.equal(forged.status, 303);
    }
    const post = await new PortalClient(svc).post('/portal/keys', { fields: { name: 'x' }, csrf: 'x' });
    assert.equal(post.status, 303);
  });

  test('a session ends after 7 days (fixed, from sign-in)', async () => {
    const client = new PortalClient(svc);
    await client.signIn('erin@example.com');
    svc.clock.advance(7 * DAY - 1000);
    assert.equal((await client.get('/portal/keys')).status, 200);
    svc.clock.advance(1000);
    const expired = await client.get('/portal/keys');
    assert.equal(expired.status, 303);
    assert.equal(expired.headers.location, '/portal');
  });

  test('signing out deletes the session: the old cookie no longer signs in', async () => {
    const client = new PortalClient(svc);
    await client.signIn('erin@example.com');
    const cookie = client.jar.get('sds_session') ?? '';
    await client.get('/portal/keys');
    const out = await client.post('/portal/sign-out');
    assert.equal(out.status, 303);
    assert.equal(out.headers.location, '/portal?signed_out=1');
    assert.match(
      setCookieOf(out, 'sds_session') ?? '',
      /^sds_session=; Path=\/portal; HttpOnly; SameSite=Lax; Max-Age=0$/,
    );
    const again = await new PortalClient(svc).get('/portal/keys', { cookie: `sds_session=${cookie}` });
    assert.equal(again.status, 303);
    const landing = await client.get('/portal?signed_out=1');
    assert.match(landing.text, /You are signed out/);
  });

  test('signing out needs the session CSRF token: without it the session stays (403)', async () => {
    const client = new PortalClient(svc);
    await client.signIn('erin@example.com');
    const refused = await client.post('/portal/sign-out', { csrf: null });
    assert.equal(refused.status, 403);
    assert.equal((await client.get('/portal/keys')).status, 200);
  });
});

describe('portal cookies behind https', () => {
  test('the cookies are Secure when PUBLIC_URL is https', async () => {
    const svc = await startService({ env: { PUBLIC_URL: 'https://api.example.com' } });
    try {
      const client = new PortalClient(svc);
      const landing = await client.get('/portal');
      assert.match(setCookieOf(landing, 'sds_csrf') ?? '', /; Secure$/);
      const reply = await client.post('/portal/sign-up', {
        fields: { email: 'https@example.com', password: PASSWORD },
        headers: { origin: 'https://api.example.com' },
      });
      assert.equal(reply.status, 303);
      assert.match(setCookieOf(reply, 'sds_session') ?? '', /; Secure$/);
    } finally {
      await svc.close();
    }
  });

  test('the cookies are Secure when a trusted proxy says the request came over https', async () => {
    const svc = await startService({ env: { TRUST_PROXY: 'true' } });
    try {
      const client = new PortalClient(svc);
      const landing = await client.get('/portal', { 'x-forwarded-proto': 'https' });
      assert.match(setCookieOf(landing, 'sds_csrf') ?? '', /; Secure$/);
      const plain = await new PortalClient(svc).get('/portal');
      assert.doesNotMatch(setCookieOf(plain, 'sds_csrf') ?? '', /Secure/);
    } finally {
      await svc.close();
    }
  });
});
