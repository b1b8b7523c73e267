// Compressed forms of cached payloads: built once per version and coding, freed on change or eviction, counted in the cache budget.
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import type { Market, SportEvent } from '../../src/domain/types.js';
import type { LiveEvent } from '../../src/live/live-event.js';
import { LOOP_COMPRESS_LIMIT } from '../../src/live/compression.js';
import { ReadModel } from '../../src/live/read-model.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');

function event(id: string): SportEvent {
  return {
    id,
    sport: 'soccer',
    league: { slug: 'england-premier-league', name: 'Premier League', country: 'England', tier: 1 },
    homeTeam: `H ${id}`,
    awayTeam: `A ${id}`,
    homeLogoId: null,
    awayLogoId: null,
    startTime: T0 + 3_600_000,
    status: 'prematch',
    score: { home: 0, away: 0 },
    period: '',
    clock: null,
    periodScores: [],
    sportData: null,
    scoreboard: null,
    updatedAt: T0,
    statusChangedAt: T0,
    endedAt: null,
    playerStats: null,
  };
}

/** `count` two-way markets: ~250 bytes of odds payload each. */
function props(count: number): Market[] {
  return Array.from({ length: count }, (_, i) => ({
    marketId: 100 + i,
    key: `player_goals_p${i + 1}:0.5`,
    name: `Player ${i + 1} goals 0.5`,
    outcomes: [
      { selectionId: 1001 + 2 * i, code: 'over', label: 'Over 0.5', odds: 1.9, teamSide: null, isLocked: false },
      { selectionId: 1002 + 2 * i, code: 'under', label: 'Under 0.5', odds: 2, teamSide: null, isLocked: false },
    ],
  }));
}

function withMarkets(rm: ReadModel, id: string, count: number): LiveEvent {
  const le = rm.putEvent(event(id));
  rm.upsertMarkets(le, props(count));
  return le;
}

/** A price tick on the first selection, as the pipeline applies one. */
function tick(rm: ReadModel, le: LiveEvent, odds: number): void {
  const o = le.book.indexOfSelection(1001);
  le.book.setOdds(o, odds);
  rm.touchPrices(le, [o]);
}

