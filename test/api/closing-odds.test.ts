// Opening and closing prices (decisions.md "History and closing prices"): on every outcome of detail, odds, batch, stream and settlement payloads, in the requested format, kept over a restart.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SseClient } from '../helpers/sse.js';
import {
  at,
  DEMO_KEY,
  feedOk,
  fixture,
  markets,
  MINUTE,
  odds,
  result,
  SEL,
  startService,
  status,
  T0,
  type TestService,
} from '../helpers/service.js';

interface Outcome {
  selection_id: number;
  odds: number | string;
  opening_odds: number | string;
  closing_odds: number | string | null;
}
interface Payload {
  markets: Array<{ market_id: number; outcomes: Outcome[] }>;
}
interface ResolvedOutcome {
  selection_id: number | null;
  result: string;
  opening_odds: number | string | null;
  closing_odds: number | string | null;
}
interface SettlementPage {
  settlements: Array<{ event_id: string; resolved_markets: Array<{ market_id: number; outcomes: ResolvedOutcome[] }> }>;
}

const outcome = (p: Payload, selectionId: number): Outcome => {
  for (const m of p.markets) for (const o of m.outcomes) if (o.selection_id === selectionId) return o;
  throw new Error(`no selection ${selectionId}`);
};

/** A third market added once the event is live (selections 31/32). */
function liveMarket(eventId: string): object {
  return {
    type: 'markets',
    event_id: eventId,
    markets: [
      {
        market_id: 3,
        key: 'btts',
        name: 'Both Teams to Score',
        outcomes: [
          { selection_id: 31, code: 'yes', label: 'Yes', odds: 1.8 },
          { selection_id: 32, code: 'no', label: 'No', odds: 2.0 },
        ],
      },
    ],
  };
}

/** Prematch at 2.5, moved to 2.2 then 2.0 before kick-off, live moves to 1.5: opening 2.5, closing 2.0. */
async function playPrices(svc: TestService, id: string): Promise<void> {
  await feedOk(svc, [fixture(id, { start_time: at(10 * MINUTE) }), markets(id, { home: 2.5 })]);
  await feedOk(svc, [odds(id, [{ selection_id: SEL.home, odds: 2.2 }])]);
  await feedOk(svc, [odds(id, [{ selection_id: SEL.home, odds: 2.0 }])]);
}

