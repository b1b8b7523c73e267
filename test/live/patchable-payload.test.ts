// Cached odds, detail and batch payloads refreshed after price ticks are byte-identical to a fresh build.
import assert from 'node:assert/strict';
import { BufferPool } from '../../src/live/buffer-pool.js';
import { describe, it } from 'node:test';
import type { Market, OddsFormat, SportEvent } from '../../src/domain/types.js';
import type { LiveEvent } from '../../src/live/live-event.js';
import { PatchablePayload } from '../../src/live/patchable-payload.js';
import { batchItemFrame, detailFrame, oddsFrame } from '../../src/live/payloads.js';
import { ReadModel } from '../../src/live/read-model.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const BASE = 'http://localhost:3000';

function event(over: Partial<SportEvent> = {}): SportEvent {
  return {
    id: 'ev-1',
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    homeTeam: 'Arsenal',
    awayTeam: 'Chelsea',
    homeLogoId: null,
    awayLogoId: null,
    startTime: T0,
    status: 'live',
    score: { home: 0, away: 0 },
    period: '1H',
    clock: '12:00',
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: T0,
    statusChangedAt: T0,
    endedAt: null,
    playerStats: null,
    ...over,
  };
}

/** Totals lines with labels that are not all ASCII, so byte offsets differ from string offsets. */
function markets(n: number): Market[] {
  const out: Market[] = [];
  let sel = 1;
  for (let m = 1; m <= n; m++) {
    const line = m / 2;
    out.push({
      marketId: m,
      key: `totals:${line}`,
      name: m % 7 === 0 ? `Müller Tore ${line}` : `Total ${line}`,
      outcomes: [
        { selectionId: sel++, code: 'over', label: `Über ${line}`, odds: 1.9, teamSide: null, isLocked: false },
        { selectionId: sel++, code: 'under', label: `Under ${line} — ½`, odds: 1.9, teamSide: null, isLocked: false },
      ],
    });
  }
  return out;
}

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What each payload would be if built from scratch now. */
function fresh(le: LiveEvent, format: OddsFormat): { odds: string; detail: string; batch: string } {
  const copy: LiveEvent = { ...le, priceStamps: null };
  return {
    odds: PatchablePayload.build(copy, format, oddsFrame(le, format)).body.toString(),
    detail: PatchablePayload.build(copy, format, detailFrame(le, format, BASE)).body.toString(),
    batch: PatchablePayload.build(copy, format, batchItemFrame(le, format, BASE)).body.toString(),
  };
}

