// A market book's stored image: every market, position, price, lock and string comes back exactly; bad bytes are refused whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market } from '../../src/domain/types.js';
import { BookImageError } from '../../src/live/book-image.js';
import { MarketBook } from '../../src/live/market-book.js';
import { sharedStrings } from '../../src/live/shared-strings.js';
import { Rng } from '../../src/feed/simulator/rng.js';

function randomMarkets(rng: Rng, count: number, firstId: number, dense: boolean): Market[] {
  const markets: Market[] = [];
  let sel = dense ? 1 : 1_000;
  for (let m = 0; m < count; m++) {
    const n = 1 + rng.int(0, 3);
    markets.push({
      marketId: dense ? firstId + m : firstId + 3 * m + rng.int(0, 2),
      key: `family${m % 7}:${m}.5`,
      name: rng.next() < 0.5 ? `Total ${m}.5` : `Team Ünïcode ${m % 5} ⚽`,
      outcomes: Array.from({ length: n }, (_, k) => ({
        selectionId: dense ? sel++ : (sel += 1 + rng.int(0, 4)),
        code: ['home', 'away', 'over', 'under'][k] as string,
        label: k === 3 ? 'lone \ud800 surrogate' : `Label ${k} of ${m % 11}`,
        odds: Math.round((1.01 + 20 * rng.next()) * 100) / 100,
        teamSide: k === 0 ? 'home' : k === 1 ? 'away' : null,
        isLocked: rng.next() < 0.2,
      })),
      ...(rng.next() < 0.1 ? { withdrawn: true } : {}),
    });
  }
  return markets;
}

/** Everything a reader of the book can see of it. */
function contents(b: MarketBook): unknown {
  const markets = [];
  for (let i = 0; i < b.marketCount; i++) markets.push({ ...b.toMarket(i), position: b.position(i) });
  return markets;
}

describe('book image', () => {
  for (const dense of [true, false]) {
    it(`restores every market, position, price, lock, team side and string exactly (${dense ? 'dense' : 'scattered'} ids)`, () => {
      const rng = new Rng(dense ? 7 : 8);
      const b = new MarketBook();
      const markets = randomMarkets(rng, 400, 10, dense);
      // Stored positions out of order and with gaps (markets replaced and withdrawn over time).
      b.upsert(
        markets,
        markets.map((_, k) => (dense ? k : 5 * k + (k % 3))),
      );
      b.setOdds(3, 9.99);
      b.setLocked(4, true);
      b.withdraw([markets[5]!.marketId]);

      const copy = new MarketBook();
      copy.restoreImage(b.image());
      assert.deepEqual(contents(copy), contents(b));
      assert.equal(copy.indexOfSelection(b.selectionId(17)), 17);
      assert.equal(copy.indexOfMarket(b.marketId(33)), 33);
      // A market added after the restore goes after the last stored position, as in the original.
      const added = {
        ...markets[0]!,
        marketId: 999_999,
        outcomes: [{ ...markets[0]!.outcomes[0]!, selectionId: 9_999_999 }],
      };
      b.upsert([added]);
      copy.upsert([added]);
      assert.equal(copy.position(copy.marketCount - 1), b.position(b.marketCount - 1));
    });
  }

  it('counts each distinct string once for the restored book and gives it back when the book is replaced', () => {
    const b = new MarketBook();
    b.upsert([
      {
        marketId: 1,
        key: 'image-test-only-key',
        name: 'image-test-only-name',
        outcomes: [
          { selectionId: 1, code: 'image-x', label: 'image-x', odds: 2, teamSide: null, isLocked: false },
          { selectionId: 2, code: 'image-y', label: 'image-x', odds: 3, teamSide: null, isLocked: false },
        ],
      },
    ]);
    const image = b.image();
    const before = sharedStrings.size;
    const copy = new MarketBook();
    copy.restoreImage(image);
    // Same strings as the original book holds: none new.
    assert.equal(sharedStrings.size, before);
    copy.restoreImage(new MarketBook().image());
    b.restoreImage(new MarketBook().image());
    assert.equal(sharedStrings.find('image-test-only-key'), -1, 'no book uses the key any more');
    assert.equal(sharedStrings.find('image-x'), -1);
  });

  it('an empty book images and restores as empty', () => {
    const copy = new MarketBook();
    copy.restoreImage(new MarketBook().image());
    assert.equal(copy.marketCount, 0);
    assert.equal(copy.outcomeCount, 0);
  });

  it('refuses bytes that are not an image (short, another version, truncated, a string out of range) and leaves the book as it was', () => {
    const b = new MarketBook();
    b.upsert(randomMarkets(new Rng(3), 20, 1, true));
    const good = b.image();
    const other = new MarketBook();
    other.upsert(randomMarkets(new Rng(4), 5, 100, true));
    const was = contents(other);
    const version = good.slice();
    version[0] = 99;
    const outOfRange = good.slice();
    // The first label's string number (dense ids: no optional columns; see the layout in book-image.ts).
    const view = new DataView(outOfRange.buffer);
    assert.equal(view.getUint8(1), 0, 'a dense book has no optional columns');
    const [m, n] = [view.getUint32(4, true), view.getUint32(8, true)];
    const align8 = (x: number): number => (x + 7) & ~7;
    const strings = 56 + align8(4 * view.getUint32(12, true)) + align8(view.getUint32(16, true));
    view.setUint32(strings + 8 * n + 4 * (m + 1) + 8 * m + 4 * n, 1e6, true);
    for (const bad of [new Uint8Array(10), version, good.subarray(0, good.length - 1), outOfRange]) {
      assert.throws(() => other.restoreImage(bad), BookImageError);
      assert.deepEqual(contents(other), was);
    }
  });
});