describe('opening and closing prices', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  it('before kick-off: opening is the first price, closing is null; going live fixes closing, live moves leave it', async () => {
    await playPrices(svc, 'oc1');
    let p = (await svc.get<Payload>('/v1/events/oc1/odds')).body;
    assert.deepEqual(
      [outcome(p, SEL.home).odds, outcome(p, SEL.home).opening_odds, outcome(p, SEL.home).closing_odds],
      [2.0, 2.5, null],
    );
    // A selection that never moved opens at its price.
    assert.equal(outcome(p, SEL.draw).opening_odds, 3.2);

    await feedOk(svc, [status('oc1', 'live'), odds('oc1', [{ selection_id: SEL.home, odds: 1.5 }])]);
    p = (await svc.get<Payload>('/v1/events/oc1/odds')).body;
    assert.deepEqual(
      [outcome(p, SEL.home).odds, outcome(p, SEL.home).opening_odds, outcome(p, SEL.home).closing_odds],
      [1.5, 2.5, 2.0],
    );
    assert.equal(outcome(p, SEL.draw).closing_odds, 3.2);

    // A market added live has an opening price but no closing one.
    await feedOk(svc, [liveMarket('oc1')]);
    p = (await svc.get<Payload>('/v1/events/oc1/odds')).body;
    assert.deepEqual([outcome(p, 31).opening_odds, outcome(p, 31).closing_odds], [1.8, null]);

    // A bet check on the live event names the closing price too (null before kick-off: see oc2).
    const live = await svc.inject<{ legs: Array<{ closing_odds: number | null }> }>('POST', '/v1/bets/check', {
      body: { legs: [{ event_id: 'oc1', market_id: 1, selection_id: SEL.home }] },
    });
    assert.equal(live.body.legs[0]?.closing_odds, 2.0);
    // Detail and batch carry the same.
    const detail = (await svc.get<Payload>('/v1/events/oc1')).body;
    assert.deepEqual(outcome(detail, SEL.home), outcome(p, SEL.home));
    const batch = await svc.inject<{ events: Record<string, Payload> }>('POST', '/v1/events/batch', {
      body: { ids: ['oc1'] },
    });
    assert.equal(batch.status, 200, batch.text);
    assert.deepEqual(outcome(batch.body.events.oc1 as Payload, SEL.home), outcome(p, SEL.home));
  });

  it('an event first priced after its kick-off time (a game in progress when the producer or the service starts) has no closing prices', async () => {
    // Scheduled 13 minutes before now: its first prices, then its live status, come in play.
    await feedOk(svc, [
      fixture('oc9', { start_time: at(-13 * MINUTE) }),
      markets('oc9', { home: 4.2 }),
      status('oc9', 'live'),
    ]);
    await feedOk(svc, [odds('oc9', [{ selection_id: SEL.home, odds: 3.9 }])]);
    const p = (await svc.get<Payload>('/v1/events/oc9/odds')).body;
    assert.deepEqual(
      [outcome(p, SEL.home).odds, outcome(p, SEL.home).opening_odds, outcome(p, SEL.home).closing_odds],
      [3.9, 4.2, null],
      'opening is the first price seen; no prematch price was seen, so no closing price',
    );
    for (const m of p.markets)
      for (const o of m.outcomes) assert.equal(o.closing_odds, null, `selection ${o.selection_id}`);
    const check = await svc.inject<{ legs: Array<{ closing_odds: number | null }> }>('POST', '/v1/bets/check', {
      body: { legs: [{ event_id: 'oc9', market_id: 1, selection_id: SEL.home }] },
    });
    assert.equal(check.body.legs[0]?.closing_odds, null);
  });

  it('a delayed event priced after its scheduled start still has prematch prices: going live fixes them as closing', async () => {
    await feedOk(svc, [
      fixture('oc10', { start_time: at(-5 * MINUTE) }),
      status('oc10', 'delayed'),
      markets('oc10', { home: 2.6 }),
    ]);
    await feedOk(svc, [status('oc10', 'live'), odds('oc10', [{ selection_id: SEL.home, odds: 2.1 }])]);
    const p = (await svc.get<Payload>('/v1/events/oc10/odds')).body;
    assert.deepEqual([outcome(p, SEL.home).odds, outcome(p, SEL.home).closing_odds], [2.1, 2.6]);
  });

  it('in american and fractional formats', async () => {
    await playPrices(svc, 'oc2');
    const pre = await svc.inject<{ legs: Array<{ closing_odds: number | null }> }>('POST', '/v1/bets/check', {
      body: { legs: [{ event_id: 'oc2', market_id: 1, selection_id: SEL.home }] },
    });
    assert.equal(pre.body.legs[0]?.closing_odds, null);
    await feedOk(svc, [status('oc2', 'live')]);
    const us = (await svc.get<Payload>('/v1/events/oc2/odds?odds_format=american')).body;
    assert.deepEqual(
      [outcome(us, SEL.home).odds, outcome(us, SEL.home).opening_odds, outcome(us, SEL.home).closing_odds],
      [100, 150, 100],
    );
    const uk = (await svc.get<Payload>('/v1/events/oc2?odds_format=fractional')).body;
    assert.deepEqual([outcome(uk, SEL.home).opening_odds, outcome(uk, SEL.home).closing_odds], ['3/2', '1/1']);
  });

  it('odds?at= knows the closing price only from kick-off on', async () => {
    await playPrices(svc, 'oc3');
    const before = svc.clock.now();
    svc.clock.set(T0 + 10 * MINUTE);
    await feedOk(svc, [status('oc3', 'live')]);
    svc.clock.set(T0 + 20 * MINUTE);
    await feedOk(svc, [odds('oc3', [{ selection_id: SEL.home, odds: 1.6 }])]);
    const thenPre = (await svc.get<Payload>(`/v1/events/oc3/odds?at=${new Date(before).toISOString()}`)).body;
    assert.deepEqual([outcome(thenPre, SEL.home).opening_odds, outcome(thenPre, SEL.home).closing_odds], [2.5, null]);
    const thenLive = (await svc.get<Payload>(`/v1/events/oc3/odds?at=${at(15 * MINUTE)}`)).body;
    assert.deepEqual(
      [
        outcome(thenLive, SEL.home).odds,
        outcome(thenLive, SEL.home).opening_odds,
        outcome(thenLive, SEL.home).closing_odds,
      ],
      [2.0, 2.5, 2.0],
    );
    svc.clock.set(T0);
  });

  it('settlement entries resolve outcomes with their opening and closing prices, in the requested format', async () => {
    await playPrices(svc, 'oc4');
    await feedOk(svc, [status('oc4', 'live'), odds('oc4', [{ selection_id: SEL.home, odds: 1.4 }]), liveMarket('oc4')]);
    await feedOk(svc, [result('oc4', 2, 1)]);
    await svc.service.settlement.idle();
    const dec = (await svc.get<SettlementPage>('/v1/settlements?event_id=oc4')).body.settlements[0];
    assert.ok(dec !== undefined);
    const home = dec.resolved_markets.find((m) => m.market_id === 1)?.outcomes.find((o) => o.selection_id === SEL.home);
    assert.deepEqual([home?.result, home?.opening_odds, home?.closing_odds], ['won', 2.5, 2.0]);
    const btts = dec.resolved_markets.find((m) => m.market_id === 3)?.outcomes.find((o) => o.selection_id === 31);
    assert.deepEqual([btts?.opening_odds, btts?.closing_odds], [1.8, null]);

    const frac = (await svc.get<SettlementPage>('/v1/settlements?event_id=oc4&odds_format=fractional')).body
      .settlements[0];
    const fHome = frac?.resolved_markets
      .find((m) => m.market_id === 1)
      ?.outcomes.find((o) => o.selection_id === SEL.home);
    assert.deepEqual([fHome?.opening_odds, fHome?.closing_odds], ['3/2', '1/1']);
    // A bet check names the leg's closing price: the bettor's closing-line value is odds / closing - 1.
    const bet = await svc.inject<{ legs: Array<{ result: string; odds: number; closing_odds: number | null }> }>(
      'POST',
      '/v1/bets/check',
      { body: { legs: [{ event_id: 'oc4', market_id: 1, selection_id: SEL.home, odds: 2.2 }], stake: 10 } },
    );
    assert.equal(bet.status, 200, bet.text);
    assert.deepEqual(
      bet.body.legs.map((l) => [l.result, l.odds, l.closing_odds]),
      [['won', 2.2, 2.0]],
    );
    const bad = await svc.get<{ error: string }>('/v1/settlements?odds_format=roman');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, 'bad_request');
  });
});