describe('compressed forms of cached payloads', () => {
  it('a form is built once per version and coding, decodes to the body, and is rebuilt after a tick', async () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = withMarkets(rm, 'e', 10);
    const p = rm.oddsPayload(le, 'decimal');
    assert.ok(p.body.length <= LOOP_COMPRESS_LIMIT, 'small enough to compress on the loop');
    const br = await p.encoded('br');
    assert.ok(brotliDecompressSync(br).equals(p.body));
    assert.equal(await rm.oddsPayload(le, 'decimal').encoded('br'), br);
    assert.ok(gunzipSync(await rm.oddsPayload(le, 'decimal').encoded('gzip')).equals(p.body));
    assert.deepEqual(rm.compression.builds, 2);
    assert.deepEqual(rm.compression.reuses, 1);
    const tag = p.tag;
    tick(rm, le, 2.45);
    const after = rm.oddsPayload(le, 'decimal');
    assert.notEqual(after.tag, tag);
    const br2 = await after.encoded('br');
    assert.equal(rm.compression.builds, 3);
    assert.match(brotliDecompressSync(br2).toString(), /"odds":2\.45/);
  });

  it('the payload cache counts forms with their body and frees them on a refresh and on a change of shape', async () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = withMarkets(rm, 'e', 120);
    const p = rm.oddsPayload(le, 'decimal');
    assert.ok(p.body.length > LOOP_COMPRESS_LIMIT, 'large enough for the thread pool');
    const body = p.body.length;
    assert.equal(rm.payloadCacheBytes, body);
    const br = await p.encoded('br');
    const gzip = await p.encoded('gzip');
    assert.equal(rm.payloadCacheBytes, body + br.length + gzip.length);
    assert.equal(rm.compressedBytes, br.length + gzip.length);
    tick(rm, le, 2.5);
    const refreshed = rm.oddsPayload(le, 'decimal');
    assert.equal(rm.compressedBytes, 0, 'the forms of the old bytes are freed by the refresh');
    assert.equal(rm.payloadCacheBytes, refreshed.body.length);
    await refreshed.encoded('br');
    assert.ok(rm.compressedBytes > 0);
    rm.touch(le);
    assert.equal(rm.payloadCacheBytes, 0);
    assert.equal(rm.compressedBytes, 0);
  });

  it('a compression that finishes after its bytes changed serves its request but is not kept', async () => {
    const rm = new ReadModel({ now: () => T0 });
    const le = withMarkets(rm, 'e', 120);
    const p = rm.oddsPayload(le, 'decimal');
    const old = Buffer.from(p.body);
    const pending = p.encoded('br');
    assert.ok(pending instanceof Promise);
    tick(rm, le, 3.1);
    rm.oddsPayload(le, 'decimal');
    const br = await pending;
    assert.ok(brotliDecompressSync(br).equals(old), 'the request gets the bytes it asked for, intact');
    assert.equal(rm.compressedBytes, 0);
    assert.equal(rm.payloadCacheBytes, rm.oddsPayload(le, 'decimal').body.length);
  });

  it('forms count in the byte budget: the least recently used payload leaves with its forms', async () => {
    const probe = new ReadModel({ now: () => T0 });
    const size = probe.oddsPayload(withMarkets(probe, 'x', 60), 'decimal').body.length;
    // Room for two bodies, not for two bodies and a form.
    const rm = new ReadModel({ now: () => T0, payloadCacheBytes: 2 * size + 100 });
    const a = withMarkets(rm, 'a', 60);
    const b = withMarkets(rm, 'b', 60);
    rm.oddsPayload(a, 'decimal');
    const pb = rm.oddsPayload(b, 'decimal');
    assert.equal(rm.payloadCacheBytes, 2 * size);
    const br = await pb.encoded('br');
    assert.equal(rm.payloadCacheBytes, size + br.length, 'a (least recently used) was evicted');
    const builds = rm.payloadBuilds;
    rm.oddsPayload(a, 'decimal');
    assert.equal(rm.payloadBuilds, builds + 1, 'a is built again');
  });

  it('a batch keeps its forms by tag: the same events at the same versions reuse them', async () => {
    const rm = new ReadModel({ now: () => T0 });
    const a = withMarkets(rm, 'a', 30);
    withMarkets(rm, 'b', 30);
    const first = rm.batch(['a', 'b', 'zz'], 'decimal', 'http://x');
    const br = await first.encoded('br');
    assert.ok(brotliDecompressSync(br).equals(first.body));
    const again = rm.batch(['a', 'b', 'zz'], 'decimal', 'http://x');
    assert.equal(again.tag, first.tag);
    assert.equal(await again.encoded('br'), br);
    assert.notEqual(rm.batch(['b', 'a', 'zz'], 'decimal', 'http://x').tag, first.tag, 'order is part of the bytes');
    assert.notEqual(rm.batch(['a', 'b'], 'decimal', 'http://x').tag, first.tag, 'so is the requested count');
    tick(rm, a, 2.2);
    const changed = rm.batch(['a', 'b', 'zz'], 'decimal', 'http://x');
    assert.notEqual(changed.tag, first.tag);
    assert.ok(brotliDecompressSync(await changed.encoded('br')).equals(changed.body));
  });

  it('tags are unique to a process: the same event and version in another read model has another tag', () => {
    const one = new ReadModel({ now: () => T0 });
    const two = new ReadModel({ now: () => T0 });
    const p1 = one.oddsPayload(withMarkets(one, 'e', 2), 'decimal');
    const p2 = two.oddsPayload(withMarkets(two, 'e', 2), 'decimal');
    assert.ok(p1.body.equals(p2.body));
    assert.notEqual(p1.tag, p2.tag);
  });
});
