// The month's upstream spend is stored: a service restarted on the same DATA_DIR goes on from it (and never spends the budget twice); a new UTC month starts from zero.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ADMIN_KEY, HOUR, T0, startService, type TestService } from '../../helpers/service.js';
import { FAKE_KEY, startFakeUpstream, type FakeUpstream } from './fake-the-odds-api.js';
import { oddsEvent } from './the-odds-api-fixtures.js';

/** One /odds call: 3 markets (h2h, spreads, totals) × 1 region. */
const ODDS_COST = 3;
const KICK_OFF = new Date(T0 + 30 * HOUR).toISOString();
const epl = oddsEvent('ddd444', 'soccer_epl', { home: 'Arsenal', away: 'Chelsea' }, KICK_OFF, [
  { key: 'wh', h2h: [2.1, 3.4, 3.6] },
]);

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const v = await read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const gauge = async (svc: TestService, name: string): Promise<number> => {
  const text = (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  assert.ok(m !== null, `${name} exported`);
  return Number(m[1]);
};

describe('FEED=the-odds-api: the month’s spend survives a restart', () => {
  let fake: FakeUpstream;
  let dataDir: string | null = null;
  let svc: TestService | null = null;

  const start = async (budget: number, now = T0): Promise<TestService> => {
    svc = await startService({
      ...(dataDir !== null ? { dataDir } : {}),
      now,
      env: {
        FEED: 'the-odds-api',
        UPSTREAM_URL: fake.url,
        UPSTREAM_API_KEY: FAKE_KEY,
        UPSTREAM_SPORTS: 'soccer_epl',
        UPSTREAM_BOOKMAKER: 'wh',
        UPSTREAM_MONTHLY_BUDGET: String(budget),
      },
      options: { upstream: { tickMs: 10 } },
    });
    dataDir = svc.dataDir;
    return svc;
  };
  /** Waits for the poll a start makes at once (the clock stands still: no second one) and for its plan. */
  const firstPollDone = async (s: TestService, callsBefore: number): Promise<void> => {
    await until('a poll', async () => (fake.requests.length > callsBefore ? true : undefined));
    await until('the next plan', async () => ((await gauge(s, 'upstream_next_poll_seconds')) > 0 ? true : undefined));
  };
  const restart = async (budget: number, now = T0): Promise<TestService> => {
    await svc!.close({ keepDir: true });
    svc = null;
    return start(budget, now);
  };

  before(async () => {
    fake = await startFakeUpstream();
    fake.odds.set('soccer_epl', [epl]);
  });
  after(async () => {
    await svc?.close();
    await fake?.close();
    if (dataDir !== null) await rm(dataDir, { recursive: true, force: true });
  });

  it('a restarted service goes on from the stored count, and an exhausted budget stays exhausted', async () => {
    const budget = 2 * ODDS_COST;
    let s = await start(budget);
    await firstPollDone(s, 0);
    assert.equal(fake.creditsUsed, ODDS_COST);
    assert.equal(await gauge(s, 'upstream_budget_used_credits'), ODDS_COST);

    // Second process, same DATA_DIR: it polls once more and counts both calls (memory alone would say one).
    s = await restart(budget);
    await firstPollDone(s, 1);
    assert.equal(fake.creditsUsed, 2 * ODDS_COST);
    assert.equal(await gauge(s, 'upstream_budget_used_credits'), 2 * ODDS_COST);
    assert.equal(await gauge(s, 'upstream_budget_left_credits'), 0);

    // Third process: the month's budget is spent, so it makes no call at all.
    s = await restart(budget);
    await until('the stored spend', async () =>
      (await gauge(s, 'upstream_budget_used_credits')) === budget ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 200)); // 20 ticks of the loop: time enough to (wrongly) poll
    assert.equal(fake.requests.length, 2);
    assert.equal(fake.creditsUsed, budget);
    const h = (await s.inject<{ services: { data_pipeline: { upstream: { state: string } } } }>('GET', '/v1/health'))
      .body.services.data_pipeline.upstream;
    assert.equal(h.state, 'budget_exhausted');
  });

  it('a new UTC month starts from zero', async () => {
    const s = await restart(2 * ODDS_COST, Date.parse('2026-04-01T00:05:00Z'));
    await firstPollDone(s, 2);
    assert.equal(fake.creditsUsed, 3 * ODDS_COST);
    assert.equal(await gauge(s, 'upstream_budget_used_credits'), ODDS_COST);
  });
});