describe('patchable payloads', () => {
  it('after random price and lock ticks, refreshed payloads equal fresh builds in every format', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    rm.upsertMarkets(le, markets(300));
    const random = prng(7);
    const formats: OddsFormat[] = ['decimal', 'american', 'fractional'];
    for (let tick = 0; tick < 40; tick++) {
      // Read a subset of formats each tick, so payloads fall several ticks behind before a refresh.
      for (const f of formats) {
        if (random() < 0.5) continue;
        const want = fresh(le, f);
        assert.equal(rm.oddsJson(le, f).toString(), want.odds, `tick ${tick} ${f} odds`);
        assert.equal(rm.detailJson(le, f, BASE).toString(), want.detail, `tick ${tick} ${f} detail`);
        assert.equal(rm.batchItemJson(le, f, BASE).toString(), want.batch, `tick ${tick} ${f} batch`);
      }
      const touched: number[] = [];
      const n = 1 + Math.floor(random() * 30);
      for (let k = 0; k < n; k++) {
        const o = Math.floor(random() * le.book.outcomeCount);
        if (random() < 0.1) le.book.setLocked(o, !le.book.isLocked(o));
        else le.book.setOdds(o, Math.round((1.01 + random() * 30) * 100) / 100);
        touched.push(o);
      }
      rm.touchPrices(le, touched);
      if (tick % 9 === 4) rm.putEvent({ ...le.event, score: { home: tick, away: 1 }, updatedAt: T0 + tick * 1000 });
    }
    for (const f of formats) assert.equal(rm.oddsJson(le, f).toString(), fresh(le, f).odds);
  });

  it('a refresh rewrites only the moved selections; a change of shape rebuilds whole', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    rm.upsertMarkets(le, markets(100));
    rm.oddsJson(le, 'decimal');
    const before = rm.selectionsWritten;
    le.book.setOdds(0, 2.5);
    le.book.setOdds(5, 2.5);
    le.book.setOdds(6, 2.5);
    rm.touchPrices(le, [0, 5, 6]);
    const body = JSON.parse(rm.oddsJson(le, 'decimal').toString()) as {
      markets: Array<{ outcomes: Array<{ odds: number }> }>;
    };
    assert.equal(rm.selectionsWritten - before, 3, 'only the three moved selections are rewritten');
    assert.equal(body.markets[0]!.outcomes[0]!.odds, 2.5);
    assert.equal(body.markets[2]!.outcomes[1]!.odds, 2.5);
    assert.equal(body.markets[3]!.outcomes[0]!.odds, 2.5);
    assert.equal(body.markets[1]!.outcomes[0]!.odds, 1.9);

    rm.withdrawMarkets(le, [2]);
    const mid = rm.selectionsWritten;
    const after = JSON.parse(rm.oddsJson(le, 'decimal').toString()) as { markets: unknown[] };
    assert.equal(after.markets.length, 99);
    assert.equal(
      rm.selectionsWritten - mid,
      198,
      'a withdrawal rebuilds the payload whole (99 markets, 198 selections)',
    );
  });

  it('labels that need escaping come out exactly as fed', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    const labels = ['say "yes"', 'back\\slash', 'tab\there', 'Müller 😀', 'lone \ud800 surrogate', 'line\u2028sep'];
    rm.upsertMarkets(le, [
      {
        marketId: 1,
        key: 'player_goals',
        name: 'Name "quoted"',
        outcomes: labels.map((label, k) => ({
          selectionId: k + 1,
          code: `p${k}`,
          label,
          odds: 2,
          teamSide: null,
          isLocked: false,
        })),
      },
    ]);
    const body = JSON.parse(rm.oddsJson(le, 'decimal').toString()) as {
      markets: Array<{ name: string; outcomes: Array<{ label: string }> }>;
    };
    assert.equal(body.markets[0]!.name, 'Name "quoted"');
    assert.deepEqual(
      body.markets[0]!.outcomes.map((o) => o.label),
      labels,
    );
  });

  it('a status that locks every selection rebuilds; the score alone refreshes only the frame', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    rm.upsertMarkets(le, markets(10));
    rm.detailJson(le, 'decimal', BASE);
    const start = rm.selectionsWritten;
    rm.putEvent({ ...le.event, score: { home: 1, away: 0 } });
    const scored = JSON.parse(rm.detailJson(le, 'decimal', BASE).toString()) as { score: { home: number } };
    assert.equal(scored.score.home, 1);
    assert.equal(rm.selectionsWritten, start, 'no selection rewritten for a score change');
    rm.putEvent({ ...le.event, status: 'suspended' });
    const suspended = JSON.parse(rm.oddsJson(le, 'decimal').toString()) as {
      markets: Array<{ outcomes: Array<{ is_locked: boolean }> }>;
    };
    assert.ok(suspended.markets.every((m) => m.outcomes.every((o) => o.is_locked)));
  });
});

describe('payload memory recycling', () => {
  it('a held payload is never written into; once released its memory serves a later refresh', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    rm.upsertMarkets(le, markets(50));
    const tick = (o: number, odds: number): Buffer => {
      le.book.setOdds(o, odds);
      rm.touchPrices(le, [o]);
      return rm.oddsJson(le, 'decimal');
    };
    rm.oddsJson(le, 'decimal');
    const a = tick(0, 2.5); // from here on, bodies live in the pool's memory
    const aText = a.toString();
    const release = rm.hold(a);
    for (let k = 1; k <= 5; k++) tick(k, 2 + k / 10);
    assert.equal(a.toString(), aText, 'a held body is never written into');
    release();
    const before = rm.buffers.reused;
    const last = tick(6, 3.3);
    tick(7, 3.4);
    assert.ok(rm.buffers.reused > before, 'released memory is reused');
    assert.equal(last.length > 0, true);
    const fresh = PatchablePayload.build({ ...le, priceStamps: null }, 'decimal', oddsFrame(le, 'decimal'));
    assert.equal(rm.oddsJson(le, 'decimal').toString(), fresh.body.toString());
  });

  it('a payload built whole into pooled memory is the same bytes, and its memory is recycled too', () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = rm.putEvent(event());
    rm.upsertMarkets(le, markets(40));
    const pool = new BufferPool();
    const plain = PatchablePayload.build({ ...le, priceStamps: null }, 'decimal', oddsFrame(le, 'decimal'));
    const pooled = PatchablePayload.build({ ...le, priceStamps: null }, 'decimal', oddsFrame(le, 'decimal'), pool);
    assert.equal(pooled.body.toString(), plain.body.toString());
    assert.equal(pooled.body.length, plain.body.length);
    pool.give(pooled.body);
    assert.ok(pool.pooledBytes >= pooled.body.length, 'a pooled build is taken back');
    pool.give(plain.body);
    const reused = pool.reused;
    const again = PatchablePayload.build({ ...le, priceStamps: null }, 'decimal', oddsFrame(le, 'decimal'), pool);
    assert.equal(pool.reused, reused + 1);
    assert.equal(again.body.toString(), plain.body.toString());
  });
});
