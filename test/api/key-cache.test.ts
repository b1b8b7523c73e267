// The key authenticator's cache: one store lookup per burst, revocations on this node seen at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashApiKey, KeyAuthenticator } from '../../src/api/keys.js';
import { ServiceError } from '../../src/domain/errors.js';
import type { ApiKeyRecord, Store } from '../../src/store/store.js';

const record = (revokedAt: number | null = null): ApiKeyRecord => ({
  id: 'k1',
  keyHash: hashApiKey('secret'),
  name: 'k1',
  plan: 'free',
  createdAt: 0,
  lastUsedAt: null,
  revokedAt,
  accountId: null,
});

function fakeStore(answer: () => ApiKeyRecord | null): { store: Store; lookups: () => number; release: () => void } {
  let lookups = 0;
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  const store = {
    findApiKeyByHash: async () => {
      lookups++;
      await gate;
      return answer();
    },
  } as unknown as Store;
  return {
    store,
    lookups: () => lookups,
    release: () => {
      release();
      gate = Promise.resolve();
    },
  };
}

describe('key authenticator', () => {
  test('a burst of requests with an uncached key asks the store once', async () => {
    const fake = fakeStore(() => record());
    const auth = new KeyAuthenticator(fake.store, () => 0);
    const all = Promise.all(Array.from({ length: 100 }, () => auth.authenticate('secret')));
    fake.release();
    assert.equal((await all).length, 100);
    assert.equal(fake.lookups(), 1);
    await auth.authenticate('secret');
    assert.equal(fake.lookups(), 1, 'cached');
  });

  test('a lookup that started before invalidate() is not cached: the next request reads the store again', async () => {
    let revoked = false;
    const fake = fakeStore(() => record(revoked ? 5 : null));
    const auth = new KeyAuthenticator(fake.store, () => 0);
    const early = auth.authenticate('secret');
    auth.invalidate(); // a revocation on this node, while the lookup is under way
    fake.release();
    await early;
    revoked = true;
    await assert.rejects(auth.authenticate('secret'), /revoked/);
    assert.equal(fake.lookups(), 2);
  });
});

describe('key authenticator while the datastore fails', () => {
  const down = (): Store =>
    ({
      findApiKeyByHash: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
    }) as unknown as Store;

  test('a key known before the fault keeps working from its last answer; the store is asked at most once a second', async () => {
    let t = 0;
    let failing = false;
    let lookups = 0;
    const store = {
      findApiKeyByHash: async () => {
        lookups++;
        if (failing) throw Object.assign(new Error('database is not accepting connections'), { code: '55000' });
        return record();
      },
    } as unknown as Store;
    const auth = new KeyAuthenticator(store, () => t);
    assert.equal((await auth.authenticate('secret')).id, 'k1');
    failing = true;
    t += 10_000;
    assert.equal((await auth.authenticate('secret')).id, 'k1');
    const asked = lookups;
    assert.equal((await auth.authenticate('secret')).id, 'k1');
    assert.equal(lookups, asked, 'not asked again within the retry second');
    t += 1_000;
    await auth.authenticate('secret');
    assert.equal(lookups, asked + 1);
  });

  test('a key never seen gets 503 service_unavailable naming the datastore, not 401 and not 500', async () => {
    const auth = new KeyAuthenticator(down(), () => 0);
    await assert.rejects(auth.authenticate('unseen'), (err) => {
      assert.ok(err instanceof ServiceError);
      assert.equal(err.code, 'service_unavailable');
      assert.equal(err.component, 'datastore');
      return true;
    });
  });

  test('an answer older than the stale bound is not used: 503', async () => {
    let t = 0;
    let failing = false;
    const store = {
      findApiKeyByHash: async () => {
        if (failing) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
        return record();
      },
    } as unknown as Store;
    const auth = new KeyAuthenticator(store, () => t, { staleMs: 60_000 });
    await auth.authenticate('secret');
    failing = true;
    t += 61_000;
    await assert.rejects(auth.authenticate('secret'), /datastore is unavailable/);
  });

  test('a bug in the lookup (not a datastore fault) is not hidden by a stale answer', async () => {
    let t = 0;
    let broken = false;
    const store = {
      findApiKeyByHash: async () => {
        if (broken) throw new TypeError('boom');
        return record();
      },
    } as unknown as Store;
    const auth = new KeyAuthenticator(store, () => t);
    await auth.authenticate('secret');
    broken = true;
    t += 10_000;
    await assert.rejects(auth.authenticate('secret'), TypeError);
  });
});
