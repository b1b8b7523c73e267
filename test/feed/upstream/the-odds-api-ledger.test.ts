// The producer and its spend ledger: the stored month's spend is read before the first call, each call's cost is stored before it is made, and no call is made when that cannot be done.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TheOddsApiProducer, type SpendLedger } from '../../../src/feed/upstream/the-odds-api/producer.js';
import { fakeSettings, startFakeUpstream, type FakeUpstream } from './fake-the-odds-api.js';
import { oddsEvent } from './the-odds-api-fixtures.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const game = oddsEvent(
  'l1',
  'soccer_epl',
  { home: 'Arsenal', away: 'Chelsea' },
  new Date(T0 + 3_600_000 * 3).toISOString(),
  [{ key: 'wh', h2h: [2.1, 3.4, 3.6] }],
);

/** A ledger in memory whose reads and writes can be made to fail, or refused (a deposed leader). */
class MemoryLedger implements SpendLedger {
  stored = new Map<string, number>();
  saves: Array<[string, number]> = [];
  loadFails = false;
  saveFails = false;
  deposed = false;
  async load(month: string): Promise<number> {
    if (this.loadFails) throw new Error('store down');
    return this.stored.get(month) ?? 0;
  }
  async save(month: string, credits: number): Promise<boolean> {
    if (this.saveFails) throw new Error('store down');
    if (this.deposed) return false;
    this.saves.push([month, credits]);
    this.stored.set(month, credits);
    return true;
  }
}

let fake: FakeUpstream;

function producer(ledger: MemoryLedger, logs: string[] = []): TheOddsApiProducer {
  return new TheOddsApiProducer({
    settings: fakeSettings(fake, { monthlyBudget: 100 }),
    sink: async () => undefined,
    now: () => T0,
    timeoutMs: 2000,
    ledger,
    log: { info: (_o, msg) => logs.push(msg), warn: (_o, msg) => logs.push(msg) },
  });
}

describe('The Odds API producer: the stored spend', () => {
  before(async () => {
    fake = await startFakeUpstream();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.odds.set('soccer_epl', [game]);
    fake.faults.length = 0;
    fake.requests.length = 0;
    fake.creditsUsed = 0;
  });

  it('goes on from the stored month, stores the cost before the call and the charge after it', async () => {
    const ledger = new MemoryLedger();
    ledger.stored.set('2026-03', 40);
    const p = producer(ledger);
    await p.tick();
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(ledger.saves, [
      ['2026-03', 43],
      ['2026-03', 43],
    ]);
    assert.equal(p.status().creditsSpentThisMonth, 43);
    assert.equal(p.status().creditsLeft, 57);
  });

  it('a refused call gives its reservation back', async () => {
    const ledger = new MemoryLedger();
    fake.faults.push({ kind: 'status', status: 500 });
    const p = producer(ledger);
    await p.tick();
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(ledger.saves, [
      ['2026-03', 3],
      ['2026-03', 0],
    ]);
    assert.equal(p.status().state, 'backing_off');
  });

  it('makes no call while the stored spend cannot be read, and goes on once it can', async () => {
    const ledger = new MemoryLedger();
    ledger.stored.set('2026-03', 90);
    ledger.loadFails = true;
    const logs: string[] = [];
    const p = producer(ledger, logs);
    await p.tick();
    await p.tick();
    assert.equal(fake.requests.length, 0);
    assert.equal(p.status().state, 'backing_off');
    assert.equal(logs.length, 1, 'logged once, not per tick');
    ledger.loadFails = false;
    await p.tick();
    assert.equal(fake.requests.length, 1);
    assert.equal(p.status().creditsSpentThisMonth, 93);
    assert.equal(p.status().state, 'ok');
  });

  it('makes no call when the cost cannot be stored first, nor when the store refuses it (deposed)', async () => {
    const failing = new MemoryLedger();
    failing.saveFails = true;
    const a = producer(failing);
    await a.tick();
    assert.equal(fake.requests.length, 0);
    assert.equal(a.status().state, 'backing_off');

    const deposed = new MemoryLedger();
    deposed.deposed = true;
    const logs: string[] = [];
    const b = producer(deposed, logs);
    await b.tick();
    assert.equal(fake.requests.length, 0);
    assert.equal(b.status().calls, 0);
    assert.deepEqual(logs, [], 'a deposed leader is not an upstream fault');
  });
});
