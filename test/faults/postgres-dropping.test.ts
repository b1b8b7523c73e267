// Fault: PostgreSQL drops every connection of the service's database again and again for a while: reads keep serving, nothing answers 500, nothing acknowledged is lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { postgresSkip } from '../helpers/postgres.js';
import { startService, type TestService } from '../helpers/service.js';
import {
  checkResultsKept,
  createFaultDatabase,
  driveReads,
  feedLines,
  liveGame,
  oddsUpdate,
  resultOf,
  StatusCounts,
  untilHealthy,
  type FaultDatabase,
} from './store-fault-kit.js';

const skip = await postgresSkip();

describe('fault: PostgreSQL drops connections repeatedly', { skip }, () => {
  let db: FaultDatabase;
  let svc: TestService | undefined;

  before(async () => {
    db = await createFaultDatabase();
  });

  after(async () => {
    await svc?.close().catch(() => undefined);
    await db.drop();
  });

  it('reads keep serving, results are acknowledged or refused as retryable, and every acknowledged one is kept', async () => {
    const env = { DATABASE_URL: db.url };
    svc = await startService({ env });
    const ids = Array.from({ length: 12 }, (_, i) => `q${i + 1}`);
    assert.deepEqual((await feedLines(svc, ids.flatMap(liveGame))).refused, []);

    // The key is known before the fault (a key first seen during it is 503 by design).
    const warm = new StatusCounts();
    await driveReads(svc, ids, 1, warm);
    assert.equal(warm.get(200), warm.total, warm.explain());

    // For ~4 s: every 150 ms, end every session of the service's database (and only of it).
    const counts = new StatusCounts();
    const feedAnswers = new StatusCounts();
    let terminated = 0;
    let stop = false;
    const killer = (async () => {
      for (let i = 0; i < 27 && !stop; i++) {
        terminated += await db.terminate();
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const started = Date.now();
    const acknowledged: string[] = [];
    const pending = [...ids];
    for (let round = 0; round < 200 && Date.now() - started < 4000; round++) {
      // The key cache's entries expire now and then: lookups meet dropped connections too.
      svc.clock.advance(2000);
      await driveReads(svc, ids, 1, counts);
      const id = pending[0];
      if (id !== undefined && round % 3 === 0) {
        const r = await feedLines(svc, [oddsUpdate(id, round), resultOf(id)]);
        if (r.refused.length === 0) acknowledged.push(pending.shift()!);
        for (const e of r.refused) {
          assert.equal(e, 'service_unavailable', 'a refusal during the fault is retryable');
          feedAnswers.add(503);
        }
        if (r.refused.length === 0) feedAnswers.add(200);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    stop = true;
    await killer;
    const faultMs = Date.now() - started;
    assert.ok(terminated > 0, 'sessions were ended');
    assert.equal(counts.get(500), 0, `answers during the fault: ${counts.explain()}`);
    assert.equal(counts.get(200), counts.total, `reads from memory during the fault: ${counts.explain()}`);

    const recoverMs = await untilHealthy(svc, 15_000);
    // The producer sends what was refused again.
    for (const id of pending.splice(0)) {
      const r = await feedLines(svc, [resultOf(id)]);
      assert.deepEqual(r.refused, []);
      acknowledged.push(id);
    }
    let checked = await checkResultsKept(svc, acknowledged);
    await svc.close();
    svc = await startService({ env });
    checked += await checkResultsKept(svc, acknowledged);

    console.log(
      `FAULT-FIGURES postgres-dropping: ${terminated} sessions ended over ${faultMs} ms; reads ${counts.toString()}; ` +
        `feed bodies with a result ${feedAnswers.toString()} (503 = refused service_unavailable, sent again after); ` +
        `health 200 ${recoverMs} ms after the last drop; ${checked} result checks after recovery and after a restart (${acknowledged.length} results, all settled)`,
    );
  });
});