describe('opening and closing prices on the stream', () => {
  it('markets events and settlement events carry them, in the stream odds format', async () => {
    const svc = await startService();
    try {
      await svc.service.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = svc.service.app.server.address() as AddressInfo;
      const client = await SseClient.connect(
        `http://127.0.0.1:${port}`,
        '/v1/stream?event_ids=os1&types=markets,settlement&odds_format=american',
        { 'x-api-key': DEMO_KEY },
      );
      try {
        await playPrices(svc, 'os1');
        await feedOk(svc, [status('os1', 'live'), liveMarket('os1'), result('os1', 0, 0)]);
        await svc.service.settlement.idle();
        await client.until((ev) => ev.some((e) => e.event === 'settlement'), 5000, 'a settlement event');
        const first = client.changes.find((e) => e.event === 'markets');
        const added = (first?.data.added as Payload['markets'])[0];
        assert.ok(added !== undefined);
        const home = added.outcomes.find((o) => o.selection_id === SEL.home);
        assert.deepEqual([home?.odds, home?.opening_odds, home?.closing_odds], [150, 150, null]);
        const live = client.changes.filter((e) => e.event === 'markets').at(-1);
        const btts = (live?.data.added as Payload['markets'])[0]?.outcomes[0];
        assert.deepEqual([btts?.opening_odds, btts?.closing_odds], [-125, null]);

        const settlement = client.changes.find((e) => e.event === 'settlement');
        const resolved = settlement?.data.resolved_markets as SettlementPage['settlements'][0]['resolved_markets'];
        const sHome = resolved.find((m) => m.market_id === 1)?.outcomes.find((o) => o.selection_id === SEL.home);
        assert.deepEqual([sHome?.result, sHome?.opening_odds, sHome?.closing_odds], ['lost', 150, 100]);
      } finally {
        client.close();
      }
      // A snapshot shows the event's markets with the same prices as the odds payload.
      await playPrices(svc, 'os2');
      await feedOk(svc, [status('os2', 'live'), odds('os2', [{ selection_id: SEL.home, odds: 1.5 }])]);
      const snap = await SseClient.connect(
        `http://127.0.0.1:${port}`,
        '/v1/stream?event_ids=os2&types=markets&snapshot=true',
        { 'x-api-key': DEMO_KEY },
      );
      try {
        await snap.untilCount(1);
        const m = (snap.changes[0]?.data.added as Payload['markets']).find((x) => x.market_id === 1);
        const o = m?.outcomes.find((x) => x.selection_id === SEL.home);
        assert.equal(snap.changes[0]?.data.snapshot, true);
        assert.deepEqual([o?.odds, o?.opening_odds, o?.closing_odds], [1.5, 2.5, 2.0]);
      } finally {
        snap.close();
      }
    } finally {
      await svc.close();
    }
  });
});

