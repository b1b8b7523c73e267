// The SDK's verifyWebhook against deliveries signed by an implementation written here from the Standard Webhooks specification.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/index.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const secret = `whsec_${randomBytes(32).toString('base64')}`;

/** Standard Webhooks: `v1,` + base64(HMAC-SHA256(base64-decoded secret, `${id}.${ts}.${body}`)). */
function sign(s: string, id: string, ts: number, body: string): string {
  return `v1,${createHmac('sha256', Buffer.from(s.split('_')[1]!, 'base64'))
    .update(`${id}.${ts}.${body}`)
    .digest('base64')}`;
}

const body = '{"type":"settlement","timestamp":"2026-03-01T11:59:58.000Z","data":{"event_id":"e1"}}';
const headersFor = (sig: string, ts = Math.floor(NOW / 1000), id = 'msg_abc') => ({
  'webhook-id': id,
  'webhook-timestamp': String(ts),
  'webhook-signature': sig,
});
const opts = { now: () => NOW };

test('a delivery signed per the spec verifies and its body comes back parsed', async () => {
  const ts = Math.floor(NOW / 1000);
  const event = await verifyWebhook<{ event_id: string }>(
    secret,
    headersFor(sign(secret, 'msg_abc', ts, body)),
    body,
    opts,
  );
  assert.equal(event.type, 'settlement');
  assert.equal(event.data.event_id, 'e1');
  // Bytes and a fetch Headers object work the same.
  const h = new Headers(headersFor(sign(secret, 'msg_abc', ts, body)));
  assert.equal((await verifyWebhook(secret, h, new TextEncoder().encode(body), opts)).type, 'settlement');
});

test('one matching signature among several (a rotation) is enough', async () => {
  const ts = Math.floor(NOW / 1000);
  const old = `whsec_${randomBytes(24).toString('base64')}`;
  const both = `${sign(old, 'msg_abc', ts, body)} ${sign(secret, 'msg_abc', ts, body)}`;
  assert.equal((await verifyWebhook(secret, headersFor(both), body, opts)).type, 'settlement');
  assert.equal((await verifyWebhook(old, headersFor(both), body, opts)).type, 'settlement');
});

test('refused: another secret, a changed body, id or timestamp, a missing header, an unknown version', async () => {
  const ts = Math.floor(NOW / 1000);
  const good = sign(secret, 'msg_abc', ts, body);
  const other = `whsec_${randomBytes(24).toString('base64')}`;
  const cases: Array<[string, Record<string, string>, string, string]> = [
    ['another secret', headersFor(good), body, other],
    ['a changed body', headersFor(good), body.replace('e1', 'e2'), secret],
    ['a changed id', headersFor(good, ts, 'msg_xyz'), body, secret],
    ['a changed timestamp', headersFor(good, ts - 1), body, secret],
    ['v2 scheme', headersFor(good.replace('v1,', 'v2,')), body, secret],
    ['no signature header', { 'webhook-id': 'msg_abc', 'webhook-timestamp': String(ts) }, body, secret],
  ];
  for (const [name, headers, b, s] of cases) {
    await assert.rejects(verifyWebhook(s, headers, b, opts), WebhookVerificationError, name);
  }
});

test('the timestamp must be within the tolerance (5 minutes by default) either way', async () => {
  for (const offset of [-301, 301]) {
    const ts = Math.floor(NOW / 1000) + offset;
    await assert.rejects(
      verifyWebhook(secret, headersFor(sign(secret, 'msg_abc', ts, body), ts), body, opts),
      /tolerance/,
    );
  }
  const ts = Math.floor(NOW / 1000) - 299;
  assert.ok(await verifyWebhook(secret, headersFor(sign(secret, 'msg_abc', ts, body), ts), body, opts));
  const late = Math.floor(NOW / 1000) - 600;
  assert.ok(
    await verifyWebhook(secret, headersFor(sign(secret, 'msg_abc', late, body), late), body, {
      ...opts,
      toleranceSeconds: 900,
    }),
  );
});
