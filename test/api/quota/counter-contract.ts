// The behaviour every UsageCounter and CallerLimiter must show (in memory, in Redis): one suite, run per implementation.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CallerLimiter, UsageCounter } from '../../../src/api/quota/counter.js';
import type { Plan } from '../../../src/domain/quota.js';
import type { UsageDay, UsageWrite } from '../../../src/store/store.js';

export const T = Date.parse('2026-03-10T12:00:00Z');
export const HOUR = 3_600_000;
export const plan = (perMonth: number | null, perSecond: number | null): Plan => ({
  name: 'p',
  perMonth,
  perSecond,
  streams: 1,
  webhooks: 2,
});

/** A store of usage rows in memory; `failing` makes writes reject. */
export class FakeUsageStore {
  readonly rows = new Map<string, UsageDay>();
  readonly lastUsed = new Map<string, number>();
  writes: UsageWrite[] = [];
  failing = false;

  async loadUsage(fromDate: string): Promise<UsageDay[]> {
    return [...this.rows.values()].filter((r) => r.date >= fromDate);
  }

  async saveUsage(write: UsageWrite): Promise<void> {
    if (this.failing) throw new Error('disk full');
    const seen = new Set<string>();
    for (const d of write.days) {
      const id = `${d.keyId} ${d.date}`;
      assert.ok(!seen.has(id), `a batch names ${id} twice`);
      seen.add(id);
      this.rows.set(id, { ...d });
    }
    for (const u of write.lastUsed) this.lastUsed.set(u.keyId, Math.max(u.at, this.lastUsed.get(u.keyId) ?? 0));
    this.writes.push(write);
  }

  row(keyId: string, date: string): UsageDay | undefined {
    return this.rows.get(`${keyId} ${date}`);
  }
}

/** One implementation under test; `open` twice in a test is a restart of the same installation. */
export interface CounterHarness {
  /** Opens a counter without a periodic flush (the tests flush). */
  open(store: FakeUsageStore, now?: number): Promise<UsageCounter>;
  dispose(): Promise<void>;
}

