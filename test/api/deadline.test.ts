// A component probe with a deadline: answers null when the component holds it, runs one probe at a time, and sees the component back with the next probe.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DeadlineProbe, within } from '../../src/api/deadline.js';

/** A probe whose answers the test gives by hand. */
function handProbe(): { probe: () => Promise<number>; started: number; answer(v: number): void; fail(): void } {
  const pending: Array<{ resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  const h = {
    started: 0,
    probe: () =>
      new Promise<number>((resolve, reject) => {
        h.started++;
        pending.push({ resolve, reject });
      }),
    answer: (v: number) => pending.shift()?.resolve(v),
    fail: () => pending.shift()?.reject(new Error('down')),
  };
  return h;
}

describe('within and DeadlineProbe', () => {
  test('within: the value in time, null after the deadline or on a rejection', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    assert.equal(await within(Promise.resolve(7), 100), 7);
    assert.equal(await within(Promise.reject(new Error('x')), 100), null);
    const held = within(new Promise<number>(() => undefined), 100);
    t.mock.timers.tick(100);
    assert.equal(await held, null);
  });

  test('a held probe is null at its deadline, shared by every check meanwhile, and the component is seen back by the next probe', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const h = handProbe();
    const probe = new DeadlineProbe(h.probe);
    const first = probe.check(600);
    const second = probe.check(600);
    t.mock.timers.tick(600);
    assert.equal(await first, null, 'a stalled component is not connected');
    assert.equal(await second, null);
    // Still held: a later check waits for the same probe instead of starting another.
    const third = probe.check(600);
    assert.equal(h.started, 1, 'one probe at a time');
    // The component answers: that probe says so, and the next check starts a fresh one.
    h.answer(3);
    assert.equal(await third, 3);
    await Promise.resolve();
    const fourth = probe.check(600);
    assert.equal(h.started, 2);
    h.fail();
    assert.equal(await fourth, null, 'a failed probe is null');
  });

  test('a probe that throws at once is null, not an exception', async () => {
    const probe = new DeadlineProbe<number>(() => {
      throw new Error('no connection');
    });
    assert.equal(await probe.check(100), null);
  });
});
