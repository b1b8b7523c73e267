// The in-process usage counter: atomic check-and-count, per-second windows, month rollover, batched persistence.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryUsageCounter } from '../../../src/api/quota/memory-counter.js';
import type { Plan } from '../../../src/domain/quota.js';
import type { UsageDay, UsageWrite } from '../../../src/store/store.js';

const T = Date.parse('2026-03-10T12:00:00Z');
const plan = (perMonth: number | null, perSecond: number | null): Plan => ({ name: 'p', perMonth, perSecond });

/** A store of usage rows in memory; `failing` makes writes reject. */
class FakeUsageStore {
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

const open = (store: FakeUsageStore, now = T) => MemoryUsageCounter.open({ store, flushIntervalMs: 0 }, now);

describe('memory usage counter', () => {
  test('counts every allowed request and stops exactly at the monthly quota', async () => {
    const c = await open(new FakeUsageStore());
    const p = plan(3, null);
    const decisions = [1, 2, 3, 4, 5].map(() => c.consume('k', p, T));
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
    assert.equal(c.snapshot('k', T).thisMonth, 3);
  });

  test('the per-second rate admits N per whole second; a refusal counts nothing and says retry in 1 s', async () => {
    const c = await open(new FakeUsageStore());
    const p = plan(null, 2);
    const at = T + 400;
    assert.deepEqual(
      [c.consume('k', p, at), c.consume('k', p, at + 100), c.consume('k', p, at + 500)].map((d) => d.ok),
      [true, true, false],
    );
    const refused = c.consume('k', p, at + 599);
    assert.ok(!refused.ok && refused.reason === 'rate' && refused.retryAfterSeconds === 1);
    assert.equal(c.snapshot('k', at).thisMonth, 2);
    assert.equal(c.consume('k', p, T + 1000).ok, true, 'the next second starts afresh');
    assert.equal(c.consume('other', p, at).ok, true, 'keys do not share a window');
  });

  test('throttle takes per-second slots without counting toward the quota', async () => {
    const c = await open(new FakeUsageStore());
    const p = plan(1, 2);
    assert.equal(c.consume('k', p, T).ok, true);
    assert.equal(c.throttle('k', p, T).ok, true);
    assert.equal(c.throttle('k', p, T).ok, false);
    assert.equal(c.snapshot('k', T).thisMonth, 1);
    assert.equal(c.throttle('k', plan(1, null), T).ok, true, 'no rate limit: always allowed');
  });

  test('the month turns at 00:00 UTC on the 1st: the quota is whole again, the daily list starts over', async () => {
    const store = new FakeUsageStore();
    const lastSecond = Date.parse('2026-03-31T23:59:59.500Z');
    const c = await open(store, lastSecond);
    const p = plan(2, null);
    c.consume('k', p, lastSecond);
    c.consume('k', p, lastSecond);
    const refused = c.consume('k', p, lastSecond);
    assert.ok(!refused.ok && refused.retryAfterSeconds === 1);
    const april = Date.parse('2026-04-01T00:00:00Z');
    assert.equal(c.consume('k', p, april).ok, true);
    const snap = c.snapshot('k', april);
    assert.equal(snap.thisMonth, 1);
    assert.deepEqual(snap.daily, [{ date: '2026-04-01', requests: 1, errors: 0 }]);
    await c.flush();
    assert.equal(store.row('k', '2026-03-31')?.requests, 2, 'March is written although April started first');
    assert.equal(store.row('k', '2026-04-01')?.requests, 1);
  });

  test('errors are counted per day and over the last hour; the hour slides by the minute', async () => {
    const c = await open(new FakeUsageStore());
    const p = plan(null, null);
    for (let i = 0; i < 10; i++) c.consume('k', p, T + i * 60_000);
    c.recordError('k', T);
    c.recordError('k', T + 9 * 60_000);
    let snap = c.snapshot('k', T + 9 * 60_000);
    assert.deepEqual(snap.lastHour, { requests: 10, errors: 2 });
    assert.equal(snap.errorsToday, 2);
    snap = c.snapshot('k', T + 60 * 60_000);
    assert.deepEqual(snap.lastHour, { requests: 9, errors: 1 }, 'the first minute left the hour');
    snap = c.snapshot('k', T + 69 * 60_000);
    assert.deepEqual(snap.lastHour, { requests: 0, errors: 0 });
    assert.equal(snap.today, 10);
    c.recordError('never-seen', T);
    assert.equal(c.snapshot('never-seen', T).errorsToday, 0, 'only counted requests can be errors');
  });

  test('the daily list has every day of the month so far, zeros included', async () => {
    const c = await open(new FakeUsageStore());
    c.consume('k', plan(null, null), Date.parse('2026-03-02T08:00:00Z'));
    const snap = c.snapshot('k', T);
    assert.equal(snap.daily.length, 10);
    assert.deepEqual(snap.daily[0], { date: '2026-03-01', requests: 0, errors: 0 });
    assert.deepEqual(snap.daily[1], { date: '2026-03-02', requests: 1, errors: 0 });
    assert.deepEqual(snap.daily[9], { date: '2026-03-10', requests: 0, errors: 0 });
    assert.equal(snap.today, 0);
    assert.equal(snap.thisMonth, 1);
  });

  test('flush writes absolute day totals and last use, only what changed; a restart loads the month back', async () => {
    const store = new FakeUsageStore();
    store.rows.set('k 2026-02-27', { keyId: 'k', date: '2026-02-27', requests: 99, errors: 0 });
    const c = await open(store);
    const p = plan(100, null);
    for (let i = 0; i < 7; i++) c.consume('k', p, T);
    c.recordError('k', T);
    await c.flush();
    assert.deepEqual(store.row('k', '2026-03-10'), { keyId: 'k', date: '2026-03-10', requests: 7, errors: 1 });
    assert.equal(store.lastUsed.get('k'), T);
    await c.flush();
    assert.equal(store.writes.length, 1, 'nothing changed, nothing written');
    c.consume('k', p, T + 1);
    await c.close();
    assert.equal(store.row('k', '2026-03-10')?.requests, 8);

    const again = await open(store, T + 5);
    const snap = again.snapshot('k', T + 5);
    assert.equal(snap.thisMonth, 8, "February's rows are not this month's");
    assert.equal(snap.errorsToday, 1);
    for (let i = 0; i < 92; i++) assert.equal(again.consume('k', p, T + 5).ok, true);
    assert.equal(again.consume('k', p, T + 5).ok, false, 'the quota continues where it stopped');
  });

  test('a failed write loses nothing: the next flush writes the newest totals', async () => {
    const store = new FakeUsageStore();
    const c = await open(store);
    const p = plan(null, null);
    c.consume('k', p, T);
    store.failing = true;
    await assert.rejects(c.flush(), /disk full/);
    c.consume('k', p, T);
    c.consume('k', p, T + 86_400_000);
    store.failing = false;
    await c.flush();
    assert.equal(store.row('k', '2026-03-10')?.requests, 2);
    assert.equal(store.row('k', '2026-03-11')?.requests, 1);
  });

  test('a failed write across a month rollover keeps both months and writes each day once', async () => {
    const store = new FakeUsageStore();
    const end = Date.parse('2026-03-31T23:00:00Z');
    const c = await open(store, end);
    const p = plan(null, null);
    c.consume('k', p, end);
    store.failing = true;
    await assert.rejects(c.flush());
    c.consume('k', p, end);
    c.consume('k', p, Date.parse('2026-04-01T01:00:00Z'));
    store.failing = false;
    await c.flush();
    assert.equal(store.row('k', '2026-03-31')?.requests, 2);
    assert.equal(store.row('k', '2026-04-01')?.requests, 1);
  });

  test('concurrent flushes run one after the other', async () => {
    const store = new FakeUsageStore();
    const c = await open(store);
    c.consume('k', plan(null, null), T);
    await Promise.all([c.flush(), c.flush(), c.flush()]);
    assert.equal(store.row('k', '2026-03-10')?.requests, 1);
  });
});