describe('opening and closing prices over a restart', () => {
  it('are kept by the store and served again after a restart', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    try {
      await playPrices(first, 'or1');
      await feedOk(first, [status('or1', 'live'), odds('or1', [{ selection_id: SEL.home, odds: 1.7 }])]);
      await first.close({ keepDir: true });
      const second = await startService({ dataDir });
      try {
        const p = (await second.get<Payload>('/v1/events/or1/odds')).body;
        assert.deepEqual(
          [outcome(p, SEL.home).odds, outcome(p, SEL.home).opening_odds, outcome(p, SEL.home).closing_odds],
          [1.7, 2.5, 2.0],
        );
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('closing prices over a restart are still the last prematch ones (issue 32 item 2)', () => {
  /** The odds payload of `id` after a restart on the same store, with a status fed first. */
  async function restarted(
    first: TestService,
    id: string,
    afterRestart: object[],
  ): Promise<{ payload: Payload; second: TestService }> {
    const dataDir = first.dataDir;
    const now = first.clock.now();
    await first.close({ keepDir: true });
    const second = await startService({ dataDir, now });
    await feedOk(second, afterRestart);
    return { payload: (await second.get<Payload>(`/v1/events/${id}/odds`)).body, second };
  }

  it('an event first priced after its start time while still prematch, restarted before it goes live, has no closing prices', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    let second: TestService | undefined;
    try {
      await feedOk(first, [fixture('rs1', { start_time: at(10 * MINUTE) })]);
      // The status message lags: the first prices come 15 minutes after the scheduled start.
      first.clock.set(T0 + 25 * MINUTE);
      await feedOk(first, [markets('rs1', { home: 3.1 })]);
      const r = await restarted(first, 'rs1', [
        status('rs1', 'live'),
        odds('rs1', [{ selection_id: SEL.home, odds: 2.8 }]),
      ]);
      second = r.second;
      assert.deepEqual(
        [
          outcome(r.payload, SEL.home).odds,
          outcome(r.payload, SEL.home).opening_odds,
          outcome(r.payload, SEL.home).closing_odds,
        ],
        [2.8, 3.1, null],
        'the in-play price it was first offered at is no closing price, before or after a restart',
      );
    } finally {
      await second?.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a delayed event re-priced after its start while delayed, restarted, closes at that price', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    let second: TestService | undefined;
    try {
      // First priced after its start (in play, it seems), then delayed and re-priced: prematch after all.
      await feedOk(first, [fixture('rs2', { start_time: at(-5 * MINUTE) }), markets('rs2', { home: 2.6 })]);
      await feedOk(first, [status('rs2', 'delayed')]);
      await feedOk(first, [odds('rs2', [{ selection_id: SEL.home, odds: 2.4 }])]);
      const r = await restarted(first, 'rs2', [
        status('rs2', 'live'),
        odds('rs2', [{ selection_id: SEL.home, odds: 2.0 }]),
      ]);
      second = r.second;
      assert.deepEqual(
        [
          outcome(r.payload, SEL.home).odds,
          outcome(r.payload, SEL.home).opening_odds,
          outcome(r.payload, SEL.home).closing_odds,
        ],
        [2.0, 2.6, 2.4],
      );
    } finally {
      await second?.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('priced before its start and restarted before kick-off: going live after the restart closes at the last prematch price', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    let second: TestService | undefined;
    try {
      await playPrices(first, 'rs3');
      const r = await restarted(first, 'rs3', [
        status('rs3', 'live'),
        odds('rs3', [{ selection_id: SEL.home, odds: 1.5 }]),
      ]);
      second = r.second;
      assert.deepEqual(
        [
          outcome(r.payload, SEL.home).odds,
          outcome(r.payload, SEL.home).opening_odds,
          outcome(r.payload, SEL.home).closing_odds,
        ],
        [1.5, 2.5, 2.0],
      );
      assert.equal(outcome(r.payload, SEL.away).closing_odds, 2.9);
    } finally {
      await second?.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a market first offered live has no closing price after a restart, nor after it settles; an event first seen live has none at all', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    let second: TestService | undefined;
    try {
      await playPrices(first, 'rs4');
      await feedOk(first, [status('rs4', 'live'), liveMarket('rs4')]);
      await feedOk(first, [
        fixture('rs5', { start_time: at(-13 * MINUTE) }),
        markets('rs5', { home: 4.2 }),
        status('rs5', 'live'),
      ]);
      const r = await restarted(first, 'rs4', [odds('rs4', [{ selection_id: 31, odds: 1.6 }])]);
      second = r.second;
      assert.deepEqual([outcome(r.payload, 31).opening_odds, outcome(r.payload, 31).closing_odds], [1.8, null]);
      assert.equal(outcome(r.payload, SEL.home).closing_odds, 2.0);
      const seenLive = (await second.get<Payload>('/v1/events/rs5/odds')).body;
      for (const m of seenLive.markets)
        for (const o of m.outcomes) assert.equal(o.closing_odds, null, `rs5 selection ${o.selection_id}`);
      // Settled after the restart: the entry says the same.
      await feedOk(second, [result('rs4', 1, 1), result('rs5', 0, 1)]);
      await second.service.settlement.idle();
      const page = (await second.get<SettlementPage>('/v1/settlements?event_ids=rs4,rs5')).body;
      const closingOf = (eventId: string, selectionId: number): unknown =>
        page.settlements
          .find((s) => s.event_id === eventId)
          ?.resolved_markets.flatMap((m) => m.outcomes)
          .find((o) => o.selection_id === selectionId)?.closing_odds;
      assert.deepEqual(
        [closingOf('rs4', SEL.home), closingOf('rs4', 31), closingOf('rs5', SEL.home), closingOf('rs5', SEL.draw)],
        [2.0, null, null, null],
      );
    } finally {
      await second?.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a market first offered after the scheduled start while the status lags', () => {
  it('has no closing price when the event goes live, in memory and after a restart; the markets priced before keep theirs', async () => {
    const first = await startService();
    const dataDir = first.dataDir;
    let second: TestService | undefined;
    try {
      for (const id of ['lm1', 'lm2']) await feedOk(first, [fixture(id, { start_time: at(10 * MINUTE) }), markets(id)]);
      // Twelve minutes on, still prematch (the live status lags): a market is added, the 1x2 moves.
      first.clock.set(T0 + 12 * MINUTE);
      await feedOk(first, [liveMarket('lm1'), liveMarket('lm2')]);
      await feedOk(first, [status('lm1', 'live')]);
      const p = (await first.get<Payload>('/v1/events/lm1/odds')).body;
      assert.deepEqual(
        [outcome(p, 31).opening_odds, outcome(p, 31).closing_odds, outcome(p, SEL.home).closing_odds],
        [1.8, null, 2.5],
      );
      await first.close({ keepDir: true });
      second = await startService({ dataDir, now: T0 + 13 * MINUTE });
      await feedOk(second, [status('lm2', 'live')]);
      for (const id of ['lm1', 'lm2']) {
        const q: Payload = (await second.get<Payload>(`/v1/events/${id}/odds`)).body;
        assert.deepEqual(
          [outcome(q, 31).closing_odds, outcome(q, 32).closing_odds, outcome(q, SEL.home).closing_odds],
          [null, null, 2.5],
          id,
        );
      }
    } finally {
      await second?.close();
      await first.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
