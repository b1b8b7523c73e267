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
  it('keeps a string while any user holds it; a string nobody uses comes back under its index', () => {
    const t = new SharedStrings();
    const a = t.acquire('Over 2.5');
    assert.equal(t.acquire('Over 2.5'), a);
    const b = t.acquire('Under 2.5');
    assert.notEqual(a, b);
    assert.equal(t.size, 2);
    assert.equal(t.find('Over 2.5'), a);
    t.release(a);
    assert.equal(t.get(a), 'Over 2.5');
    t.release(a);
    assert.equal(t.size, 1);
    assert.equal(t.find('Over 2.5'), -1, 'unused strings are not found');
    // A release beyond the count changes nothing.
    t.release(a);
    assert.equal(t.size, 1);
    assert.equal(t.acquire('Over 2.5'), a, 'acquired again before a compaction: the same index');
    assert.equal(t.get(b), 'Under 2.5');
    assert.equal(t.find('Nope'), -1);
  });

  it('round-trips any text: empty, accents, emoji, long', () => {
    const t = new SharedStrings();
    const texts = ['', 'Müller Über 2,5', 'Équipe — “A”', '⚽ goal', 'x'.repeat(5000), 'Ωmega\u0000nul'];
    const ids = texts.map((s) => t.acquire(s));
    texts.forEach((s, k) => {
      assert.equal(t.get(ids[k]!), s);
      assert.equal(t.find(s), ids[k]);
    });
  });

  it('compacts once many strings are unused: used ones keep index and text, freed slots are reused', () => {
    const t = new SharedStrings();
    const keep = Array.from({ length: 3000 }, (_, i) => [`keep ${i}`, t.acquire(`keep ${i}`)] as const);
    const drop = Array.from({ length: 9000 }, (_, i) => t.acquire(`drop ${i} ${'y'.repeat(i % 40)}`));
    const before = t.heldBytes;
    for (const id of drop) t.release(id);
    assert.equal(t.size, 3000);
    for (const [text, id] of keep) {
      assert.equal(t.get(id), text);
      assert.equal(t.find(text), id);
    }
    for (let i = 0; i < 9000; i += 997) assert.equal(t.find(`drop ${i} ${'y'.repeat(i % 40)}`), -1);
    // New strings take the freed slots rather than new ones.
    const fresh = Array.from({ length: 5000 }, (_, i) => t.acquire(`fresh ${i}`));
    assert.ok(Math.max(...fresh) < 12_000, 'freed slots are reused');
    assert.ok(t.heldBytes <= before, 'no growth after reclaiming');
    fresh.forEach((id, i) => assert.equal(t.get(id), `fresh ${i}`));
    for (const [text, id] of keep) assert.equal(t.get(id), text);
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
