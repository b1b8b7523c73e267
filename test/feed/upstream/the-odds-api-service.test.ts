// End to end: the service with FEED=the-odds-api against a fake upstream follows two games from prematch to settled, within the credit budget.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_KEY, HOUR, MINUTE, T0, startService, type TestService } from '../../helpers/service.js';
import { FAKE_KEY, startFakeUpstream, type FakeUpstream } from './fake-the-odds-api.js';
import { oddsEvent, scoreEvent } from './the-odds-api-fixtures.js';

const BUDGET = 3000;
const KICK_OFF = new Date(T0 + 2 * HOUR).toISOString();

// Two bookmakers each; the service is told to show William Hill's ('wh') prices.
const epl = oddsEvent('aaa111', 'soccer_epl', { home: 'Arsenal', away: 'Chelsea' }, KICK_OFF, [
  { key: 'b365', h2h: [2.3, 3.2, 3.1], spread: [-0.5, 2.3, 1.6], total: [2.5, 1.8, 2.0] },
  // Whole lines: a 2-1 home win lands on both (a push, refunded).
  { key: 'wh', h2h: [2.1, 3.4, 3.6], spread: [-1, 2.6, 1.5], total: [3, 2.4, 1.6] },
]);
const nba = oddsEvent('bbb222', 'basketball_nba', { home: 'Lakers', away: 'Celtics' }, KICK_OFF, [
  { key: 'wh', h2h: [1.8, 2.05], spread: [-5.5, 1.91, 1.91], total: [210.5, 1.87, 1.95] },
  { key: 'b365', h2h: [1.75, 2.1], spread: [-6.5, 1.95, 1.87], total: [211.5, 1.9, 1.9] },
]);
// Listed prematch, then dropped by the provider: never completed, so never settled by us.
const dropped = oddsEvent('ccc333', 'soccer_epl', { home: 'Everton', away: 'Fulham' }, KICK_OFF, [
  { key: 'wh', h2h: [2.5, 3.2, 2.9] },
]);

interface Health {
  services: {
    data_pipeline: {
      upstream?: {
        provider: string;
        state: string;
        last_success_seconds_ago: number | null;
        next_poll_seconds: number | null;
        monthly_budget: number;
        credits_used_this_month: number;
        credits_left: number;
        provider_remaining: number | null;
      };
    };
  };
}
interface EventItem {
  id: string;
  status: string;
  odds: { home: number | null; draw: number | null; away: number | null };
  league: { slug: string; name: string };
  sport: { key: string };
}
interface Market {
  key: string;
  outcomes: Array<{ code: string; odds: number }>;
}
interface Entry {
  pending_markets_count: number | null;
  resolved_markets: Array<{ key: string; outcomes: Array<{ label: string; result: string }> }>;
}

