// The Odds API producer against a fake upstream on loopback: what it asks for, the budget it keeps, and how it backs off on 429, 5xx and timeouts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FeedMessage } from '../../../src/feed/messages.js';
import { TheOddsApiProducer, type TheOddsApiSettings } from '../../../src/feed/upstream/the-odds-api/producer.js';
import { fakeSettings, startFakeUpstream, type FakeUpstream } from './fake-the-odds-api.js';
import { oddsEvent, scoreEvent } from './the-odds-api-fixtures.js';
import { until } from '../../helpers/until.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3600_000;
const TEAMS = { home: 'Arsenal', away: 'Chelsea' };
const game = oddsEvent('p1', 'soccer_epl', TEAMS, new Date(T0 + 30 * 60_000).toISOString(), [
  { key: 'wh', h2h: [2.1, 3.4, 3.6], total: [2.5, 1.9, 1.95] },
]);

interface Harness {
  producer: TheOddsApiProducer;
  batches: FeedMessage[][];
  logs: Array<{ level: string; msg: string; obj: Record<string, unknown> }>;
  clock: { t: number };
}

let fake: FakeUpstream;

function harness(over: Partial<TheOddsApiSettings> = {}, timeoutMs = 2000): Harness {
  const clock = { t: T0 };
  const batches: FeedMessage[][] = [];
  const logs: Harness['logs'] = [];
  const producer = new TheOddsApiProducer({
    settings: fakeSettings(fake, { monthlyBudget: 100_000, ...over }),
    sink: async (m) => {
      batches.push(m);
    },
    now: () => clock.t,
    timeoutMs,
    log: {
      info: (obj, msg) => logs.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
      warn: (obj, msg) => logs.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
    },
  });
  return { producer, batches, logs, clock };
}

