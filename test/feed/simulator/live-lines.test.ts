// In-play lines that follow the score (live-lines.ts): lines added around the middle, stable ids, decided ones dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Book, layoutOf } from '../../../src/feed/simulator/book.js';
import { resolveConfig } from '../../../src/feed/simulator/config.js';
import { LINE_MARKET_BASE, marketIdOf } from '../../../src/feed/simulator/ids.js';
import { LiveLines } from '../../../src/feed/simulator/live-lines.js';
import { normalDist } from '../../../src/feed/simulator/pricing/dist.js';
import { asianHandicap, totals } from '../../../src/feed/simulator/pricing/families.js';
import type { FairMarket } from '../../../src/feed/simulator/pricing/fair.js';
import { halfLines, spreadLines } from '../../../src/feed/simulator/pricing/points.js';

const config = resolveConfig({});
const names = { home: 'H', away: 'A' };
const OPEN_TOTALS = halfLines(45, 3, 4); // 36.5 … 54.5
const OPEN_SPREADS = spreadLines(6, 3, 4); // -14.5 … 3.5
/** The opening ladder's lines either side of x (its step is 3). */
const around = (ladder: number[], x: number): [number, number] => {
  const below = ladder[0]! + 3 * Math.floor((x - ladder[0]!) / 3);
  return [below, below + 3];
};

/** A rugby-like book: totals and handicap lines around an expected total and home margin. */
function book(total: number, margin: number, sd: number, scored = 0): FairMarket[] {
  const t = normalDist(total, sd).clampBelow(scored);
  const m = normalDist(margin, sd);
  return [...OPEN_SPREADS.map((l) => asianHandicap(names, m, l)), ...OPEN_TOTALS.map((l) => totals(t, l))];
}

const linesOf = (ms: readonly FairMarket[], group: string): number[] =>
  ms
    .filter((m) => m.line?.group === group)
    .map((m) => m.line!.value)
    .sort((a, b) => a - b);

describe('live lines follow the score', () => {
  const layout = layoutOf(book(45, 6, 14));

  it('adds lines around the middle the score now puts the total and the margin at', () => {
    const follow = new LiveLines().follow(book(80, 50, 6), layout);
    const tot = linesOf(follow, 'totals');
    const ah = linesOf(follow, 'asian_handicap');
    const [tLo, tHi] = around(OPEN_TOTALS, 80);
    for (const want of [tLo - 3, tLo, tHi, tHi + 3])
      assert.ok(tot.includes(want), `total ${want} offered (${tot.join(', ')})`);
    // A home margin of 50 is the handicap -50 (home -50.5 is an even chance).
    const [hLo, hHi] = around(OPEN_SPREADS, -50);
    for (const want of [hLo - 3, hLo, hHi, hHi + 3])
      assert.ok(ah.includes(want), `handicap ${want} offered (${ah.join(', ')})`);
    // Every line added is a market worth offering: both sides between 4% and 96%.
    for (const m of follow.slice(book(80, 50, 6).length)) {
      const p = m.outcomes[0]!.p;
      assert.ok(p >= 0.04 && p <= 0.96, `${m.key} at ${p}`);
    }
  });

  it('adds nothing while the opening lines still straddle the middle', () => {
    const start = book(45, 6, 14);
    assert.equal(new LiveLines().follow(start, layout).length, start.length);
  });

  it('keeps pricing a line it added, and drops it once the score decides it', () => {
    const lines = new LiveLines();
    const first = linesOf(lines.follow(book(80, 50, 6), layout), 'totals');
    assert.ok(first.includes(72.5) && first.includes(75.5), `added ${first.join(', ')}`);
    // 76 scored: 72.5 and 75.5 are won (decided); 84.5 is still to play for, though far now.
    const later = lines.follow(book(78, 50, 1.5, 76), layout);
    const decided = later.filter((m) => m.decided === true).map((m) => m.key);
    assert.ok(decided.includes('totals:72.5') && decided.includes('totals:75.5'), decided.join(', '));
    assert.ok(linesOf(later, 'totals').includes(84.5), 'an added line stays in the book while undecided');
    const after = linesOf(lines.follow(book(78, 50, 1.5, 76), layout), 'totals');
    assert.ok(!after.includes(72.5) && !after.includes(75.5), `decided lines no longer priced (${after.join(', ')})`);
    assert.ok(after.includes(84.5));
  });

  it('gives an added line the same ids from a fresh layout (a restarted world), above the opening ids', () => {
    const ids = (): Map<string, number> => {
      const b = new Book(7, config);
      b.withdrawDecided = true;
      const l = layoutOf(book(45, 6, 14));
      const r = b.sync(new LiveLines().follow(book(80, 50, 6), l), false, l);
      return new Map(r.added.map((d) => [d.key, d.market_id]));
    };
    const a = ids();
    const b = ids();
    assert.deepEqual([...a], [...b]);
    const added = [...a].filter(([k]) => k === 'totals:81.5' || k === 'asian_handicap:-50.5');
    assert.equal(added.length, 2);
    for (const [, id] of added) assert.ok(id >= marketIdOf(7, LINE_MARKET_BASE), `${id} in the added lines' range`);
    assert.equal(new Set(a.values()).size, a.size, 'no id names two markets');
  });

  it('never gives an id to two keys: a line whose slot is taken is not published', () => {
    const b = new Book(7, config);
    b.withdrawDecided = true;
    const l = layoutOf(book(45, 6, 14));
    const near = totals(normalDist(45, 14), 60.5);
    const far = totals(normalDist(45, 14), 60.5 + 125); // the same slot, 125 ladder units on
    const r = b.sync([near, far], false, l);
    assert.deepEqual(
      r.added.map((d) => d.key),
      ['totals:60.5'],
    );
  });
});