/** The counter rules of docs/quotas.md, for any implementation. */
export function usageCounterContract(name: string, setup: () => Promise<CounterHarness>, skip: string | false): void {
  describe(`${name} usage counter`, { skip }, () => {
    let h: CounterHarness;
    const open = (store: FakeUsageStore, now = T): Promise<UsageCounter> => h.open(store, now);
    beforeEach(async () => {
      h = await setup();
    });
    afterEach(async () => {
      await h.dispose();
    });

    test('counts every allowed request and stops exactly at the monthly quota', async () => {
      const c = await open(new FakeUsageStore());
      const p = plan(3, null);
      const decisions = await Promise.all([1, 2, 3, 4, 5].map(() => c.consume('k', p, T)));
      assert.deepEqual(
        decisions.map((d) => [d.ok, d.used]),
        [
          [true, 1],
          [true, 2],
          [true, 3],
          [false, 3],
          [false, 3],
        ],
      );
      const refused = decisions[3]!;
      assert.ok(!refused.ok && refused.reason === 'quota');
      assert.equal(refused.resetAt, Date.parse('2026-04-01T00:00:00Z'));
      assert.equal(refused.retryAfterSeconds, (Date.parse('2026-04-01T00:00:00Z') - T) / 1000);
      assert.equal((await c.snapshot('k', T)).thisMonth, 3);
    });

    test('the per-second rate admits N per whole second; a refusal counts nothing and says retry in 1 s', async () => {
      const c = await open(new FakeUsageStore());
      const p = plan(null, 2);
      const at = T + 400;
      const first = [await c.consume('k', p, at), await c.consume('k', p, at + 100), await c.consume('k', p, at + 500)];
      assert.deepEqual(
        first.map((d) => d.ok),
        [true, true, false],
      );
      const refused = await c.consume('k', p, at + 599);
      assert.ok(!refused.ok && refused.reason === 'rate' && refused.retryAfterSeconds === 1);
      assert.equal(refused.used, 2, 'a refusal reports the month so far');
      assert.equal((await c.snapshot('k', at)).thisMonth, 2);
      assert.equal((await c.consume('k', p, T + 1000)).ok, true, 'the next second starts afresh');
      assert.equal((await c.consume('other', p, at)).ok, true, 'keys do not share a window');
    });

    test('the quota is checked before the rate: an exhausted key reads "quota" whatever its speed', async () => {
      const c = await open(new FakeUsageStore());
      const p = plan(2, 2);
      await c.consume('k', p, T);
      await c.consume('k', p, T);
      const d = await c.consume('k', p, T);
      assert.ok(!d.ok && d.reason === 'quota');
    });

    test('throttle takes per-second slots without counting toward the quota', async () => {
      const c = await open(new FakeUsageStore());
      const p = plan(1, 2);
      assert.equal((await c.consume('k', p, T)).ok, true);
      assert.equal((await c.throttle('k', p, T)).ok, true);
      assert.deepEqual(await c.throttle('k', p, T), { ok: false, retryAfterSeconds: 1 });
      assert.equal((await c.snapshot('k', T)).thisMonth, 1);
      assert.equal((await c.throttle('k', plan(1, null), T)).ok, true, 'no rate limit: always allowed');
    });

    test('the month turns at 00:00 UTC on the 1st: the quota is whole again, the daily list starts over', async () => {
      const store = new FakeUsageStore();
      const lastSecond = Date.parse('2026-03-31T23:59:59.500Z');
      const c = await open(store, lastSecond);
      const p = plan(2, null);
      await c.consume('k', p, lastSecond);
      await c.consume('k', p, lastSecond);
      const refused = await c.consume('k', p, lastSecond);
      assert.ok(!refused.ok && refused.retryAfterSeconds === 1);
      const april = Date.parse('2026-04-01T00:00:00Z');
      const d = await c.consume('k', p, april);
      assert.deepEqual(d, { ok: true, used: 1, resetAt: Date.parse('2026-05-01T00:00:00Z') });
      const snap = await c.snapshot('k', april);
      assert.equal(snap.thisMonth, 1);
      assert.deepEqual(snap.daily, [{ date: '2026-04-01', requests: 1, errors: 0 }]);
      assert.equal(snap.monthEnd, Date.parse('2026-05-01T00:00:00Z'));
      await c.flush();
      assert.equal(store.row('k', '2026-03-31')?.requests, 2, 'March is written although April started first');
      assert.equal(store.row('k', '2026-04-01')?.requests, 1);
    });

    test('errors are counted per day and over the last hour; the hour slides by the minute', async () => {
      const c = await open(new FakeUsageStore());
      const p = plan(null, null);
      for (let i = 0; i < 10; i++) await c.consume('k', p, T + i * 60_000);
      c.recordError('k', T);
      c.recordError('k', T + 9 * 60_000);
      let snap = await c.snapshot('k', T + 9 * 60_000);
      assert.deepEqual(snap.lastHour, { requests: 10, errors: 2 });
      assert.equal(snap.errorsToday, 2);
      snap = await c.snapshot('k', T + 60 * 60_000);
      assert.deepEqual(snap.lastHour, { requests: 9, errors: 1 }, 'the first minute left the hour');
      snap = await c.snapshot('k', T + 69 * 60_000);
      assert.deepEqual(snap.lastHour, { requests: 0, errors: 0 });
      assert.equal(snap.today, 10);
      c.recordError('never-seen', T);
      assert.equal((await c.snapshot('never-seen', T)).errorsToday, 0, 'only counted requests can be errors');
    });

    test('the daily list has every day of the month so far, zeros included', async () => {
      const c = await open(new FakeUsageStore());
      await c.consume('k', plan(null, null), Date.parse('2026-03-02T08:00:00Z'));
      const snap = await c.snapshot('k', T);
      assert.equal(snap.daily.length, 10);
      assert.deepEqual(snap.daily[0], { date: '2026-03-01', requests: 0, errors: 0 });
      assert.deepEqual(snap.daily[1], { date: '2026-03-02', requests: 1, errors: 0 });
      assert.deepEqual(snap.daily[9], { date: '2026-03-10', requests: 0, errors: 0 });
      assert.equal(snap.today, 0);
      assert.equal(snap.thisMonth, 1);
    });

    test('an unknown key reads all zeros', async () => {
      const c = await open(new FakeUsageStore());
      const snap = await c.snapshot('nobody', T);
      assert.equal(snap.thisMonth, 0);
      assert.equal(snap.daily.length, 10);
      assert.deepEqual(snap.lastHour, { requests: 0, errors: 0 });
    });

    test('flush writes absolute day totals and last use, only what changed; a restart loads the month back', async () => {
      const store = new FakeUsageStore();
      store.rows.set('k 2026-02-27', { keyId: 'k', date: '2026-02-27', requests: 99, errors: 0 });
      store.rows.set('k 2026-03-09', { keyId: 'k', date: '2026-03-09', requests: 3, errors: 2 });
      const c = await open(store);
      const p = plan(100, null);
      for (let i = 0; i < 7; i++) await c.consume('k', p, T);
      c.recordError('k', T);
      await c.flush();
      assert.deepEqual(store.row('k', '2026-03-10'), { keyId: 'k', date: '2026-03-10', requests: 7, errors: 1 });
      assert.equal(store.lastUsed.get('k'), T);
      await c.flush();
      assert.equal(store.writes.length, 1, 'nothing changed, nothing written');
      await c.consume('k', p, T + 1);
      await c.close();
      assert.equal(store.row('k', '2026-03-10')?.requests, 8);

      const again = await open(store, T + 5);
      const snap = await again.snapshot('k', T + 5);
      assert.equal(snap.thisMonth, 11, "February's rows are not this month's");
      assert.equal(snap.errorsToday, 1);
      assert.deepEqual(snap.daily[8], { date: '2026-03-09', requests: 3, errors: 2 });
      for (let i = 0; i < 89; i++) assert.equal((await again.consume('k', p, T + 5)).ok, true);
      assert.equal((await again.consume('k', p, T + 5)).ok, false, 'the quota continues where it stopped');
      await again.close();
    });

    test('a failed write loses nothing: the next flush writes the newest totals', async () => {
      const store = new FakeUsageStore();
      const c = await open(store);
      const p = plan(null, null);
      await c.consume('k', p, T);
      store.failing = true;
      await assert.rejects(c.flush(), /disk full/);
      await c.consume('k', p, T);
      await c.consume('k', p, T + 86_400_000);
      store.failing = false;
      await c.flush();
      assert.equal(store.row('k', '2026-03-10')?.requests, 2);
      assert.equal(store.row('k', '2026-03-11')?.requests, 1);
      assert.equal(store.lastUsed.get('k'), T + 86_400_000);
    });

    test('a failed write across a month rollover keeps both months and writes each day once', async () => {
      const store = new FakeUsageStore();
      const end = Date.parse('2026-03-31T23:00:00Z');
      const c = await open(store, end);
      const p = plan(null, null);
      await c.consume('k', p, end);
      store.failing = true;
      await assert.rejects(c.flush());
      await c.consume('k', p, end);
      await c.consume('k', p, Date.parse('2026-04-01T01:00:00Z'));
      store.failing = false;
      await c.flush();
      assert.equal(store.row('k', '2026-03-31')?.requests, 2);
      assert.equal(store.row('k', '2026-04-01')?.requests, 1);
    });

    test('concurrent flushes run one after the other', async () => {
      const store = new FakeUsageStore();
      const c = await open(store);
      await c.consume('k', plan(null, null), T);
      await Promise.all([c.flush(), c.flush(), c.flush()]);
      assert.equal(store.row('k', '2026-03-10')?.requests, 1);
    });

    test('1,000 concurrent requests on one key count exactly once each; against a quota of 600 exactly 600 pass', async () => {
      const store = new FakeUsageStore();
      const c = await open(store);
      const all = await Promise.all(Array.from({ length: 1000 }, () => c.consume('many', plan(null, null), T)));
      assert.equal(all.filter((d) => d.ok).length, 1000);
      assert.deepEqual(
        all.map((d) => d.used).sort((a, b) => a - b),
        Array.from({ length: 1000 }, (_, i) => i + 1),
        'every request saw its own count',
      );
      const capped = await Promise.all(Array.from({ length: 1000 }, () => c.consume('capped', plan(600, null), T)));
      assert.equal(capped.filter((d) => d.ok).length, 600);
      await c.flush();
      assert.equal(store.row('many', '2026-03-10')?.requests, 1000);
      assert.equal(store.row('capped', '2026-03-10')?.requests, 600);
    });
  });
}

