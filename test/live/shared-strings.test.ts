// The shared string table: counted acquisitions, freed slots reused, and books collected give their strings back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MarketBook } from '../../src/live/market-book.js';
import { SharedStrings, sharedStrings } from '../../src/live/shared-strings.js';

// A collector to call: exposed for a new context, as the test runner does not pass --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('shared strings', () => {
  it('keeps a string while any user holds it, then frees and reuses its slot', () => {
    const t = new SharedStrings();
    const a = t.acquire('Over 2.5');
    assert.equal(t.acquire('Over 2.5'), a);
    const b = t.acquire('Under 2.5');
    assert.notEqual(a, b);
    assert.equal(t.size, 2);
    t.release(a);
    assert.equal(t.get(a), 'Over 2.5');
    t.release(a);
    assert.equal(t.size, 1);
    // A release beyond the count changes nothing.
    t.release(a);
    assert.equal(t.get(b), 'Under 2.5');
    const c = t.acquire('Draw');
    assert.equal(c, a, 'the freed slot is reused');
    assert.equal(t.get(c), 'Draw');
  });

  it('grows past its first capacity', () => {
    const t = new SharedStrings();
    const ids = Array.from({ length: 5000 }, (_, i) => t.acquire(`s${i}`));
    assert.equal(t.size, 5000);
    ids.forEach((id, i) => assert.equal(t.get(id), `s${i}`));
  });

  it('a book that is collected gives its strings back', async () => {
    const before = sharedStrings.size;
    (() => {
      const b = new MarketBook();
      b.upsert([
        {
          marketId: 1,
          key: 'collected-book-key',
          name: 'Collected book',
          outcomes: [
            { selectionId: 1, code: 'collected-code', label: 'Collected', odds: 2, teamSide: null, isLocked: false },
          ],
        },
      ]);
      assert.equal(sharedStrings.size, before + 4);
    })();
    for (let i = 0; i < 20 && sharedStrings.size !== before; i++) {
      gc();
      await tick();
    }
    assert.equal(sharedStrings.size, before);
  });
});
