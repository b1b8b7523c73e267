// A bet check answers the same for as long as the settlement is held: before and after the event leaves memory (ENDED_RETENTION_HOURS), after a restart, and for entries stored before codes were kept.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { betChecks, betLife } from '../helpers/bet-life.js';
import { DAY, feedOk, HOUR, MINUTE, startService, T0, type TestService } from '../helpers/service.js';

interface Answer {
  status: number;
  body: unknown;
}

/** Every check's status and body, in order. */
async function answers(svc: TestService, checks: readonly object[]): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const body of checks) {
    const r = await svc.inject('POST', '/v1/bets/check', { body });
    assert.ok(r.status < 500, r.text);
    out.push({ status: r.status, body: r.body });
  }
  return out;
}

/**
 * What else is read about the game once it is over: its result, its settlement entry and its odds
 * history (a filter on an id the game never had is a 400 naming it, not an empty history).
 */
async function afterLife(svc: TestService, id: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const url of [
    `/v1/events/${id}/result`,
    `/v1/settlements?event_id=${id}`,
    `/v1/settlements?event_id=${id}&odds_format=american`,
    `/v1/events/${id}/odds/history?market_id=1`,
    `/v1/events/${id}/odds/history?selection_id=41`,
    `/v1/events/${id}/odds/history?market_id=99`,
    `/v1/events/${id}/odds/history?selection_id=99`,
    `/v1/events/${id}/odds/history?market_id=1&selection_id=21`,
  ]) {
    const r = await svc.get(url);
    out.push([url, r.status, r.body]);
  }
  return out;
}

const START = T0 - 3 * HOUR;

/** Feeds the game with the clock at each phase's time (the retention sweep, on a timer, then sees its true age). */
async function play(svc: TestService, life: ReturnType<typeof betLife>): Promise<void> {
  svc.clock.set(START - DAY);
  await feedOk(svc, life.before);
  svc.clock.set(START + 45 * MINUTE);
  await feedOk(svc, life.live);
  svc.clock.set(life.endedAt);
  await feedOk(svc, life.end);
  await svc.service.settlement.idle();
}

