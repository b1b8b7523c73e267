// The webhook outbox on the leader: a subscription another node created (in the store only) is matched by the next change's flush, not after a refresh period.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ChangeLog } from '../../../src/live/change-log.js';
import { WebhookOutbox } from '../../../src/pipeline/webhooks/outbox.js';
import { openSqliteStore } from '../../../src/store/sqlite-store.js';
import { sampleWebhook } from '../../store/webhook-contract.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

describe('webhook outbox', () => {
  it('a subscription created on another node gets the changes fed after its creation, without waiting for a refresh', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sds-outbox-'));
    const store = await openSqliteStore({ dataDir });
    const clock = { t: T0 };
    const log = new ChangeLog({ now: () => clock.t, windowMs: 3_600_000, maxBytes: 1 << 30 });
    const outbox = new WebhookOutbox({
      log,
      store,
      now: () => clock.t,
      logger: silent as never,
      flushMs: 60_000,
    });
    try {
      await store.migrate();
      await outbox.start();
      // Another node (an API node) stores a subscription: this node is not told.
      await store.createWebhook(sampleWebhook('wh_api', { types: ['status'], eventIds: ['ev1'], sport: null }), null);
      clock.t += 100;
      log.append({
        kind: 'status',
        eventId: 'ev1',
        sport: 'soccer',
        league: 'england-premier-league',
        at: clock.t,
        bytes: 100,
        json: '{"event_id":"ev1","status":"live"}',
      });
      await outbox.flush();
      const log1 = await store.listWebhookDeliveries('wh_api', null, 10);
      assert.equal(log1.length, 1, 'the change made after the subscription is delivered to it');
      assert.equal(log1[0]!.type, 'status');
    } finally {
      await outbox.stop();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
