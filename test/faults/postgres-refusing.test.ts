// Fault: PostgreSQL refuses connections (ALLOW_CONNECTIONS false on the test's own database): reads keep serving with known keys, health 503 datastore, no 500, nothing lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../../src/api/keys.js';
import { postgresSkip } from '../helpers/postgres.js';
import { startService, type TestService } from '../helpers/service.js';
import {
  checkResultsKept,
  createFaultDatabase,
  driveReads,
  feedLines,
  health,
  liveGame,
  resultOf,
  StatusCounts,
  untilHealthy,
  type FaultDatabase,
} from './store-fault-kit.js';

const skip = await postgresSkip();

interface ErrorBody {
  error: string;
  component?: string;
}

describe('fault: PostgreSQL refuses connections', { skip }, () => {
  let db: FaultDatabase;
  let svc: TestService | undefined;

  before(async () => {
    db = await createFaultDatabase();
  });

  after(async () => {
    await db.allow().catch(() => undefined);
    await svc?.close().catch(() => undefined);
    await db.drop();
  });

  it('known keys keep reading from memory, unknown keys and store reads get 503 datastore, health 503 names it, results are kept', async () => {
    const env = { DATABASE_URL: db.url };
    svc = await startService({ env });
    const before = ['p1', 'p2'];
    const during = ['p3'];
    const all = [...before, ...during];
    const setup = await feedLines(svc, [...all.flatMap(liveGame), ...before.map((id) => resultOf(id))]);
    assert.deepEqual(setup.refused, []);
    await svc.service.settlement.idle();
    // A second key that reads before the fault, and one created but never used on this node.
    const known = await createApiKey(svc.service.store, { name: 'known', plan: 'unlimited', accountId: null, now: 0 });
    const unseen = await createApiKey(svc.service.store, {
      name: 'unseen',
      plan: 'unlimited',
      accountId: null,
      now: 0,
    });
    assert.equal((await svc.get('/v1/events', { key: known.secret })).status, 200);
    assert.equal((await health(svc)).status, 200);

    await db.refuse();
    // Every cached key answer has expired: the next lookup goes to the refusing database.
    svc.clock.advance(10_000);
    const faultStarted = Date.now();

    const counts = new StatusCounts();
    // About 3 s of reads with both keys, the clock moving on so their cached answers expire again and again.
    for (let round = 0; round < 300 && Date.now() - faultStarted < 3000; round++) {
      svc.clock.advance(500);
      await driveReads(svc, all, 1, counts);
      await driveReads(svc, all, 1, counts, known.secret);
      await new Promise((r) => setTimeout(r, 10));
    }
    const reads = counts.total;
    assert.equal(counts.get(200), reads, `reads during the fault: ${counts.explain()}`);

    const h = await health(svc);
    counts.add(h.status);
    assert.equal(h.status, 503);
    assert.equal(h.body.component, 'datastore');
    assert.equal(h.body.services.datastore.status, 'disconnected');

    // What needs the store now answers 503 datastore: a key never seen, the settlement feed, usage, readiness.
    const storeBound: Array<[string, string | undefined]> = [
      ['/v1/events', unseen.secret],
      ['/v1/settlements', undefined],
      ['/v1/settlements/outrights', undefined],
      [`/v1/settlements?event_ids=${before.join(',')}`, undefined],
    ];
    for (const [url, key] of storeBound) {
      const r: { status: number; body: ErrorBody; text: string; headers: Record<string, unknown> } =
        await svc.get<ErrorBody>(url, key === undefined ? {} : { key });
      counts.add(r.status);
      assert.equal(r.status, 503, `${url}: ${r.text}`);
      assert.equal(r.body.error, 'service_unavailable');
      assert.equal(r.body.component, 'datastore');
      // A retry helps: the client is told when to try again, as the feed's 503 does.
      assert.equal(r.headers['retry-after'], '1', `${url}: Retry-After`);
    }
    // Paths that may touch the store: served from memory, or 503 datastore; never 500.
    const mayTouch: Array<[string, string, unknown]> = [
      ['GET', `/v1/events/${before[0]}/result`, undefined],
      ['GET', '/v1/usage', undefined],
      ['GET', '/v1/usage/warnings', undefined],
      ['GET', '/v1/outrights', undefined],
      ['POST', '/v1/bets/check', { legs: [{ event_id: before[0], market_id: 1, selection_id: 11 }], stake: 10 }],
      ['POST', '/v1/bets/check', { legs: [{ event_id: during[0], market_id: 1, selection_id: 11 }], stake: 10 }],
      ['GET', '/v1/events/never-seen/result', undefined],
    ];
    const touched: string[] = [];
    for (const [method, url, body] of mayTouch) {
      const r: { status: number; body: ErrorBody; text: string } = await svc.inject<ErrorBody>(method, url, {
        key: known.secret,
        ...(body === undefined ? {} : { body }),
      });
      counts.add(r.status, `${r.status} ${method} ${url} ${r.text.slice(0, 200)}`);
      touched.push(`${method} ${url.split('?')[0]} ${r.status}`);
      assert.notEqual(r.status, 500, `${method} ${url}: ${r.text}`);
      if (r.status === 503) assert.equal(r.body.component, 'datastore', `${method} ${url}: ${r.text}`);
      // A bet on a game still live (nothing settled) is checked from memory alone.
      if (url === '/v1/bets/check' && (body as { legs: Array<{ event_id: string }> }).legs[0]?.event_id === during[0]) {
        assert.equal(r.status, 200, `bet check on a live game during the fault: ${r.text}`);
      }
    }
    const portal = await svc.inject('GET', '/portal/keys', { key: null, headers: { cookie: 'sds_session=x' } });
    touched.push(`GET /portal/keys ${portal.status}`);
    assert.notEqual(portal.status, 500, portal.text.slice(0, 300));
    const ready = await svc.inject('GET', '/readyz', { key: null });
    assert.equal(ready.status, 503);

    // A result during the fault: refused as retryable, so the producer sends it again.
    const refused = await feedLines(
      svc,
      during.map((id) => resultOf(id)),
    );
    assert.deepEqual(refused.refused, ['service_unavailable']);
    assert.equal(counts.get(500), 0, `answers: ${counts.explain()}`);
    const faultMs = Date.now() - faultStarted;

    await db.allow();
    const recoverMs = await untilHealthy(svc, 15_000);
    assert.equal((await svc.get('/v1/events', { key: unseen.secret })).status, 200);
    const resent = await feedLines(
      svc,
      during.map((id) => resultOf(id)),
    );
    assert.deepEqual(resent.refused, []);
    let checked = await checkResultsKept(svc, all);

    await svc.close();
    svc = await startService({ env });
    checked += await checkResultsKept(svc, all);

    console.log(
      `FAULT-FIGURES postgres-refusing: during the fault (${faultMs} ms) ${counts.toString()} ` +
        `(${reads} reads with known keys all 200; health, an unseen key and the settlement feeds 503 datastore), ` +
        `${refused.refused.length} result refused service_unavailable then resent; health 200 again ${recoverMs} ms after connections were allowed; ` +
        `${checked} result checks after recovery and after a restart (${all.length} results, all settled); ` +
        `store-bound paths: ${touched.join(', ')}`,
    );
  });
});
