// The upstream adapter's month spend in the store contract: one figure per provider and UTC month, replaced on write, kept across a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { T0 } from './fixtures.js';

export function runUpstreamSpendContract(
  name: string,
  withStore: (body: (ctx: { store: Store; restart: () => Promise<Store> }) => Promise<void>) => Promise<void>,
): void {
  describe(`Store contract (upstream spend): ${name}`, () => {
    it('a month never written is 0; a write replaces the figure of its provider and month only', () =>
      withStore(async ({ store }) => {
        assert.equal(await store.loadUpstreamSpend('the-odds-api', '2026-03'), 0);
        await store.saveUpstreamSpend('the-odds-api', '2026-03', 9, T0);
        await store.saveUpstreamSpend('the-odds-api', '2026-03', 12, T0 + 1);
        await store.saveUpstreamSpend('the-odds-api', '2026-04', 3, T0 + 2);
        await store.saveUpstreamSpend('other', '2026-03', 100, T0 + 3);
        assert.equal(await store.loadUpstreamSpend('the-odds-api', '2026-03'), 12);
        assert.equal(await store.loadUpstreamSpend('the-odds-api', '2026-04'), 3);
        assert.equal(await store.loadUpstreamSpend('other', '2026-03'), 100);
        // Replaced, not raised: a refused call's reservation is given back by the write after it.
        await store.saveUpstreamSpend('the-odds-api', '2026-03', 10, T0 + 4);
        assert.equal(await store.loadUpstreamSpend('the-odds-api', '2026-03'), 10);
      }));

    it('the spend survives a restart', () =>
      withStore(async ({ store, restart }) => {
        await store.saveUpstreamSpend('the-odds-api', '2026-03', 2_000_000_000_123, T0);
        const reopened = await restart();
        assert.equal(await reopened.loadUpstreamSpend('the-odds-api', '2026-03'), 2_000_000_000_123);
      }));
  });
}
