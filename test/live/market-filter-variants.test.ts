// Filtered payloads (`markets=`): a cache of their own, bounded in entries and bytes, that never touches the unfiltered payloads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market } from '../../src/domain/types.js';
import { CachedPayload } from '../../src/live/cached-payload.js';
import { newCompressionStats } from '../../src/live/compressed-forms.js';
import { MarketFilter } from '../../src/live/market-filter.js';
import { PayloadCache } from '../../src/live/payload-cache.js';
import { PatchablePayload } from '../../src/live/patchable-payload.js';
import { ReadModel } from '../../src/live/read-model.js';
import type { LiveEvent } from '../../src/live/live-event.js';
import { sportEvent as event } from '../helpers/sport-event.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');

/** Forty player props (a family each) and a 1x2. */
function book(): Market[] {
  const ms: Market[] = Array.from({ length: 40 }, (_, i) => ({
    marketId: 100 + i,
    key: `player_goals_p${i}:0.5`,
    name: `Player ${i} goals`,
    outcomes: [
      { selectionId: 1000 + 2 * i, code: 'over', label: 'Over', odds: 2, teamSide: null, isLocked: false },
      { selectionId: 1001 + 2 * i, code: 'under', label: 'Under', odds: 1.8, teamSide: null, isLocked: false },
    ],
  }));
  ms.push({
    marketId: 1,
    key: '1x2',
    name: 'Match Result',
    outcomes: [
      { selectionId: 11, code: 'home', label: 'Home', odds: 2.1, teamSide: 'home', isLocked: false },
      { selectionId: 12, code: 'draw', label: 'Draw', odds: 3.3, teamSide: null, isLocked: false },
      { selectionId: 13, code: 'away', label: 'Away', odds: 3.1, teamSide: 'away', isLocked: false },
    ],
  });
  return ms;
}

function model(opts: { variantCacheEntries?: number; variantCacheBytes?: number } = {}): {
  rm: ReadModel;
  le: LiveEvent;
} {
  const rm = new ReadModel({ now: () => T0, ...opts });
  const le = rm.putEvent(event('e1'));
  rm.upsertMarkets(le, book());
  return { rm, le };
}

describe('filtered payloads', () => {
  it('keep the markets of their families only, in book order', () => {
    const { rm, le } = model();
    const body = JSON.parse(
      rm.oddsPayload(le, 'decimal', new MarketFilter(['1x2', 'player_goals_p3'])).body.toString(),
    ) as {
      markets: Array<{ key: string }>;
    };
    assert.deepEqual(
      body.markets.map((m) => m.key),
      ['player_goals_p3:0.5', '1x2'],
    );
  });

  it('are bounded in entries, whatever the number of distinct filters asked for', () => {
    const { rm, le } = model({ variantCacheEntries: 8 });
    for (let i = 0; i < 40; i++) {
      rm.oddsPayload(le, 'decimal', new MarketFilter([`player_goals_p${i}`]));
      assert.ok(rm.variantCache.entries <= 8, `${rm.variantCache.entries} entries`);
    }
    assert.equal(rm.variantCache.entries, 8);
  });

  it('are bounded in bytes', () => {
    const { rm, le } = model({ variantCacheBytes: 4096 });
    for (let i = 0; i < 40; i++) {
      rm.detailPayload(le, 'decimal', 'http://x', new MarketFilter([`player_goals_p${i}`, '1x2']));
      assert.ok(rm.variantCache.bytes <= 4096, `${rm.variantCache.bytes} bytes`);
    }
    assert.ok(rm.variantCache.entries > 0 && rm.variantCache.entries < 40);
  });

  it('never evict or rebuild the unfiltered payload, nor count in its budget', () => {
    const { rm, le } = model({ variantCacheEntries: 4 });
    const full = rm.oddsPayload(le, 'decimal');
    const bytes = rm.cachedPayloadBytes;
    const builds = rm.payloadBuilds;
    for (let i = 0; i < 40; i++) rm.oddsPayload(le, 'decimal', new MarketFilter([`player_goals_p${i}`]));
    assert.equal(rm.payloadBuilds, builds + 40);
    assert.equal(rm.cachedPayloadBytes, bytes);
    assert.equal(rm.oddsPayload(le, 'decimal'), full, 'the same cached entry');
    assert.equal(rm.payloadBuilds, builds + 40, 'not built again');
  });

  it('are freed at once when the event changes shape', () => {
    const { rm, le } = model();
    rm.oddsPayload(le, 'decimal', new MarketFilter(['1x2']));
    assert.equal(rm.variantCache.entries, 1);
    rm.touch(le);
    assert.deepEqual(rm.variantCache, { bytes: 0, entries: 0 });
  });

  it('a normalised value: case, order and repeats make one filter', () => {
    const a = new MarketFilter(['totals', '1X2', 'totals']);
    const b = new MarketFilter(['1x2', 'TOTALS']);
    assert.equal(a.value, '1x2,totals');
    assert.equal(a.digest, b.digest);
  });
});

describe('payload cache owners', () => {
  it("an owner's set of keys forgets the entries that left, so it stays as small as the cache", () => {
    const { le } = model();
    const cache = new PayloadCache(1 << 20, () => undefined, 4);
    for (let i = 0; i < 100; i++) {
      const key = `e1|o|m=${i}`;
      const payload = PatchablePayload.build(le, 'decimal', { prefix: '{"markets":', suffix: '}' });
      cache.set(
        new CachedPayload(
          key,
          payload,
          'p.',
          newCompressionStats(),
          () => () => undefined,
          () => undefined,
        ),
        'e1',
      );
    }
    assert.equal(cache.size, 4);
    const owners = (cache as unknown as { byOwner: Map<string, Set<string>> }).byOwner;
    assert.equal(owners.get('e1')?.size, 4);
    cache.dropOwner('e1');
    assert.equal(cache.size, 0);
    assert.equal(owners.size, 0);
  });
});
