// A candidate's terms: the store fence shuts the moment it is deposed, and a start under way is stopped, not finished.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DeposedError, Leadership } from '../../src/pipeline/leadership.js';
import type { Store } from '../../src/store/store.js';

/** A store that records the writes it gets (only what the fence looks at). */
function recordingStore(): { store: Store; writes: string[] } {
  const writes: string[] = [];
  const store = {
    writeBatch: async () => void writes.push('writeBatch'),
    saveSettlement: async () => void writes.push('saveSettlement'),
    saveResult: async () => void writes.push('saveResult'),
    getResult: async () => null,
  } as unknown as Store;
  return { store, writes };
}

describe('leadership terms', () => {
  it('a deposed leader cannot start a store write, and reads still work', async () => {
    const { store, writes } = recordingStore();
    const stops: string[] = [];
    const l = new Leadership(store, { start: async () => undefined, stop: async () => void stops.push('stop') });
    await assert.rejects(l.store.writeBatch({} as never), DeposedError, 'a standby never writes');
    await l.elected();
    assert.equal(l.leading, true);
    await l.store.writeBatch({} as never);
    const stepped = l.lost();
    // At once, before the step-down has run: the in-flight flush or settlement batch is refused.
    assert.equal(l.leading, false);
    await assert.rejects(l.store.saveSettlement({} as never), DeposedError);
    await assert.rejects(l.store.saveResult({} as never, {} as never), DeposedError);
    assert.equal(await l.store.getResult('x'), null);
    await stepped;
    assert.deepEqual(writes, ['writeBatch']);
    assert.deepEqual(stops, ['stop']);
  });

  it('deposed while starting: the start stops where it is, never leads, and the step-down waits for it', async () => {
    const { store } = recordingStore();
    const order: string[] = [];
    let release!: () => void;
    const loading = new Promise<void>((r) => (release = r));
    const l = new Leadership(store, {
      start: async (current) => {
        order.push('load');
        await loading;
        if (!current()) return;
        order.push('simulator started');
      },
      stop: async () => void order.push('stop'),
    });
    const elected = l.elected();
    const stepped = l.lost();
    release();
    await assert.rejects(elected, /lost while starting/);
    await stepped;
    assert.deepEqual(order, ['load', 'stop']);
    assert.equal(l.leading, false);
    // The next term starts afresh.
    await l.elected();
    assert.equal(l.leading, true);
    assert.deepEqual(order, ['load', 'stop', 'load', 'simulator started']);
  });
});
