// The key authenticator's cache: one store lookup per burst, revocations on this node seen at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hashApiKey, KeyAuthenticator } from '../../src/api/keys.js';
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
