// The election on PostgreSQL: a waiting standby takes the lock the moment it is free, and a failed start steps down, releases the lock and stands again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaderElection } from '../../src/pipeline/leader-election.js';
import { createTestSchema, postgresSkip, type TestSchema } from '../helpers/postgres.js';
import { sleep, until } from '../helpers/until.js';

const skip = await postgresSkip();
const log = { warn: () => undefined, error: () => undefined };

describe('leader election on PostgreSQL', { skip }, () => {
  let schema: TestSchema;
  const elections: LeaderElection[] = [];

  before(async () => {
    schema = await createTestSchema();
  });

  after(async () => {
    for (const e of elections) await e.stop();
    await schema.drop();
  });

  function candidate(onElected: () => Promise<void>, lost: string[] = []): LeaderElection {
    const e = new LeaderElection({
      url: schema.url,
      intervalMs: 1000,
      retryMs: 300,
      log,
      onElected,
      onLost: (reason) => void lost.push(reason),
    });
    elections.push(e);
    e.start();
    return e;
  }

  it('a waiting standby leads within milliseconds of the leader releasing the lock, not at its next try', async () => {
    const a = candidate(async () => undefined);
    await until('a leads', () => a.leading);
    const b = candidate(async () => undefined);
    await sleep(300); // b waits in the lock queue
    assert.equal(b.leading, false);
    const t0 = performance.now();
    await a.stop();
    await until('b leads', () => b.leading);
    const ms = performance.now() - t0;
    assert.ok(ms < 500, `the standby led ${ms.toFixed(0)} ms after the release`);
    await b.stop();
  });

  it('a start that fails steps down, releases the lock for the other candidate, and stands again later', async () => {
    let attempts = 0;
    const lost: string[] = [];
    const failing = candidate(async () => {
      attempts++;
      throw new Error('the store did not load');
    }, lost);
    await until('the first attempt', () => attempts === 1);
    await until('stepped down', () => lost.length === 1);
    assert.match(lost[0] ?? '', /the store did not load/);
    assert.equal(failing.leading, false);
    // The lock was released: another candidate gets it.
    const other = candidate(async () => undefined);
    await until('the other candidate leads', () => other.leading);
    // Once it is gone, the failing one tries again (and again): it never gave up.
    await other.stop();
    await until('a second attempt', () => attempts >= 2);
    assert.ok(failing.stepDowns >= 2);
  });
});
