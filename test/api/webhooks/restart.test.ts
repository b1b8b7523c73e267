// Webhooks across restarts (embedded store): a queue stopped mid-way is delivered after the restart, and changes the outbox had not stored yet are derived again from the stored change log.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { at, feedOk, fixture, HOUR, startService, status } from '../../helpers/service.js';
import { startReceiver, until, type Receiver } from './receiver.js';

const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '20',
  WEBHOOK_RETRY_BASE_MS: '1000',
  WEBHOOK_RETRY_MAX_MS: '60000',
};

interface Body {
  data: { event_id: string; status: string };
}

describe('webhooks across a restart', () => {
  let rx: Receiver;
  let dataDir: string;
  before(async () => {
    rx = await startReceiver();
    dataDir = await mkdtemp(join(tmpdir(), 'sds-webhooks-'));
  });
  after(async () => {
    await rx.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const order = () =>
    rx.received
      .filter((r) => r.answered === 200)
      .map((r) => {
        const b = JSON.parse(r.body) as Body;
        return `${b.data.event_id}:${b.data.status}`;
      });

  test('a restart mid-queue loses nothing, and changes whose deliveries were never stored are derived again', async () => {
    const ids = ['s1', 's2', 's3'];
    rx.answer = () => ({ status: 500 });
    let svc = await startService({ dataDir, env: ENV });
    const created = await svc.inject<{ id: string }>('POST', '/v1/webhooks', {
      body: { url: rx.url, types: ['status'], event_ids: ids },
    });
    assert.equal(created.status, 201);
    await feedOk(
      svc,
      ids.map((id) => fixture(id, { start_time: at(-HOUR) })),
    );
    for (const id of ids) await feedOk(svc, [status(id, 'live')]);
    await until(() => rx.received.length >= 1);
    const now = svc.clock.now();
    await svc.close({ keepDir: true });

    // A crash after the write-behind flush stored the change log, before the outbox stored the
    // last two deliveries: the stored cursor is back at the first one's position.
    const db = new Database(join(dataDir, 'store.sqlite'));
    const rows = db.prepare(`select id, position from webhook_deliveries order by seq`).all() as Array<{
      id: string;
      position: string;
    }>;
    assert.equal(rows.length, 3);
    const [ms, seq] = rows[0]!.position.split('-').map(Number) as [number, number];
    db.prepare('delete from webhook_deliveries where seq > (select min(seq) from webhook_deliveries)').run();
    db.prepare('update webhook_cursor set pos_ms = ?, pos_seq = ?').run(ms, seq);
    db.close();

    rx.answer = () => ({ status: 200 });
    svc = await startService({ dataDir, env: ENV, now });
    try {
      await until(() => order().length >= 3, { advance: (ms) => svc.clock.advance(ms), stepMs: 60_000 });
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(
        order(),
        ids.map((id) => `${id}:live`),
      );
    } finally {
      await svc.close({ keepDir: true });
    }
  });
});
