// The accounts, key-management and usage part of the store contract.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServiceError } from '../../src/domain/errors.js';
import type { AccountRecord, Store } from '../../src/store/store.js';
import { T0, sampleKey } from './fixtures.js';

const account = (id: string, email: string, o: Partial<AccountRecord> = {}): AccountRecord => ({
  id,
  email,
  passwordHash: `hash-of-${id}`,
  createdAt: T0,
  ...o,
});

export function runAccountStoreContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (accounts, keys, usage): ${name}`, () => {
    it('an account is found by id and by email in any case; the email is stored lower-cased', () =>
      withStore(async ({ store }) => {
        assert.equal(await store.createAccount(account('a1', ' Ann@Example.COM ')), true);
        const expected = account('a1', 'ann@example.com');
        assert.deepEqual(await store.findAccountById('a1'), expected);
        assert.deepEqual(await store.findAccountByEmail('ANN@example.com'), expected);
        assert.equal(await store.findAccountByEmail('bob@example.com'), null);
        assert.equal(await store.findAccountById('a2'), null);
      }));

    it('a second account with the same email, whatever its case, is refused and changes nothing', () =>
      withStore(async ({ store }) => {
        await store.createAccount(account('a1', 'ann@example.com'));
        assert.equal(await store.createAccount(account('a2', 'ANN@example.com', { passwordHash: 'other' })), false);
        assert.equal(await store.findAccountById('a2'), null);
        assert.equal((await store.findAccountByEmail('ann@example.com'))?.passwordHash, 'hash-of-a1');
      }));

    it("an account's keys are listed oldest first; keys without an account are not", () =>
      withStore(async ({ store }) => {
        await store.createAccount(account('a1', 'ann@example.com'));
        await store.createAccount(account('a2', 'bob@example.com'));
        const late = sampleKey('k-late', { accountId: 'a1', createdAt: T0 + 5 });
        const early = sampleKey('k-early', { accountId: 'a1', createdAt: T0 + 1 });
        await store.saveApiKey(late);
        await store.saveApiKey(early);
        await store.saveApiKey(sampleKey('k-bob', { accountId: 'a2' }));
        await store.saveApiKey(sampleKey('k-cli'));
        assert.deepEqual(await store.listApiKeysOfAccount('a1'), [early, late]);
        assert.deepEqual(await store.listApiKeysOfAccount('a3'), []);
        assert.deepEqual(await store.findApiKeyById('k-cli'), sampleKey('k-cli'));
        assert.equal(await store.findApiKeyById('nope'), null);
      }));

    it('revoking keeps the first revocation time; plan changes touch only the plan; unknown ids answer null', () =>
      withStore(async ({ store }) => {
        await store.saveApiKey(sampleKey('k1', { lastUsedAt: T0 + 3 }));
        assert.deepEqual(
          await store.revokeApiKey('k1', T0 + 10),
          sampleKey('k1', { lastUsedAt: T0 + 3, revokedAt: T0 + 10 }),
        );
        assert.equal((await store.revokeApiKey('k1', T0 + 20))?.revokedAt, T0 + 10);
        assert.equal((await store.setApiKeyPlan('k1', 'pro'))?.plan, 'pro');
        assert.deepEqual(await store.findApiKeyByHash(sampleKey('k1').keyHash), {
          ...sampleKey('k1'),
          plan: 'pro',
          lastUsedAt: T0 + 3,
          revokedAt: T0 + 10,
        });
        assert.equal(await store.revokeApiKey('nope', T0), null);
        assert.equal(await store.setApiKeyPlan('nope', 'pro'), null);
      }));

    it('usage day totals are replaced, not added; loading starts at a date', () =>
      withStore(async ({ store }) => {
        await store.saveUsage({
          days: [
            { keyId: 'k1', date: '2026-02-28', requests: 9, errors: 0 },
            { keyId: 'k1', date: '2026-03-01', requests: 5, errors: 1 },
            { keyId: 'k2', date: '2026-03-02', requests: 7, errors: 0 },
          ],
          lastUsed: [],
        });
        await store.saveUsage({ days: [{ keyId: 'k1', date: '2026-03-01', requests: 6, errors: 2 }], lastUsed: [] });
        await store.saveUsage({ days: [], lastUsed: [] });
        assert.deepEqual(await store.loadUsage('2026-03-01'), [
          { keyId: 'k1', date: '2026-03-01', requests: 6, errors: 2 },
          { keyId: 'k2', date: '2026-03-02', requests: 7, errors: 0 },
        ]);
        assert.equal((await store.loadUsage('2026-01-01')).length, 3);
      }));

    it('a usage write raises last-used times and never moves them back', () =>
      withStore(async ({ store }) => {
        await store.saveApiKey(sampleKey('k1'));
        await store.saveApiKey(sampleKey('k2', { lastUsedAt: T0 + 100 }));
        await store.saveUsage({
          days: [],
          lastUsed: [
            { keyId: 'k1', at: T0 + 50 },
            { keyId: 'k2', at: T0 + 60 },
            { keyId: 'ghost', at: T0 },
          ],
        });
        assert.equal((await store.findApiKeyById('k1'))?.lastUsedAt, T0 + 50);
        assert.equal((await store.findApiKeyById('k2'))?.lastUsedAt, T0 + 100);
      }));

    it('a large usage batch is written whole', () =>
      withStore(async ({ store }) => {
        const days = Array.from({ length: 5000 }, (_, i) => ({
          keyId: `k${i}`,
          date: '2026-03-01',
          requests: i,
          errors: 0,
        }));
        await store.saveUsage({ days, lastUsed: [] });
        assert.equal((await store.loadUsage('2026-03-01')).length, 5000);
      }));

    it('accounts, key ownership and usage survive a restart', () =>
      withStore(async ({ store, restart }) => {
        await store.createAccount(account('a1', 'ann@example.com'));
        await store.saveApiKey(sampleKey('k1', { accountId: 'a1' }));
        await store.saveUsage({ days: [{ keyId: 'k1', date: '2026-03-01', requests: 3, errors: 1 }], lastUsed: [] });
        const reopened = await restart();
        assert.deepEqual(await reopened.findAccountByEmail('ann@example.com'), account('a1', 'ann@example.com'));
        assert.deepEqual(await reopened.listApiKeysOfAccount('a1'), [sampleKey('k1', { accountId: 'a1' })]);
        assert.deepEqual(await reopened.loadUsage('2026-03-01'), [
          { keyId: 'k1', date: '2026-03-01', requests: 3, errors: 1 },
        ]);
      }));

    it('portal sessions are found by token hash, survive a restart, and go on sign-out or once expired', () =>
      withStore(async ({ store, restart }) => {
        await store.createAccount(account('a1', 'ann@example.com'));
        const s1 = { tokenHash: 'h1', accountId: 'a1', createdAt: T0, expiresAt: T0 + 1000 };
        const s2 = { tokenHash: 'h2', accountId: 'a1', createdAt: T0, expiresAt: T0 + 5000 };
        await store.createPortalSession(s1);
        await store.createPortalSession(s2);
        await assert.rejects(store.createPortalSession(s1), 'a token hash is unique');
        const reopened = await restart();
        assert.deepEqual(await reopened.findPortalSession('h1'), s1);
        assert.equal(await reopened.findPortalSession('nope'), null);
        assert.equal(await reopened.deleteExpiredPortalSessions(T0 + 1000), 1, 'expired at or before the time');
        assert.equal(await reopened.findPortalSession('h1'), null);
        await reopened.deletePortalSession('h2');
        await reopened.deletePortalSession('h2');
        assert.equal(await reopened.findPortalSession('h2'), null);
      }));

    it('after close, the account and usage calls reject as service_unavailable', () =>
      withStore(async ({ store }) => {
        await store.close();
        const calls: Array<() => Promise<unknown>> = [
          () => store.createAccount(account('a1', 'a@b.c')),
          () => store.findAccountByEmail('a@b.c'),
          () => store.findAccountById('a1'),
          () => store.findApiKeyById('k1'),
          () => store.listApiKeysOfAccount('a1'),
          () => store.revokeApiKey('k1', T0),
          () => store.setApiKeyPlan('k1', 'pro'),
          () => store.loadUsage('2026-03-01'),
          () => store.saveUsage({ days: [], lastUsed: [] }),
          () => store.findPortalSession('h1'),
          () => store.deletePortalSession('h1'),
        ];
        for (const call of calls) {
          await assert.rejects(call(), (e: unknown) => e instanceof ServiceError && e.code === 'service_unavailable');
        }
      }));
  });
}
