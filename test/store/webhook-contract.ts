// Webhooks in the store contract: subscriptions and their plan limit, the outbox's order and cursor, due heads, attempts, the log, replay, retention, concurrent writers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WebhookSubscription } from '../../src/domain/webhooks.js';
import type { Store } from '../../src/store/store.js';
import type { NewWebhookDelivery } from '../../src/store/webhook-store.js';
import { T0 } from './fixtures.js';

export function sampleWebhook(id: string, overrides: Partial<WebhookSubscription> = {}): WebhookSubscription {
  return {
    id,
    keyId: 'key-1',
    url: 'https://hooks.example/in',
    types: ['settlement', 'status'],
    sport: 'soccer',
    league: null,
    eventIds: ['e1', 'e2'],
    markets: null,
    oddsFormat: 'decimal',
    enabled: true,
    disabledReason: null,
    secret: `whsec_${Buffer.from(id.padEnd(24, 'x')).toString('base64')}`,
    previousSecret: null,
    previousSecretUntil: null,
    failingSince: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function sampleDelivery(id: string, webhookId: string, overrides: Partial<NewWebhookDelivery> = {}) {
  const d: NewWebhookDelivery = {
    id,
    webhookId,
    type: 'status',
    body: JSON.stringify({ type: 'status', timestamp: new Date(T0).toISOString(), data: { id } }),
    position: `${T0}-1`,
    createdAt: T0,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: T0,
    lastAttemptAt: null,
    lastStatus: null,
    lastError: null,
    lastLatencyMs: null,
    deliveredAt: null,
    ...overrides,
  };
  return d;
}

const ok = { ok: true, status: 200, error: null, latencyMs: 12.4 };
const failed = { ok: false, status: 503, error: 'answered 503', latencyMs: 30 };

export function runWebhookStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (webhooks): ${name}`, () => {
    it('keeps a subscription field for field, lists a key’s oldest first, updates and deletes it', () =>
      withStore(async ({ store, restart }) => {
        const full = sampleWebhook('wh_a', {
          league: 'england-premier-league',
          markets: ['1x2', 'totals'],
          previousSecret: 'whsec_b2xk',
          previousSecretUntil: T0 + 86_400_000,
          failingSince: T0 - 5,
          oddsFormat: 'american',
        });
        const v0 = await store.webhooksVersion();
        assert.equal(await store.createWebhook(full, null), true);
        assert.notEqual(await store.webhooksVersion(), v0, 'a creation changes the version');
        assert.equal(
          await store.createWebhook(sampleWebhook('wh_b', { createdAt: T0 - 1, eventIds: null }), null),
          true,
        );
        assert.equal(await store.createWebhook(sampleWebhook('wh_c', { keyId: 'key-2', enabled: false }), null), true);
        const reopened = await restart();
        assert.deepEqual(await reopened.getWebhook('wh_a'), full);
        assert.equal(await reopened.getWebhook('wh_none'), null);
        assert.deepEqual(
          (await reopened.listWebhooksOfKey('key-1')).map((w) => w.id),
          ['wh_b', 'wh_a'],
        );
        assert.deepEqual(
          (await reopened.listEnabledWebhooks()).map((w) => w.id),
          ['wh_a', 'wh_b'],
        );
        const changed = { ...full, url: 'https://other.example/x', enabled: false, disabledReason: 'owner' as const };
        const v1 = await reopened.webhooksVersion();
        await reopened.updateWebhook({ ...changed, keyId: 'someone-else', createdAt: 1 });
        const v2 = await reopened.webhooksVersion();
        assert.notEqual(v2, v1, 'disabling changes the version, even at the same updated_at');
        assert.deepEqual(await reopened.getWebhook('wh_a'), changed, 'id, key and creation stay');
        assert.equal(await reopened.deleteWebhook('wh_a'), true);
        assert.notEqual(await reopened.webhooksVersion(), v2, 'a deletion changes the version');
        assert.equal(await reopened.deleteWebhook('wh_a'), false);
        assert.equal(await reopened.getWebhook('wh_a'), null);
      }));

    it('a key’s plan limit holds against concurrent creations (one transaction each)', () =>
      withStore(async ({ store }) => {
        const made = await Promise.all(
          Array.from({ length: 12 }, (_, i) => store.createWebhook(sampleWebhook(`wh_${i}`), 3)),
        );
        assert.equal(made.filter(Boolean).length, 3);
        assert.equal((await store.listWebhooksOfKey('key-1')).length, 3);
        assert.equal(await store.createWebhook(sampleWebhook('wh_other', { keyId: 'key-2' }), 3), true);
      }));

    it('appends deliveries in order with rising seq and moves the cursor in the same write', () =>
      withStore(async ({ store, restart }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        assert.equal(await store.webhookCursor(), null);
        await store.appendWebhookDeliveries([], { ms: T0, seq: 3 });
        assert.deepEqual(await store.webhookCursor(), { ms: T0, seq: 3 });
        await store.appendWebhookDeliveries([sampleDelivery('m1', 'wh_a'), sampleDelivery('m2', 'wh_a')], {
          ms: T0 + 5,
          seq: 0,
        });
        await store.appendWebhookDeliveries([sampleDelivery('m3', 'wh_a')], null);
        const reopened = await restart();
        assert.deepEqual(await reopened.webhookCursor(), { ms: T0 + 5, seq: 0 }, 'null leaves the cursor');
        const log = await reopened.listWebhookDeliveries('wh_a', null, 10);
        assert.deepEqual(
          log.map((d) => d.id),
          ['m3', 'm2', 'm1'],
        );
        assert.ok(log[0]!.seq > log[1]!.seq && log[1]!.seq > log[2]!.seq);
        assert.deepEqual({ ...log[2], seq: 0 }, { ...sampleDelivery('m1', 'wh_a'), seq: 0 });
        assert.deepEqual(
          (await reopened.listWebhookDeliveries('wh_a', log[1]!.seq, 10)).map((d) => d.id),
          ['m1'],
        );
      }));

    it('a failed append stores neither its deliveries nor its cursor', () =>
      withStore(async ({ store }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        await store.appendWebhookDeliveries([sampleDelivery('m1', 'wh_a')], { ms: T0, seq: 1 });
        // A duplicate id breaks the primary key: the whole write rolls back.
        await assert.rejects(
          store.appendWebhookDeliveries([sampleDelivery('m2', 'wh_a'), sampleDelivery('m1', 'wh_a')], {
            ms: T0 + 9,
            seq: 9,
          }),
        );
        assert.deepEqual(await store.webhookCursor(), { ms: T0, seq: 1 });
        assert.deepEqual(
          (await store.listWebhookDeliveries('wh_a', null, 10)).map((d) => d.id),
          ['m1'],
        );
      }));

    it('concurrent appends (the outbox and an API node’s test event) keep distinct, ordered seqs', () =>
      withStore(async ({ store }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            store.appendWebhookDeliveries([sampleDelivery(`m${i}a`, 'wh_a'), sampleDelivery(`m${i}b`, 'wh_a')], null),
          ),
        );
        const log = await store.listWebhookDeliveries('wh_a', null, 100);
        assert.equal(log.length, 16);
        assert.equal(new Set(log.map((d) => d.seq)).size, 16, 'no two deliveries share a seq');
        for (let i = 0; i < 8; i++) {
          const a = log.find((d) => d.id === `m${i}a`)!;
          const b = log.find((d) => d.id === `m${i}b`)!;
          assert.ok(a.seq < b.seq, 'one append keeps its order');
        }
      }));

    it('due: only each enabled subscription’s head, when due, not busy, soonest first, at most limit', () =>
      withStore(async ({ store }) => {
        for (const id of ['wh_a', 'wh_b', 'wh_c', 'wh_off'])
          await store.createWebhook(sampleWebhook(id, { enabled: id !== 'wh_off' }), null);
        await store.appendWebhookDeliveries(
          [
            sampleDelivery('a1', 'wh_a', { nextAttemptAt: T0 + 100 }),
            sampleDelivery('a2', 'wh_a', { nextAttemptAt: T0 }),
            sampleDelivery('b1', 'wh_b', { nextAttemptAt: T0 + 50 }),
            sampleDelivery('c1', 'wh_c', { status: 'delivered', deliveredAt: T0 }),
            sampleDelivery('c2', 'wh_c', { nextAttemptAt: T0 + 10 }),
            sampleDelivery('off1', 'wh_off'),
          ],
          null,
        );
        const ids = async (now: number, busy: string[], limit: number) =>
          (await store.dueWebhookDeliveries(now, busy, limit)).map((d) => d.id);
        // a2 is due but behind a1: a later delivery never overtakes an earlier one.
        assert.deepEqual(await ids(T0, [], 10), []);
        assert.deepEqual(await ids(T0 + 60, [], 10), ['c2', 'b1']);
        assert.deepEqual(await ids(T0 + 100, [], 10), ['c2', 'b1', 'a1']);
        assert.deepEqual(await ids(T0 + 100, ['wh_b'], 10), ['c2', 'a1']);
        assert.deepEqual(await ids(T0 + 100, [], 2), ['c2', 'b1']);
      }));

    it('an attempt: failed keeps it pending with its next time; delivered moves the head; failing too long disables', () =>
      withStore(async ({ store, restart }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        await store.appendWebhookDeliveries([sampleDelivery('a1', 'wh_a'), sampleDelivery('a2', 'wh_a')], null);
        await store.recordWebhookAttempt({
          deliveryId: 'a1',
          webhookId: 'wh_a',
          at: T0 + 1,
          outcome: failed,
          nextAttemptAt: T0 + 5001,
          failingSince: T0 + 1,
          disable: false,
        });
        let [head] = await store.dueWebhookDeliveries(T0 + 5001, [], 10);
        assert.equal(head?.id, 'a1');
        assert.equal(head?.attempts, 1);
        assert.equal(head?.lastStatus, 503);
        assert.equal(head?.lastError, 'answered 503');
        assert.equal(head?.nextAttemptAt, T0 + 5001);
        assert.equal((await store.getWebhook('wh_a'))?.failingSince, T0 + 1);
        assert.deepEqual(await store.webhookQueueStats(), { pending: 2, oldestPendingAt: T0 });

        await store.recordWebhookAttempt({
          deliveryId: 'a1',
          webhookId: 'wh_a',
          at: T0 + 6000,
          outcome: ok,
          nextAttemptAt: 0,
          failingSince: null,
          disable: false,
        });
        const reopened = await restart();
        const a1 = (await reopened.listWebhookDeliveries('wh_a', null, 10)).find((d) => d.id === 'a1');
        assert.equal(a1?.status, 'delivered');
        assert.equal(a1?.attempts, 2);
        assert.equal(a1?.deliveredAt, T0 + 6000);
        assert.equal(a1?.lastLatencyMs, 12);
        [head] = await reopened.dueWebhookDeliveries(T0 + 6000, [], 10);
        assert.equal(head?.id, 'a2');
        assert.equal((await reopened.getWebhook('wh_a'))?.failingSince, null);

        await reopened.recordWebhookAttempt({
          deliveryId: 'a2',
          webhookId: 'wh_a',
          at: T0 + 9000,
          outcome: failed,
          nextAttemptAt: T0 + 20_000,
          failingSince: T0 + 1,
          disable: true,
        });
        const sub = await reopened.getWebhook('wh_a');
        assert.equal(sub?.enabled, false);
        assert.equal(sub?.disabledReason, 'failing');
        assert.deepEqual(await reopened.dueWebhookDeliveries(T0 + 99_000, [], 10), [], 'a disabled one is not due');
        assert.deepEqual(await reopened.webhookQueueStats(), { pending: 0, oldestPendingAt: null });
      }));

    it('replay one delivery or all made since an instant; retention drops only old delivered ones; delete takes its queue', () =>
      withStore(async ({ store }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        await store.createWebhook(sampleWebhook('wh_b'), null);
        const done = { status: 'delivered' as const, deliveredAt: T0 };
        await store.appendWebhookDeliveries(
          [
            sampleDelivery('a1', 'wh_a', { ...done, createdAt: T0 }),
            sampleDelivery('a2', 'wh_a', { ...done, createdAt: T0 + 1000 }),
            sampleDelivery('a3', 'wh_a', { ...done, createdAt: T0 + 2000 }),
            sampleDelivery('b1', 'wh_b', { createdAt: T0 }),
          ],
          null,
        );
        assert.equal(await store.replayWebhookDeliveries('wh_a', { id: 'a1' }, T0 + 50), 1);
        assert.equal(await store.replayWebhookDeliveries('wh_a', { id: 'b1' }, T0 + 50), 0, 'not its delivery');
        assert.equal(await store.replayWebhookDeliveries('wh_a', { id: 'nope' }, T0 + 50), 0);
        assert.deepEqual(
          (await store.dueWebhookDeliveries(T0 + 50, [], 10)).map((d) => [d.id, d.status, d.deliveredAt]),
          [
            ['b1', 'pending', null],
            ['a1', 'pending', null],
          ],
        );
        assert.equal(await store.replayWebhookDeliveries('wh_a', { since: T0 + 1000 }, T0 + 60), 2);
        assert.deepEqual(
          (await store.listWebhookDeliveries('wh_a', null, 10)).map((d) => d.status),
          ['pending', 'pending', 'pending'],
        );

        await store.recordWebhookAttempt({
          deliveryId: 'a1',
          webhookId: 'wh_a',
          at: T0 + 70,
          outcome: ok,
          nextAttemptAt: 0,
          failingSince: null,
          disable: false,
        });
        assert.equal(await store.deleteDeliveredWebhooksBefore(T0 + 1500), 1, 'a1: delivered and old');
        assert.deepEqual(
          (await store.listWebhookDeliveries('wh_a', null, 10)).map((d) => d.id),
          ['a3', 'a2'],
        );
        assert.equal(await store.deleteWebhook('wh_a'), true);
        assert.deepEqual(await store.listWebhookDeliveries('wh_a', null, 10), []);
        assert.deepEqual(await store.webhookQueueStats(), { pending: 1, oldestPendingAt: T0 });
      }));

    it('a large append is cut under the parameter limit and keeps its order', () =>
      withStore(async ({ store }) => {
        await store.createWebhook(sampleWebhook('wh_a'), null);
        const many = Array.from({ length: 2600 }, (_, i) => sampleDelivery(`m${i}`, 'wh_a'));
        await store.appendWebhookDeliveries(many, { ms: T0, seq: 1 });
        const log = await store.listWebhookDeliveries('wh_a', null, 3000);
        assert.equal(log.length, 2600);
        assert.deepEqual(
          log.map((d) => d.id),
          many.map((d) => d.id).reverse(),
        );
      }));
  });
}
