// Webhooks in the portal: per key, create (secret once), disable/enable, rotate, delete, the delivery log with a test event and replay; only by the key's owner.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';
import { specVerify, startReceiver, until, type Receiver } from '../api/webhooks/receiver.js';
import { PortalClient, signedUp } from './portal-client.js';

const secretOf = (text: string): { secret: string; id: string } | null => {
  const m = /id="new-secret" class="secret" readonly value="([^"]+)" data-webhook-id="([^"]+)"/.exec(text);
  return m === null ? null : { secret: m[1]!, id: m[2]! };
};

describe('portal webhooks', () => {
  let svc: TestService;
  let rx: Receiver;
  let ann: PortalClient;
  let bob: PortalClient;
  let keyId: string;
  before(async () => {
    rx = await startReceiver();
    svc = await startService({ env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '20' } });
    ann = await signedUp(svc, 'ann@example.com');
    bob = await signedUp(svc, 'bob@example.com');
    keyId = (await ann.createKey('backend')).id;
  });
  after(async () => {
    await svc.close();
    await rx.close();
  });

  test('the page lists none, then a created one; its secret is shown once and signs its deliveries', async () => {
    const empty = await ann.get('/portal/webhooks');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /id="no-webhooks"/);
    assert.match(empty.text, /<a href="\/portal\/webhooks" aria-current="page">Webhooks<\/a>/);
    const page = await ann.post(`/portal/webhooks/${keyId}`, {
      fields: { url: rx.url, type_result: 'on', type_status: 'on', event_ids: 'a1, a2' },
    });
    assert.equal(page.status, 200, page.text.slice(0, 500));
    const shown = secretOf(page.text);
    assert.ok(shown !== null, 'the secret is on the page');
    assert.match(shown.secret, /^whsec_/);
    assert.match(page.text, /shown only this once/);
    const stored = await svc.service.store.getWebhook(shown.id);
    assert.deepEqual(stored?.types, ['result', 'status']);
    assert.deepEqual(stored?.eventIds, ['a1', 'a2']);
    const list = await ann.get(`/portal/webhooks?key=${keyId}`);
    assert.ok(!list.text.includes(shown.secret), 'never shown again');
    assert.match(list.text, new RegExp(`<tr data-webhook-id="${shown.id}">`));

    // Send a test event from its log page: it arrives signed with that secret, and the log shows it.
    await ann.get(`/portal/webhooks/${keyId}/${shown.id}`);
    const sent = await ann.post(`/portal/webhooks/${keyId}/${shown.id}/test`);
    assert.equal(sent.status, 303);
    await until(() => rx.received.length >= 1);
    assert.ok(specVerify(shown.secret, rx.received[0]!.headers, rx.received[0]!.body));
    const deliveryId = String(rx.received[0]!.headers['webhook-id']);
    await until(async () =>
      (await ann.get(`/portal/webhooks/${keyId}/${shown.id}`)).text.includes('badge-ok">delivered'),
    );
    const log = await ann.get(`/portal/webhooks/${keyId}/${shown.id}`);
    assert.match(log.text, new RegExp(`<tr data-delivery-id="${deliveryId}">`));

    // Replay it from the log.
    const replayed = await ann.post(`/portal/webhooks/${keyId}/${shown.id}/replay`, {
      fields: { delivery_id: deliveryId },
    });
    assert.equal(replayed.status, 303);
    await until(() => rx.received.length >= 2);
    assert.equal(rx.received[1]!.headers['webhook-id'], deliveryId);
    const since = await ann.post(`/portal/webhooks/${keyId}/${shown.id}/replay`, { fields: { since: 'yesterday' } });
    assert.equal(since.status, 400);
  });

  test('a bad URL is refused with the reason, the form kept, nothing created', async () => {
    const before = (await svc.service.store.listWebhooksOfKey(keyId)).length;
    await ann.get(`/portal/webhooks?key=${keyId}`);
    const page = await ann.post(`/portal/webhooks/${keyId}`, {
      fields: { url: 'ftp://x.example/', type_status: 'on' },
    });
    assert.equal(page.status, 400);
    assert.match(page.text, /id="create-error" role="alert">[^<]*https/);
    assert.match(page.text, /value="ftp:\/\/x.example\/"/);
    assert.equal((await svc.service.store.listWebhooksOfKey(keyId)).length, before);
  });

  test('disable, enable, rotate (new secret shown once) and delete', async () => {
    await ann.get(`/portal/webhooks?key=${keyId}`);
    const created = secretOf(
      (await ann.post(`/portal/webhooks/${keyId}`, { fields: { url: rx.url, type_settlement: 'on' } })).text,
    )!;
    const off = await ann.post(`/portal/webhooks/${keyId}/${created.id}/enabled`, { fields: { enabled: 'false' } });
    assert.equal(off.status, 303);
    assert.equal((await svc.service.store.getWebhook(created.id))?.enabled, false);
    assert.match((await ann.get(off.headers.location as string)).text, /Webhook disabled/);
    await ann.post(`/portal/webhooks/${keyId}/${created.id}/enabled`, { fields: { enabled: 'true' } });
    assert.equal((await svc.service.store.getWebhook(created.id))?.enabled, true);
    const bad = await ann.post(`/portal/webhooks/${keyId}/${created.id}/enabled`, { fields: { enabled: 'maybe' } });
    assert.equal(bad.status, 400);

    await ann.get(`/portal/webhooks?key=${keyId}`);
    const rotated = await ann.post(`/portal/webhooks/${keyId}/${created.id}/rotate`);
    const fresh = secretOf(rotated.text);
    assert.ok(fresh !== null && fresh.secret !== created.secret);
    const stored = await svc.service.store.getWebhook(created.id);
    assert.equal(stored?.secret, fresh.secret);
    assert.equal(stored?.previousSecret, created.secret);

    const gone = await ann.post(`/portal/webhooks/${keyId}/${created.id}/delete`);
    assert.equal(gone.status, 303);
    assert.equal(await svc.service.store.getWebhook(created.id), null);
  });

  test('another account can neither see nor change a key’s webhooks (404), and a POST needs the CSRF token', async () => {
    const [hook] = await svc.service.store.listWebhooksOfKey(keyId);
    assert.ok(hook !== undefined);
    assert.equal((await bob.get(`/portal/webhooks?key=${keyId}`)).status, 404);
    assert.equal((await bob.get(`/portal/webhooks/${keyId}/${hook.id}`)).status, 404);
    await bob.get('/portal/webhooks');
    assert.equal((await bob.post(`/portal/webhooks/${keyId}/${hook.id}/delete`)).status, 404);
    const bobKey = (await bob.createKey('bob key')).id;
    await bob.get(`/portal/webhooks?key=${bobKey}`);
    assert.equal(
      (await bob.post(`/portal/webhooks/${bobKey}/${hook.id}/delete`)).status,
      404,
      'not a webhook of his key',
    );
    const noCsrf = await ann.post(`/portal/webhooks/${keyId}/${hook.id}/delete`, { csrf: null });
    assert.equal(noCsrf.status, 403);
    assert.ok((await svc.service.store.getWebhook(hook.id)) !== null);
  });
});