describe('FEED=the-odds-api end to end', () => {
  let fake: FakeUpstream;
  let svc: TestService;

  before(async () => {
    fake = await startFakeUpstream();
    fake.odds.set('soccer_epl', [epl, dropped]);
    fake.odds.set('basketball_nba', [nba]);
    svc = await startService({
      env: {
        FEED: 'the-odds-api',
        UPSTREAM_URL: fake.url,
        UPSTREAM_API_KEY: FAKE_KEY,
        UPSTREAM_SPORTS: 'soccer_epl,basketball_nba',
        UPSTREAM_BOOKMAKER: 'wh',
        UPSTREAM_MONTHLY_BUDGET: String(BUDGET),
      },
      options: { upstream: { tickMs: 10 } },
    });
  });
  after(async () => {
    await svc?.close();
    await fake?.close();
  });

  async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
    for (let i = 0; i < 500; i++) {
      const v = await read();
      if (v !== undefined) return v;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const upstream = async () => (await svc.inject<Health>('GET', '/v1/health')).body.services.data_pipeline.upstream!;

  const metrics = async () =>
    (await svc.inject('GET', '/metrics', { key: null, headers: { 'x-admin-key': ADMIN_KEY } })).text;
  const gauge = (text: string, name: string): number => {
    const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    assert.ok(m !== null, `${name} exported`);
    return Number(m[1]);
  };

  /** Waits until no poll is under way (the next one is planned ahead of the clock); the seconds until it. */
  async function idle(): Promise<number> {
    // Read from /metrics: /v1/health allows a caller 2 requests a second.
    return until('a planned poll', async () => {
      const v = gauge(await metrics(), 'upstream_next_poll_seconds');
      return v > 0 ? v : undefined;
    });
  }

  /** Moves the clock to the adapter's next planned poll (once the one under way is done) and waits until it is made. */
  async function nextPoll(): Promise<void> {
    // 0 s: a poll is under way (or due this instant): its plan comes once it is done.
    const seconds = await idle();
    const before = fake.requests.length;
    svc.clock.advance(Math.ceil(seconds * 1000));
    await until('a poll', async () => (fake.requests.length > before ? true : undefined));
  }

  const event = async (id: string) => (await svc.get<EventItem>(`/v1/events/${id}`)).body;
  const odds = async (id: string) =>
    new Map(
      (await svc.get<{ markets: Market[] }>(`/v1/events/${id}/odds`)).body.markets.map((m) => [
        m.key,
        Object.fromEntries(m.outcomes.map((o) => [o.code, o.odds])),
      ]),
    );

  it('shows both games prematch with the chosen bookmaker’s prices', async () => {
    const list = await until('the games', async () => {
      const r = await svc.get<{ events: EventItem[] }>('/v1/events?limit=50');
      return r.body.events.length === 3 ? r.body.events : undefined;
    });
    const a = list.find((e) => e.id === 'toa-aaa111')!;
    assert.equal(a.status, 'prematch');
    assert.equal(a.sport.key, 'soccer');
    assert.deepEqual(a.league.slug, 'soccer-epl');
    assert.deepEqual(a.odds, { home: 2.1, draw: 3.4, away: 3.6 });
    assert.deepEqual(list.find((e) => e.id === 'toa-bbb222')!.odds, { home: 1.8, draw: null, away: 2.05 });
    const aOdds = await odds('toa-aaa111');
    assert.deepEqual(aOdds.get('asian_handicap:-1'), { home: 2.6, away: 1.5 });
    assert.deepEqual(aOdds.get('totals:3'), { over: 2.4, under: 1.6 });
    const bOdds = await odds('toa-bbb222');
    assert.deepEqual(bOdds.get('asian_handicap:-5.5'), { home: 1.91, away: 1.91 });
    assert.deepEqual(bOdds.get('totals:210.5'), { over: 1.87, under: 1.95 });
    const s = await upstream();
    assert.equal(s.provider, 'the-odds-api');
    assert.equal(s.state, 'ok');
    assert.equal(s.monthly_budget, BUDGET);
  });

  it('a moved price reaches the event at the next poll', async () => {
    fake.odds.set('soccer_epl', [
      { ...epl, bookmakers: epl.bookmakers.map((b) => (b.key === 'wh' ? structuredClone(b) : b)) },
      dropped,
    ]);
    fake.odds.get('soccer_epl')![0]!.bookmakers[1]!.markets[0]!.outcomes.find((o) => o.name === 'Arsenal')!.price = 2.0;
    await nextPoll();
    await until('the new price', async () => ((await event('toa-aaa111')).odds.home === 2.0 ? true : undefined));
  });

  it('goes live once the provider reports scores for the started games', async () => {
    // Kick-off passed; the provider drops the third game from both endpoints.
    svc.clock.set(T0 + 2 * HOUR + 5 * MINUTE);
    fake.odds.set('soccer_epl', [epl]);
    fake.scores.set('soccer_epl', [scoreEvent(epl, [1, 0])]);
    fake.scores.set('basketball_nba', [scoreEvent(nba, [30, 28])]);
    await until('both live', async () => {
      await nextPoll();
      const [a, b] = [await event('toa-aaa111'), await event('toa-bbb222')];
      return a.status === 'live' && b.status === 'live' ? true : undefined;
    });
    const r = await svc.get<{ score: { home: number; away: number } }>('/v1/events/toa-aaa111/result');
    assert.deepEqual(r.body.score, { home: 1, away: 0 });
  });

  it('settles h2h, spread and total from the final score once completed (a whole-line push refunded)', async () => {
    fake.scores.set('soccer_epl', [scoreEvent(epl, [2, 1], true, new Date(T0 + 4 * HOUR).toISOString())]);
    fake.scores.set('basketball_nba', [scoreEvent(nba, [110, 100], true, new Date(T0 + 5 * HOUR).toISOString())]);
    const settled = async (id: string) =>
      until(`${id} settled`, async () => {
        await nextPoll();
        const e = (await svc.get<{ settlements: Entry[] }>(`/v1/settlements?event_id=${id}`)).body.settlements[0];
        return e !== undefined && e.pending_markets_count === 0 ? e : undefined;
      });
    const results = (e: Entry) =>
      new Map(e.resolved_markets.map((m) => [m.key, Object.fromEntries(m.outcomes.map((o) => [o.label, o.result]))]));

    const a = results(await settled('toa-aaa111'));
    assert.deepEqual(a.get('1x2'), { Arsenal: 'won', Draw: 'lost', Chelsea: 'lost' });
    assert.deepEqual(a.get('asian_handicap:-1'), { Arsenal: 'refund', Chelsea: 'refund' });
    assert.deepEqual(a.get('totals:3'), { Over: 'refund', Under: 'refund' });
    const ra = (await svc.get<{ status: string; score: unknown }>('/v1/events/toa-aaa111/result')).body;
    assert.equal(ra.status, 'ended');
    assert.deepEqual(ra.score, { home: 2, away: 1 });

    const b = results(await settled('toa-bbb222'));
    assert.deepEqual(b.get('moneyline'), { Lakers: 'won', Celtics: 'lost' });
    assert.deepEqual(b.get('asian_handicap:-5.5'), { Lakers: 'won', Celtics: 'lost' });
    assert.deepEqual(b.get('totals:210.5'), { Over: 'lost', Under: 'won' });
  });

  it('never settles the game the provider dropped', async () => {
    const r = (await svc.get<{ status: string }>('/v1/events/toa-ccc333/result')).body;
    assert.equal(r.status, 'not_ended');
    const e = (await svc.get<{ settlements: Entry[] }>('/v1/settlements?event_id=toa-ccc333')).body.settlements;
    assert.deepEqual(e, []);
  });

  it('stayed within the monthly budget, and says so', async () => {
    await idle();
    const s = await upstream();
    assert.ok(fake.creditsUsed <= BUDGET, `spent ${fake.creditsUsed} of ${BUDGET}`);
    assert.equal(s.credits_used_this_month, fake.creditsUsed);
    assert.equal(s.credits_left, BUDGET - fake.creditsUsed);
    assert.equal(s.provider_remaining, fake.quota - fake.creditsUsed);
    const text = await metrics();
    assert.equal(gauge(text, 'upstream_budget_used_credits'), fake.creditsUsed);
    assert.equal(gauge(text, 'upstream_budget_monthly_credits'), BUDGET);
    assert.equal(gauge(text, 'upstream_budget_left_credits'), BUDGET - fake.creditsUsed);
    assert.ok(gauge(text, 'upstream_last_success_age_seconds') >= 0);
    assert.equal(gauge(text, 'upstream_calls'), fake.requests.length);
  });
});

describe('FEED=the-odds-api: an upstream the service cannot use makes /v1/health degraded', () => {
  it('a refused key at once, a provider failing for longer than PIPELINE_STALE_SECONDS too', async () => {
    const fake = await startFakeUpstream();
    fake.odds.set('soccer_epl', [epl]);
    const start = async (key: string): Promise<TestService> =>
      startService({
        env: {
          FEED: 'the-odds-api',
          UPSTREAM_URL: fake.url,
          UPSTREAM_API_KEY: key,
          UPSTREAM_SPORTS: 'soccer_epl',
          // A large budget: polls every minute or two, so a failure shows within a few steps.
          UPSTREAM_MONTHLY_BUDGET: '1000000',
          PIPELINE_STALE_SECONDS: '600',
        },
        options: { upstream: { tickMs: 10 } },
      });
    const health = async (svc: TestService) => {
      const r = await svc.inject<Health & { status: string; component?: string }>('GET', '/v1/health');
      return { code: r.status, body: r.body };
    };
    const waitFor = async (svc: TestService, state: string): Promise<void> => {
      for (let i = 0; i < 300; i++) {
        // /v1/health allows a caller 2 requests a second and 120 an hour of the (injected) clock.
        svc.clock.advance(31_000);
        if ((await health(svc)).body.services?.data_pipeline.upstream?.state === state) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.fail(`the upstream never reached ${state}`);
    };
    const refused = await start('not-the-key');
    try {
      await waitFor(refused, 'unauthorized');
      const h = await health(refused);
      assert.equal(h.code, 503);
      assert.equal(h.body.status, 'degraded');
      assert.equal(h.body.component, 'data_pipeline');
    } finally {
      await refused.close();
    }
    const failing = await start(FAKE_KEY);
    try {
      await waitFor(failing, 'ok');
      const ok = await health(failing);
      assert.equal(ok.code, 200, JSON.stringify(ok.body));
      // From now on the provider answers 503: backing off, healthy while the last success is recent…
      for (let i = 0; i < 200; i++) fake.faults.push({ kind: 'status', status: 503 });
      await waitFor(failing, 'backing_off');
      const backing = await health(failing);
      assert.equal(backing.code, 200, JSON.stringify(backing.body));
      // …degraded once it is older than PIPELINE_STALE_SECONDS.
      failing.clock.advance(600_000);
      const h = await health(failing);
      assert.equal(h.body.services.data_pipeline.upstream?.state, 'backing_off');
      assert.equal(h.code, 503);
      assert.equal(h.body.component, 'data_pipeline');
    } finally {
      await failing.close();
      await fake.close();
    }
  });
});