describe('bet check across the retention boundary (ENDED_RETENTION_HOURS)', () => {
  it('answers every check the same the instant before, at and after the event leaves memory, and after a restart', async () => {
    const svc = await startService({ env: { ENDED_RETENTION_HOURS: '1' } });
    const dataDir = svc.dataDir;
    let again: TestService | undefined;
    try {
      const life = betLife('bx', START);
      await play(svc, life);
      const checks = betChecks('bx');
      const inMemory = await answers(svc, checks);
      const read = await afterLife(svc, 'bx');

      // What the answers are, in memory: codes, aliases and labels all find their selection.
      const legOf = (a: Answer): Record<string, unknown> =>
        (a.body as { legs: Array<Record<string, unknown>> }).legs[0] as Record<string, unknown>;
      assert.deepEqual(
        inMemory.slice(2, 11).map((a) => [a.status, legOf(a).selection_id, legOf(a).result]),
        [
          [200, 11, 'won'],
          [200, 12, 'lost'],
          [200, 13, 'lost'],
          [200, 11, 'won'],
          [200, 12, 'lost'],
          [200, 13, 'lost'],
          [200, 11, 'won'],
          [200, 13, 'lost'],
          [200, 12, 'lost'],
        ],
      );
      // Without odds, the last price; the closing price is the last prematch one (null: added live).
      assert.deepEqual([legOf(inMemory[0] as Answer).odds, legOf(inMemory[0] as Answer).closing_odds], [1.4, 1.95]);
      const btts = inMemory[19] as Answer;
      assert.deepEqual([legOf(btts).odds, legOf(btts).closing_odds, legOf(btts).result], [1.6, null, 'won']);
      assert.deepEqual(
        read.slice(-3).map((r) => (r as [string, number])[1]),
        [400, 400, 400],
        'ids the game never had',
      );
      assert.deepEqual(
        inMemory.slice(-3).map((a) => [a.status, (a.body as { error: string }).error]),
        [
          [404, 'not_found'],
          [404, 'not_found'],
          [404, 'not_found'],
        ],
      );

      // Swept across the boundary: in memory up to one hour after the end, from the store after.
      const boundary = life.endedAt + HOUR;
      for (const t of [boundary - MINUTE, boundary - 1, boundary, boundary + 1, boundary + MINUTE, boundary + DAY]) {
        svc.clock.set(t);
        svc.service.pipeline.sweep();
        const held = svc.service.readModel.get('bx') !== undefined;
        assert.equal(held, t <= boundary, `in memory at boundary ${t - boundary} ms`);
        assert.deepEqual(await answers(svc, checks), inMemory, `at boundary ${t - boundary} ms (in memory: ${held})`);
        assert.deepEqual(await afterLife(svc, 'bx'), read, `result and entry at boundary ${t - boundary} ms`);
      }
      assert.equal((await svc.get('/v1/events/bx')).status, 404, 'the event has left memory');

      // A restart loads only what is within the retention: the answers come from the store alone.
      const now = svc.clock.now();
      await svc.close({ keepDir: true });
      again = await startService({ dataDir, now, env: { ENDED_RETENTION_HOURS: '1' } });
      assert.equal(again.service.readModel.get('bx'), undefined);
      assert.deepEqual(await answers(again, checks), inMemory, 'after a restart');
      assert.deepEqual(await afterLife(again, 'bx'), read, 'result and entry after a restart');
    } finally {
      await again?.close();
      await svc.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('an entry stored before codes were kept still finds the main outcomes by code, alias and team name', async () => {
    const svc = await startService({ env: { ENDED_RETENTION_HOURS: '1' } });
    try {
      const life = betLife('old', START);
      await play(svc, life);
      svc.clock.set(life.endedAt + 2 * HOUR);
      assert.equal(svc.service.pipeline.sweep(), 1);
      // The entry as it was stored before: outcomes with label, result, selection id and prices only.
      const store = svc.service.store;
      const record = await store.getSettlement('old');
      assert.ok(record !== null);
      const legacy = (JSON.parse(record.marketsJson) as Array<{ outcomes: Array<Record<string, unknown>> }>).map(
        (m) => ({
          ...m,
          outcomes: m.outcomes.map((o) => ({
            label: o.label,
            result: o.result,
            selection_id: o.selection_id,
            opening_odds: o.opening_odds,
            closing_odds: o.closing_odds,
            ...(o.void_factor !== undefined ? { void_factor: o.void_factor } : {}),
          })),
        }),
      );
      await store.saveSettlement({ ...record, marketsJson: JSON.stringify(legacy) });

      const check = (legs: object[]) =>
        svc.inject<{ legs: Array<{ selection_id: number; result: string }>; error?: string; message?: string }>(
          'POST',
          '/v1/bets/check',
          { body: { legs: legs.map((l) => ({ event_id: 'old', odds: 2, ...l })) } },
        );
      for (const [outcome, selectionId] of [
        ['1', 11],
        ['X', 12],
        ['2', 13],
        ['home', 11],
        ['away', 13],
        ['draw', 12],
        ['Arsenal', 11],
      ] as const) {
        const r = await check([{ market: '1X2', outcome }]);
        assert.equal(r.status, 200, `${outcome}: ${r.text}`);
        assert.equal(r.body.legs[0]?.selection_id, selectionId, outcome);
      }
      const over = await check([{ market: 'totals:2.5', outcome: 'over' }]);
      assert.deepEqual([over.status, over.body.legs[0]?.selection_id], [200, 21]);
      // Its last prices were not kept: a check without odds says what it needs.
      const noOdds = await svc.inject<{ error: string; message: string }>('POST', '/v1/bets/check', {
        body: { legs: [{ event_id: 'old', market: '1X2', outcome: '1' }] },
      });
      assert.equal(noOdds.status, 400);
      assert.equal(noOdds.body.error, 'bad_request');
      assert.match(noOdds.body.message, /legs\[0\]\.odds/);
      // The feed serves the old entry as it is, with the fields it lacks filled in as null.
      const page = await svc.get<{ settlements: Array<{ resolved_markets: Array<{ outcomes: object[] }> }> }>(
        '/v1/settlements?event_id=old',
      );
      assert.equal(page.status, 200, page.text);
      const first = page.body.settlements[0]?.resolved_markets[0]?.outcomes[0] as Record<string, unknown>;
      assert.deepEqual([first.code, first.team_side, first.last_odds], [null, null, null]);
    } finally {
      await svc.close();
    }
  });
});