describe('The Odds API producer', () => {
  before(async () => {
    fake = await startFakeUpstream();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.odds.clear();
    fake.scores.clear();
    fake.faults.length = 0;
    fake.requests.length = 0;
    fake.creditsUsed = 0;
    fake.quota = 100_000;
  });

  it('asks /odds for h2h, spreads and totals in decimal for the configured regions, and reads the quota headers', async () => {
    fake.odds.set('soccer_epl', [game]);
    const h = harness({ regions: ['uk', 'eu'] });
    await h.producer.tick();
    assert.equal(fake.requests.length, 1);
    const q = fake.requests[0]!.query;
    assert.equal(fake.requests[0]!.path, '/v4/sports/soccer_epl/odds');
    assert.equal(q.get('markets'), 'h2h,spreads,totals');
    assert.equal(q.get('regions'), 'uk,eu');
    assert.equal(q.get('oddsFormat'), 'decimal');
    assert.deepEqual(
      h.batches.flat().map((m) => m.type),
      ['fixture', 'markets'],
    );
    const s = h.producer.status();
    assert.equal(s.state, 'ok');
    assert.equal(s.creditsSpentThisMonth, 6, 'markets x regions');
    assert.equal(s.providerRemaining, 100_000 - 6);
    assert.equal(s.lastSuccessAt, T0);
  });

  it('asks /scores (daysFrom=1) only once a game has started', async () => {
    fake.odds.set('soccer_epl', [game]);
    fake.scores.set('soccer_epl', [scoreEvent(game, [1, 0])]);
    const h = harness();
    await h.producer.tick();
    assert.deepEqual(
      fake.requests.map((r) => r.path),
      ['/v4/sports/soccer_epl/odds'],
    );
    h.clock.t = T0 + HOUR;
    await h.producer.tick();
    assert.deepEqual(
      fake.requests.map((r) => r.path.split('/').pop()),
      ['odds', 'odds', 'scores'],
    );
    assert.equal(fake.requests[2]!.query.get('daysFrom'), '1');
    assert.deepEqual(
      h.batches.flat().map((m) => m.type),
      ['fixture', 'markets', 'status', 'score'],
    );
  });

  it('polls a sport with nothing soon far less often than one with a game about to start', async () => {
    const far = { ...game, id: 'far', commence_time: new Date(T0 + 3 * 24 * HOUR).toISOString() };
    fake.odds.set('soccer_epl', [far]);
    const cold = harness({ monthlyBudget: 1_000_000 });
    await cold.producer.tick();
    const coldGap = cold.producer.status().nextPollAt! - T0;
    fake.odds.set('soccer_epl', [game]);
    const hot = harness({ monthlyBudget: 1_000_000 });
    await hot.producer.tick();
    const hotGap = hot.producer.status().nextPollAt! - T0;
    assert.ok(hotGap >= 60_000, `at least UPSTREAM_POLL_SECONDS (${hotGap})`);
    assert.ok(coldGap >= 15 * hotGap, `far (${coldGap}) vs near kick-off (${hotGap})`);
  });

  it('spaces polls so the rest of the budget lasts the month, and never spends past it', async () => {
    fake.odds.set('soccer_epl', [game]);
    // 20 credits: six /odds calls of 3 would be 18; a seventh would exceed it.
    const h = harness({ monthlyBudget: 20 });
    await h.producer.tick();
    const gap = h.producer.status().nextPollAt! - T0;
    // 17 credits left for ~30.5 days at 3 a call: about 5 calls, days apart.
    assert.ok(gap > 4 * 24 * HOUR, `even pace over the month (${gap / HOUR} h)`);
    const april = Date.parse('2026-04-01T00:00:00Z');
    // Every poll the plan allows within March (the sport stays hot: a game about to start).
    while (h.producer.status().nextPollAt! < april) {
      h.clock.t = h.producer.status().nextPollAt!;
      fake.odds.set('soccer_epl', [{ ...game, commence_time: new Date(h.clock.t + 30 * 60_000).toISOString() }]);
      await h.producer.tick();
    }
    assert.equal(fake.creditsUsed, 18, 'six calls of 3 credits: a seventh would pass 20');
    assert.equal(h.producer.status().state, 'budget_exhausted');
    assert.equal(h.producer.status().creditsLeft, 2);
    // April: a new budget.
    h.clock.t = april;
    await h.producer.tick();
    assert.equal(fake.creditsUsed, 21);
    assert.equal(h.producer.status().creditsSpentThisMonth, 3);
  });

  it("stops at the provider's remaining credits even within our budget", async () => {
    fake.odds.set('soccer_epl', [game]);
    fake.quota = 4;
    const h = harness({ pollSeconds: 1 });
    await h.producer.tick();
    h.clock.t += 10 * HOUR;
    await h.producer.tick();
    assert.equal(fake.requests.length, 1, 'one credit left is less than a call costs');
    assert.equal(h.producer.status().state, 'budget_exhausted');
  });

  it('a 429 with quota headers backs off exponentially and logs once per state change, not per call', async () => {
    fake.odds.set('soccer_epl', [game]);
    const h = harness();
    await h.producer.tick();
    const before = h.batches.length;
    const too = {
      kind: 'status' as const,
      status: 429,
      headers: { 'x-requests-remaining': '500', 'x-requests-used': '9500' },
    };
    fake.faults.push(too, too, too);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      h.clock.t = h.producer.status().nextPollAt!;
      const at = h.clock.t;
      await h.producer.tick();
      waits.push(h.producer.status().nextPollAt! - at);
      // Not due yet: nothing asked during the backoff.
      const n = fake.requests.length;
      h.clock.t += 1000;
      await h.producer.tick();
      assert.equal(fake.requests.length, n);
    }
    assert.deepEqual(waits, [5000, 10_000, 20_000]);
    assert.equal(h.producer.status().state, 'backing_off');
    assert.equal(h.producer.status().providerRemaining, 500);
    assert.equal(h.producer.status().failures, 3);
    assert.equal(h.logs.filter((l) => l.level === 'warn').length, 1);
    assert.match(String(h.logs.find((l) => l.level === 'warn')!.obj.reason), /rate_limited/);
    assert.equal(h.batches.length, before, 'the last good state stands: nothing retracted');
    h.clock.t = h.producer.status().nextPollAt!;
    await h.producer.tick();
    assert.equal(h.producer.status().state, 'ok');
    assert.equal(h.producer.status().failures, 0);
    assert.equal(h.logs.filter((l) => l.level === 'info').length, 2, 'answering at the start, and again');
  });

  it('a 429 with Retry-After waits at least that long', async () => {
    fake.odds.set('soccer_epl', [game]);
    fake.faults.push({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const h = harness();
    await h.producer.tick();
    assert.equal(h.producer.status().nextPollAt! - T0, 120_000);
  });

  it('a 5xx backs off, costs nothing, and the backoff is capped', async () => {
    fake.odds.set('soccer_epl', [game]);
    const h = harness();
    for (let i = 0; i < 12; i++) fake.faults.push({ kind: 'status', status: 503 });
    let last = 0;
    for (let i = 0; i < 12; i++) {
      const at = h.clock.t;
      await h.producer.tick();
      last = h.producer.status().nextPollAt! - at;
      h.clock.t = h.producer.status().nextPollAt!;
    }
    assert.equal(last, 15 * 60_000);
    assert.equal(h.producer.status().creditsSpentThisMonth, 0);
    assert.equal(h.logs.length, 1);
    assert.equal(h.batches.length, 0);
  });

  it('a call not answered in time is a timeout: backed off, counted against the budget (it may have been charged)', async () => {
    fake.odds.set('soccer_epl', [game]);
    fake.faults.push({ kind: 'hang' });
    const h = harness({}, 150);
    await h.producer.tick();
    const s = h.producer.status();
    assert.equal(s.state, 'backing_off');
    assert.match(String(h.logs[0]!.obj.reason), /timeout/);
    assert.equal(s.creditsSpentThisMonth, 3);
    h.clock.t = s.nextPollAt!;
    await h.producer.tick();
    assert.equal(h.producer.status().state, 'ok');
    assert.deepEqual(
      h.batches.flat().map((m) => m.type),
      ['fixture', 'markets'],
    );
  });

  it('a wrong key is unauthorized and waits the longest backoff', async () => {
    const h = harness({ apiKey: 'wrong' });
    await h.producer.tick();
    assert.equal(h.producer.status().state, 'unauthorized');
    assert.equal(h.producer.status().nextPollAt! - T0, 15 * 60_000);
    assert.ok(!JSON.stringify(h.logs).includes('wrong'), 'the key is never logged');
  });

  it('stop() during an unanswered call ends at once, logging and counting nothing', async () => {
    fake.faults.push({ kind: 'hang' });
    const h = harness({}, 60_000);
    const p = new TheOddsApiProducer({
      settings: fakeSettings(fake),
      sink: async () => undefined,
      now: () => h.clock.t,
      log: {
        info: () => undefined,
        warn: (obj, msg) => h.logs.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
      },
    });
    p.start();
    await until('the first request', () => fake.requests.length > 0, 10_000);
    const t = Date.now();
    await p.stop();
    assert.ok(Date.now() - t < 1000, 'did not wait for the 60 s timeout');
    assert.deepEqual(h.logs, []);
    assert.equal(p.status().creditsSpentThisMonth, 0);
  });

  it('a sink that throws is logged and the loop goes on', async () => {
    fake.odds.set('soccer_epl', [game]);
    const h = harness();
    let calls = 0;
    const p = new TheOddsApiProducer({
      settings: fakeSettings(fake),
      sink: async () => {
        calls++;
        throw new Error('boom');
      },
      now: () => h.clock.t,
      tickMs: 5,
      log: {
        info: () => undefined,
        warn: (obj, msg) => h.logs.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
      },
    });
    p.start();
    await until('the first sink call', () => calls > 0, 10_000);
    // Not polled again before its turn (no credits burnt in a tight loop)…
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(fake.requests.length, 1);
    // …and at its turn everything is sent again, so the loop is alive and nothing was lost.
    h.clock.t = p.status().nextPollAt!;
    await until('the second sink call', () => calls >= 2, 10_000).catch(() => undefined);
    await p.stop();
    assert.ok(calls >= 2, `sink called ${calls} times`);
    assert.match(h.logs[0]!.msg, /failed unexpectedly/);
  });

  it('start() polls on its own and stop() ends it', async () => {
    fake.odds.set('soccer_epl', [game]);
    const h = harness();
    const p = new TheOddsApiProducer({
      settings: fakeSettings(fake),
      sink: async (m) => {
        h.batches.push(m);
      },
      now: () => h.clock.t,
      tickMs: 10,
    });
    p.start();
    await until('the first batch', () => h.batches.length > 0, 10_000).catch(() => undefined);
    await p.stop();
    assert.equal(h.batches.length, 1);
    const n = fake.requests.length;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(fake.requests.length, n);
  });
});
