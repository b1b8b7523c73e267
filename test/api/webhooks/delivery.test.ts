// Webhook deliveries end to end on loopback, on the embedded store and on PostgreSQL: signed per Standard Webhooks, in order, retried through a receiver's failures with none lost, disabled after failing too long.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createTestSchema, postgresSkip, type TestSchema } from '../../helpers/postgres.js';
import { at, feedOk, fixture, HOUR, result, startService, status, type TestService } from '../../helpers/service.js';
import { specVerify, startReceiver, until, type Receiver } from './receiver.js';

interface Created {
  id: string;
  secret: string;
}
interface Body {
  type: string;
  timestamp: string;
  data: { event_id: string; status?: string; score?: { home: number; away: number } };
}

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '1000',
  WEBHOOK_RETRY_MAX_MS: '60000',
  WEBHOOK_DISABLE_AFTER_HOURS: '2',
};

const pgSkip = await postgresSkip();

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`webhook deliveries (${engine})`, { skip: engine === 'postgres' ? pgSkip : false }, () => {
    let svc: TestService;
    let rx: Receiver;
    let schema: TestSchema | null = null;
    before(async () => {
      if (engine === 'postgres') schema = await createTestSchema();
      svc = await startService({ env: schema === null ? ENV : { ...ENV, DATABASE_URL: schema.url } });
    });
    after(async () => {
      await svc.close();
      await schema?.drop();
    });
    beforeEach(async () => {
      rx = await startReceiver();
    });
    afterEach(() => rx.close());

    const subscribe = async (body: object): Promise<Created> => {
      const res = await svc.inject<Created>('POST', '/v1/webhooks', { body: { url: rx.url, ...body } });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    test('a result is delivered with the Standard Webhooks headers, a signature the spec verifies, body {type, timestamp, data}', async () => {
      const hook = await subscribe({ types: ['result'], event_ids: ['r1'] });
      await feedOk(svc, [fixture('r1', { start_time: at(-2 * HOUR) }), status('r1', 'live'), result('r1', 2, 1)]);
      await until(() => rx.received.length >= 1);
      const got = rx.received[0]!;
      assert.match(String(got.headers['webhook-id']), /^msg_/);
      assert.equal(got.headers['webhook-timestamp'], String(Math.floor(svc.clock.now() / 1000)));
      assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.ok(specVerify(hook.secret, got.headers, got.body), 'the independent verifier accepts it');
      assert.ok(!specVerify(hook.secret, got.headers, got.body.replace('"r1"', '"r2"')), 'a changed body fails');
      const body = JSON.parse(got.body) as Body;
      assert.equal(body.type, 'result');
      assert.equal(body.data.event_id, 'r1');
      assert.deepEqual(body.data.score, { home: 2, away: 1 });
      assert.ok(!Number.isNaN(Date.parse(body.timestamp)));
      // Only what was asked: the status changes of r1 made no delivery.
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(rx.received.length, 1);
    });

    test('after a rotation each delivery carries two signatures, one per secret, both verifying', async () => {
      const hook = await subscribe({ types: ['status'], event_ids: ['rot'] });
      const rotated = await svc.inject<Created>('POST', `/v1/webhooks/${hook.id}/rotate-secret`);
      await feedOk(svc, [fixture('rot')]);
      await feedOk(svc, [status('rot', 'live')]);
      await until(() => rx.received.length >= 1);
      const got = rx.received[0]!;
      assert.equal(String(got.headers['webhook-signature']).split(' ').length, 2);
      assert.ok(specVerify(hook.secret, got.headers, got.body));
      assert.ok(specVerify(rotated.body.secret, got.headers, got.body));
    });

    test('a receiver failing (500) for a while then recovering gets every delivery, in order, none lost, the same id on retries', async () => {
      await subscribe({ types: ['status'], event_ids: ['o1', 'o2', 'o3', 'o4'] });
      // The first 7 requests fail.
      rx.answer = ({ n }) => ({ status: n < 7 ? 500 : 200 });
      const ids = ['o1', 'o2', 'o3', 'o4'];
      await feedOk(
        svc,
        ids.map((id) => fixture(id, { start_time: at(-HOUR) })),
      );
      for (const id of ids) await feedOk(svc, [status(id, 'live')]);
      for (const id of ids) await feedOk(svc, [status(id, 'interrupted')]);
      const ok = () => rx.received.filter((r) => r.answered === 200);
      await until(() => ok().length >= 8, { advance: (ms) => svc.clock.advance(ms), stepMs: 60_000 });
      const delivered = ok().map((r) => JSON.parse(r.body) as Body);
      assert.deepEqual(
        delivered.map((b) => `${b.data.event_id}:${b.data.status}`),
        [...ids.map((id) => `${id}:live`), ...ids.map((id) => `${id}:interrupted`)],
      );
      // Every failed attempt was of the head of the queue, and its retry carried the same webhook-id.
      const failedIds = rx.received.filter((r) => r.answered === 500).map((r) => r.headers['webhook-id']);
      assert.equal(failedIds.length, 7);
      assert.ok(failedIds.every((id) => id === rx.received[0]!.headers['webhook-id']));
      assert.equal(ok()[0]!.headers['webhook-id'], failedIds[0]);
      // No delivery twice once accepted.
      assert.equal(new Set(ok().map((r) => r.headers['webhook-id'])).size, 8);
    });

    test('a redirect is not followed: 3xx counts as a failure and the Location is never called', async () => {
      const hook = await subscribe({ types: ['status'], event_ids: ['rd'] });
      const target = await startReceiver('/elsewhere');
      try {
        rx.answer = () => ({ status: 302, headers: { location: target.url } });
        await feedOk(svc, [fixture('rd')]);
        await feedOk(svc, [status('rd', 'live')]);
        await until(() => rx.received.length >= 1);
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(target.received.length, 0);
        const log = await svc.get<{ deliveries: Array<{ status: string; response_status: number; error: string }> }>(
          `/v1/webhooks/${hook.id}/deliveries`,
        );
        assert.equal(log.body.deliveries[0]!.status, 'pending');
        assert.equal(log.body.deliveries[0]!.response_status, 302);
        assert.match(log.body.deliveries[0]!.error, /redirect/);
      } finally {
        await target.close();
        await svc.inject('DELETE', `/v1/webhooks/${hook.id}`);
      }
    });

    test('failing longer than WEBHOOK_DISABLE_AFTER_HOURS disables it and says so in /v1/usage/warnings; re-enabled, its queue is delivered', async () => {
      const hook = await subscribe({ types: ['status'], event_ids: ['dz'] });
      rx.answer = () => ({ status: 503 });
      await feedOk(svc, [fixture('dz')]);
      await feedOk(svc, [status('dz', 'live')]);
      const isDisabled = async () =>
        (await svc.get<{ enabled: boolean; disabled_reason: string }>(`/v1/webhooks/${hook.id}`)).body;
      let state = await isDisabled();
      const deadline = Date.now() + 20_000;
      while (state.enabled) {
        assert.ok(Date.now() < deadline, 'never disabled');
        svc.clock.advance(10 * 60_000);
        await new Promise((r) => setTimeout(r, 20));
        state = await isDisabled();
      }
      assert.equal(state.disabled_reason, 'failing');
      const warnings = await svc.get<{ warnings: Array<{ message: string }> }>('/v1/usage/warnings');
      assert.ok(
        warnings.body.warnings.some((w) => w.message.includes(hook.id)),
        JSON.stringify(warnings.body),
      );
      // Disabled: no more attempts.
      const attempts = rx.received.length;
      svc.clock.advance(HOUR);
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(rx.received.length, attempts);
      rx.answer = () => ({ status: 204 });
      const patched = await svc.inject('PATCH', `/v1/webhooks/${hook.id}`, { body: { enabled: true } });
      assert.equal(patched.status, 200);
      await until(() => rx.received.some((r) => r.answered === 204), {
        advance: (ms) => svc.clock.advance(ms),
        stepMs: 60_000,
      });
      const body = JSON.parse(rx.received.find((r) => r.answered === 204)!.body) as Body;
      assert.equal(body.data.status, 'live');
      const after = await svc.get<{ warnings: Array<{ message: string }> }>('/v1/usage/warnings');
      assert.ok(!after.body.warnings.some((w) => w.message.includes(hook.id)));
    });

    test('a test event on demand, and replay of one delivery by id', async () => {
      const hook = await subscribe({ types: ['result'], event_ids: ['none'] });
      const queued = await svc.inject<{ delivery_id: string }>('POST', `/v1/webhooks/${hook.id}/test`);
      assert.equal(queued.status, 202);
      await until(() => rx.received.length >= 1);
      // The receiver has answered; the worker records the attempt just after.
      await until(
        async () =>
          (await svc.get<{ deliveries: Array<{ status: string }> }>(`/v1/webhooks/${hook.id}/deliveries`)).body
            .deliveries[0]?.status === 'delivered',
      );
      assert.equal(rx.received[0]!.headers['webhook-id'], queued.body.delivery_id);
      assert.equal((JSON.parse(rx.received[0]!.body) as Body).type, 'test');
      assert.ok(specVerify(hook.secret, rx.received[0]!.headers, rx.received[0]!.body));
      const log = await svc.get<{
        deliveries: Array<{
          id: string;
          status: string;
          attempts: number;
          response_status: number;
          latency_ms: number;
        }>;
      }>(`/v1/webhooks/${hook.id}/deliveries`);
      const d = log.body.deliveries[0]!;
      assert.equal(d.status, 'delivered');
      assert.equal(d.attempts, 1);
      assert.equal(d.response_status, 200);
      assert.ok(d.latency_ms >= 0);
      const replay = await svc.inject<{ replayed: number }>('POST', `/v1/webhooks/${hook.id}/replay`, {
        body: { delivery_id: queued.body.delivery_id },
      });
      assert.equal(replay.body.replayed, 1);
      await until(() => rx.received.length >= 2);
      assert.equal(rx.received[1]!.headers['webhook-id'], queued.body.delivery_id);
      const missing = await svc.inject('POST', `/v1/webhooks/${hook.id}/replay`, { body: { delivery_id: 'msg_nope' } });
      assert.equal(missing.status, 404);
      const both = await svc.inject('POST', `/v1/webhooks/${hook.id}/replay`, {
        body: { delivery_id: 'x', since: '2026-01-01T00:00:00Z' },
      });
      assert.equal(both.status, 400);
    });
  });
}
