// The webhook poster: private and loopback addresses refused by default, literal or resolved at connect time (DNS rebinding); allowed when the operator says so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { httpPoster } from '../../../src/pipeline/webhooks/http-poster.js';
import { startReceiver, type Receiver } from '../../api/webhooks/receiver.js';

describe('webhook poster', () => {
  let rx: Receiver;
  before(async () => {
    rx = await startReceiver();
  });
  after(() => rx.close());
  const request = (url: string) => ({ url, headers: { 'webhook-id': 'msg_1' }, body: '{"type":"test"}' });

  test('a loopback address literal is refused by default and never connected to', async () => {
    const poster = httpPoster({ policy: { allowPrivate: false, allowHosts: [] } });
    const before = rx.received.length;
    const out = await poster.post(request(rx.url));
    poster.close();
    assert.equal(out.ok, false);
    assert.equal(out.status, null);
    assert.match(out.error ?? '', /private|loopback/);
    assert.equal(rx.received.length, before);
  });

  test('a name that resolves to loopback is refused at connect time (the check is on the resolved address)', async () => {
    const poster = httpPoster({ policy: { allowPrivate: false, allowHosts: [] } });
    const before = rx.received.length;
    const out = await poster.post(request(rx.url.replace('127.0.0.1', 'localhost')));
    poster.close();
    assert.equal(out.ok, false);
    assert.match(out.error ?? '', /private|loopback/);
    assert.equal(rx.received.length, before);
  });

  test('allowed by WEBHOOK_ALLOW_HOSTS or WEBHOOK_ALLOW_PRIVATE, it is delivered', async () => {
    for (const policy of [
      { allowPrivate: false, allowHosts: ['localhost'] },
      { allowPrivate: true, allowHosts: [] },
    ]) {
      const poster = httpPoster({ policy });
      const before = rx.received.length;
      const out = await poster.post(request(rx.url.replace('127.0.0.1', 'localhost')));
      poster.close();
      assert.equal(out.ok, true, JSON.stringify(out));
      assert.equal(out.status, 200);
      assert.equal(rx.received.length, before + 1);
      assert.equal(rx.received[rx.received.length - 1]!.headers['webhook-id'], 'msg_1');
    }
  });

  test('a receiver that never answers fails at the response deadline', async () => {
    const { createServer } = await import('node:http');
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const poster = httpPoster({
      policy: { allowPrivate: true, allowHosts: [] },
      responseTimeoutMs: 200,
      connectTimeoutMs: 200,
    });
    const out = await poster.post(request(`http://127.0.0.1:${port}/`));
    poster.close();
    silent.closeAllConnections();
    silent.close();
    assert.equal(out.ok, false);
    assert.match(out.error ?? '', /timeout/);
  });
});
