// The producer's retry queue: refused messages come back after a backoff, in order per key, in bounded memory; final refusals are not retried.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetryQueue, type RetryClock, type Verdict } from '../../src/pipeline/retry-queue.js';

interface Msg {
  key: string;
  n: number;
  /** Refused for good (a lifecycle error): never accepted. */
  bad?: boolean;
}

/** A receiver like the pipeline: while `down` it refuses `commit` keys for retry, and every later message of a refused key in the same call. */
class Receiver {
  down = false;
  readonly accepted: Msg[] = [];
  readonly calls: Msg[][] = [];
  constructor(private readonly commits: (m: Msg) => boolean = () => true) {}

  deliver = async (items: Msg[]): Promise<Verdict[]> => {
    this.calls.push(items);
    const refused = new Set<string>();
    return items.map((m) => {
      if (refused.has(m.key)) return 'retry';
      if (m.bad === true) return 'rejected';
      if (this.down && this.commits(m)) {
        refused.add(m.key);
        return 'retry';
      }
      this.accepted.push(m);
      return 'accepted';
    });
  };
}

/** A test clock: sleeping moves it forward at once (and may run a hook, e.g. the store coming back). */
function fakeClock(onSleep: (ms: number) => void = () => undefined): RetryClock & { t: number; slept: number[] } {
  const c = {
    t: 0,
    slept: [] as number[],
    now: () => c.t,
    sleep: async (ms: number) => {
      c.slept.push(ms);
      c.t += ms;
      onSleep(ms);
    },
  };
  return c;
}

const backoff = { initialMs: 100, maxMs: 1_000, factor: 2 };

describe('RetryQueue', () => {
  it('retries a refused message after the backoff, growing while refused, until it is accepted', async () => {
    const rx = new Receiver();
    const clock = fakeClock();
    const q = new RetryQueue<Msg>({ deliver: rx.deliver, keyOf: (m) => m.key, clock, backoff, maxHeld: 100 });
    rx.down = true;
    await q.submit([{ key: 'e1', n: 1 }]);
    assert.equal(q.size, 1);
    assert.equal(q.nextRetryAt, 100);

    clock.t = 99;
    await q.retryDue();
    assert.equal(rx.calls.length, 1, 'not before the backoff');
    clock.t = 100;
    await q.retryDue();
    assert.equal(rx.calls.length, 2, 'retried once due');
    assert.equal(q.nextRetryAt, 300, 'refused again: the wait doubles');
    clock.t = 300;
    await q.retryDue();
    assert.equal(q.nextRetryAt, 700);

    rx.down = false;
    clock.t = 700;
    await q.retryDue();
    assert.equal(q.size, 0);
    assert.deepEqual(
      rx.accepted.map((m) => m.n),
      [1],
    );
    assert.deepEqual(q.counts, { refused: 1, queuedBehind: 0, retried: 3, delivered: 1, givenUp: 0 });
  });

  it('keeps the order per key: later messages of a refused key wait behind it, other keys go on', async () => {
    const rx = new Receiver((m) => m.n === 1); // only e1's first message needs the store
    const clock = fakeClock();
    const q = new RetryQueue<Msg>({ deliver: rx.deliver, keyOf: (m) => m.key, clock, backoff, maxHeld: 100 });
    rx.down = true;
    await q.submit([
      { key: 'e1', n: 1 },
      { key: 'e2', n: 2 },
      { key: 'e1', n: 3 },
    ]);
    await q.submit([
      { key: 'e1', n: 4 },
      { key: 'e3', n: 5 },
    ]);
    assert.deepEqual(
      rx.accepted.map((m) => m.n),
      [2, 5],
      'other events are not held up',
    );
    assert.deepEqual(
      rx.calls[1]!.map((m) => m.n),
      [5],
      'e1’s later message was not even sent',
    );
    rx.down = false;
    clock.t = 100;
    await q.submit([{ key: 'e1', n: 6 }]);
    assert.deepEqual(
      rx.accepted.filter((m) => m.key === 'e1').map((m) => m.n),
      [1, 3, 4, 6],
      'e1 in its own order',
    );
    assert.equal(q.size, 0);
  });

  it('does not retry a message refused for good', async () => {
    const rx = new Receiver();
    const clock = fakeClock();
    const q = new RetryQueue<Msg>({ deliver: rx.deliver, keyOf: (m) => m.key, clock, backoff, maxHeld: 100 });
    await q.submit([{ key: 'e1', n: 1, bad: true }]);
    clock.t = 10_000;
    await q.retryDue();
    assert.equal(q.size, 0);
    assert.equal(rx.calls.length, 1);
  });

  it('holds a bounded number: beyond maxHeld the producer waits (backing off) until the receiver takes them', async () => {
    const rx = new Receiver();
    const clock = fakeClock(() => {
      if (clock.slept.length === 4) rx.down = false; // the store comes back after four waits
    });
    const sizes: number[] = [];
    const q = new RetryQueue<Msg>({
      deliver: async (items) => {
        sizes.push(q.size + items.length);
        return rx.deliver(items);
      },
      keyOf: (m) => m.key,
      clock,
      backoff,
      maxHeld: 3,
    });
    rx.down = true;
    await q.submit([1, 2, 3].map((n) => ({ key: `e${n}`, n })));
    assert.equal(q.size, 3, 'up to maxHeld: held, the producer goes on');
    assert.deepEqual(clock.slept, []);
    await q.submit([4, 5].map((n) => ({ key: `e${n}`, n })));
    assert.deepEqual(clock.slept, [100, 200, 400, 800], 'waited, backing off, until the receiver took them');
    assert.equal(q.size, 0);
    assert.deepEqual(
      rx.accepted.map((m) => m.n),
      [1, 2, 3, 4, 5],
    );
    assert.ok(Math.max(...sizes) <= 5, 'never more than maxHeld plus one batch in memory');
  });

  it('gives a message up after maxAttempts (a producer with a bounded patience)', async () => {
    const rx = new Receiver();
    const clock = fakeClock();
    const given: Array<[number, number]> = [];
    const q = new RetryQueue<Msg>({
      deliver: rx.deliver,
      keyOf: (m) => m.key,
      clock,
      backoff,
      maxHeld: 100,
      maxAttempts: 3,
      onGiveUp: (m, attempts) => given.push([m.n, attempts]),
    });
    rx.down = true;
    await q.submit([{ key: 'e1', n: 1 }]);
    for (let i = 0; i < 5; i++) {
      clock.t += 10_000;
      await q.retryDue();
    }
    assert.deepEqual(given, [[1, 3]]);
    assert.equal(rx.calls.length, 3);
    assert.equal(q.counts.givenUp, 1);
  });

  it('runs due retries on its own timer when nothing is submitted', async () => {
    const rx = new Receiver();
    const clock = fakeClock();
    let pending: (() => void) | null = null;
    const q = new RetryQueue<Msg>({
      deliver: rx.deliver,
      keyOf: (m) => m.key,
      clock,
      backoff,
      maxHeld: 100,
      timer: { set: (fn) => (pending = fn), clear: () => (pending = null) },
    });
    rx.down = true;
    await q.submit([{ key: 'e1', n: 1 }]);
    assert.ok(pending !== null, 'a retry is scheduled');
    rx.down = false;
    clock.t = 100;
    (pending as () => void)();
    await q.retryDue(); // waits for the timer's retry (deliveries are serial)
    assert.equal(q.size, 0);
    assert.deepEqual(
      rx.accepted.map((m) => m.n),
      [1],
    );
  });
});