/** One limiter under test. */
export interface CallerHarness {
  limiter(limits?: { perSecond: number; perHour: number }): CallerLimiter;
  dispose(): Promise<void>;
}

/** The health/status limits of docs/quotas.md, for any implementation. */
export function callerLimiterContract(name: string, setup: () => Promise<CallerHarness>, skip: string | false): void {
  describe(`${name} per-caller limiter (2/s, 120/h)`, { skip }, () => {
    let h: CallerHarness;
    beforeEach(async () => {
      h = await setup();
    });
    afterEach(async () => {
      await h.dispose();
    });

    test('two per second; the third waits for the next second', async () => {
      const l = h.limiter();
      assert.equal((await l.hit('a', T + 100)).ok, true);
      assert.equal((await l.hit('a', T + 200)).ok, true);
      assert.deepEqual(await l.hit('a', T + 300), { ok: false, retryAfterSeconds: 1 });
      assert.equal((await l.hit('b', T + 300)).ok, true, 'another caller has its own allowance');
      assert.equal((await l.hit('a', T + 1000)).ok, true);
    });

    test('120 in any 60 minutes: the 121st waits until the oldest is an hour old', async () => {
      const l = h.limiter();
      for (let i = 0; i < 120; i++) assert.equal((await l.hit('a', T + i * 1000)).ok, true, `request ${i + 1}`);
      const at = T + 120 * 1000;
      assert.deepEqual(await l.hit('a', at), { ok: false, retryAfterSeconds: 3600 - 120 });
      assert.deepEqual(await l.hit('a', T + HOUR - 1), { ok: false, retryAfterSeconds: 1 });
      assert.equal((await l.hit('a', T + HOUR)).ok, true, 'the first left the hour');
      assert.equal((await l.hit('a', T + HOUR + 100)).ok, false, 'the second-oldest is still inside the hour');
      assert.equal((await l.hit('a', T + HOUR + 1000)).ok, true);
    });

    test('refused requests do not use up the hour', async () => {
      const l = h.limiter({ perSecond: 2, perHour: 4 });
      for (let i = 0; i < 50; i++) await l.hit('a', T);
      assert.equal((await l.hit('a', T + 1000)).ok, true);
      assert.equal((await l.hit('a', T + 1000)).ok, true);
      assert.equal((await l.hit('a', T + 2000)).ok, false, 'four in the hour');
    });

    test('two requests in the same millisecond both count toward the hour', async () => {
      const l = h.limiter({ perSecond: 2, perHour: 4 });
      assert.equal((await l.hit('a', T)).ok, true);
      assert.equal((await l.hit('a', T)).ok, true);
      assert.equal((await l.hit('a', T + 1000)).ok, true);
      assert.equal((await l.hit('a', T + 1000)).ok, true);
      assert.deepEqual(await l.hit('a', T + 2000), { ok: false, retryAfterSeconds: 3598 });
    });
  });
}
