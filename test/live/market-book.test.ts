// The column-wise market book: order, replacement, removal, lookups by id, positions and in-place prices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Market } from '../../src/domain/types.js';
import { MarketBook } from '../../src/live/market-book.js';
import { sharedStrings } from '../../src/live/shared-strings.js';

function market(id: number, selections: number[], odds = 2): Market {
  return {
    marketId: id,
    key: `totals:${id}.5`,
    name: `Total ${id}.5`,
    outcomes: selections.map((s, k) => ({
      selectionId: s,
      code: k === 0 ? 'over' : 'under',
      label: `${k === 0 ? 'Over' : 'Under'} ${id}.5`,
      odds: odds + k / 10,
      teamSide: k === 0 ? 'home' : null,
      isLocked: k === 1,
    })),
  };
}

const ids = (b: MarketBook): number[] => b.markets().map((m) => m.marketId);

describe('market book', () => {
  it("gives each outcome's market id, whatever the order of the outcomes asked (forward, backward, far, repeated)", () => {
    const b = new MarketBook();
    const markets: Market[] = [];
    let sel = 100;
    for (let m = 0; m < 300; m++) {
      const n = 1 + (m % 4);
      markets.push(
        market(
          5_000 + 7 * m,
          Array.from({ length: n }, () => sel++),
        ),
      );
    }
    b.upsert(markets);
    const total = sel - 100;
    let seed = 7;
    const next = (): number => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const cases: number[][] = [
      Array.from({ length: total }, (_, o) => o),
      Array.from({ length: total }, (_, o) => total - 1 - o),
      [0, total - 1, 0, 3, 3, 3, total - 2, 1],
      Array.from({ length: 200 }, () => Math.floor(next() * total)).sort((x, y) => x - y),
      Array.from({ length: 200 }, () => Math.floor(next() * total)),
      [],
    ];
    for (const outcomes of cases) {
      const out = new Float64Array(outcomes.length);
      b.marketIdsOf(outcomes, out);
      assert.deepEqual(
        [...out],
        outcomes.map((o) => b.marketId(b.marketOfOutcome(o))),
      );
    }
    // A new layout (a market replaced by a longer one, markets appended): the owners follow it.
    b.upsert([market(5_000, [100, 100_001, 100_002]), market(99_999, [200_000, 200_001])]);
    const all = Array.from({ length: b.outcomeCount }, (_, o) => b.outcomeCount - 1 - o);
    const out = new Float64Array(all.length);
    b.marketIdsOf(all, out);
    assert.deepEqual(
      [...out],
      all.map((o) => b.marketId(b.marketOfOutcome(o))),
    );
    assert.equal(out[0], 99_999);
  });

  it('keeps markets in the order given and round-trips every field', () => {
    const b = new MarketBook();
    const input = [market(5, [51, 52]), market(2, [21, 22]), market(9, [91, 92, 93])];
    b.upsert(input);
    assert.deepEqual(b.markets(), input);
    assert.equal(b.marketCount, 3);
    assert.equal(b.outcomeCount, 7);
  });

  it('a replaced market keeps its place; new markets are appended', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11, 12]), market(2, [21, 22])]);
    b.upsert([market(3, [31, 32]), market(1, [11, 12, 13], 3)]);
    assert.deepEqual(ids(b), [1, 2, 3]);
    assert.deepEqual(b.toMarket(0), market(1, [11, 12, 13], 3));
  });

  it('withdraws by id: kept for settlement, hidden from offers; unknown and repeated ids are ignored', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11]), market(2, [21]), market(3, [31])]);
    assert.deepEqual(b.withdraw([2, 99]), [2]);
    assert.deepEqual(b.withdraw([2]), []);
    assert.deepEqual(ids(b), [1, 2, 3], 'still in the book');
    assert.equal(b.toMarket(1).withdrawn, true);
    assert.equal(b.toMarket(0).withdrawn, undefined);
    assert.equal(b.openMarketCount(), 2);
    assert.equal(b.indexOfKey('totals:2.5'), -1);
    assert.deepEqual(b.withdraw('all'), [1, 3]);
    assert.equal(b.openMarketCount(), 0);
  });

  it('a withdrawn market offered again by the producer is back', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11]), market(2, [21])]);
    b.withdraw([1]);
    assert.equal(b.sameAs(0, market(1, [11])), false, 'offering it again is a change');
    b.upsert([market(1, [11])]);
    assert.equal(b.isWithdrawn(0), false);
    assert.deepEqual(ids(b), [1, 2]);
  });

  it('withdrawn markets survive a restart through their stored documents', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11]), market(2, [21])]);
    b.withdraw([2]);
    const again = new MarketBook();
    again.upsert(b.markets(), [0, 1]);
    assert.equal(again.isWithdrawn(1), true);
    assert.equal(again.openMarketCount(), 1);
  });

  it('finds selections and markets by id, and the market of an outcome', () => {
    const b = new MarketBook();
    b.upsert([market(7, [700, 3]), market(4, [40, 41, 42])]);
    for (const [sel, marketId] of [
      [700, 7],
      [3, 7],
      [40, 4],
      [42, 4],
    ] as const) {
      const o = b.indexOfSelection(sel);
      assert.equal(b.selectionId(o), sel);
      assert.equal(b.marketId(b.marketOfOutcome(o)), marketId);
    }
    assert.equal(b.indexOfSelection(5), -1);
    assert.equal(b.indexOfMarket(4), 1);
    assert.equal(b.indexOfMarket(8), -1);
  });

  it('price and lock changes are in place and say whether anything changed', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11, 12])]);
    const o = b.indexOfSelection(11);
    assert.equal(b.setOdds(o, 2), false);
    assert.equal(b.setOdds(o, 2.35), true);
    assert.equal(b.odds(o), 2.35);
    assert.equal(b.setLocked(o, false), false);
    assert.equal(b.setLocked(o, true), true);
    assert.equal(b.isLocked(o), true);
    assert.equal(b.teamSide(o), 'home', 'locking keeps the team side');
  });

  it('sameAs detects any difference in a market', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11, 12])]);
    assert.equal(b.sameAs(0, market(1, [11, 12])), true);
    assert.equal(b.sameAs(0, market(1, [11, 12], 2.5)), false);
    assert.equal(b.sameAs(0, market(1, [11, 13])), false);
    assert.equal(b.sameAs(0, { ...market(1, [11, 12]), name: 'Other' }), false);
  });

  it('restored positions are kept and new markets are placed after the highest', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11]), market(3, [31])], [0, 7]);
    b.upsert([market(4, [41])]);
    assert.deepEqual(
      [0, 1, 2].map((i) => b.position(i)),
      [0, 7, 8],
    );
  });

  it('counts markets with at least one unlocked selection', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11, 12]), market(2, [21, 22])]);
    assert.equal(b.openMarketCount(), 2);
    b.setLocked(b.indexOfSelection(21), true);
    assert.equal(b.openMarketCount(), 1);
  });

  it('books share one instance of each string, and give it back when replaced', () => {
    const before = sharedStrings.size;
    const b1 = new MarketBook();
    const b2 = new MarketBook();
    const m = (label: string): Market => ({
      marketId: 1,
      key: 'shared-strings-test',
      name: 'Shared strings test',
      outcomes: [{ selectionId: 11, code: 'over', label, odds: 2, teamSide: null, isLocked: false }],
    });
    b1.upsert([m(['Over', '2.5 (test)'].join(' '))]);
    b2.upsert([m(['Over 2', '.5 (test)'].join(''))]);
    assert.equal(b1.label(0), b2.label(0));
    // 'over' was in the table already (other tests' books); key, name and label are new.
    assert.equal(sharedStrings.size, before + 3);
    b1.upsert([m('Under 2.5 (test)')]);
    assert.equal(sharedStrings.size, before + 4, 'the old label is still used by b2');
    b2.upsert([m('Under 2.5 (test)')]);
    assert.equal(sharedStrings.size, before + 3, 'the old label is used by no book any more');
    assert.equal(b2.label(0), 'Under 2.5 (test)');
  });

  it('markets kept through a rebuild keep their strings counted once; replaced ones give theirs back', () => {
    const before = sharedStrings.size;
    const mk = (id: number, label: string): Market => ({
      marketId: id,
      key: `kept-test-${id}`,
      name: `Kept test ${id}`,
      outcomes: [{ selectionId: id * 10, code: 'kept-over', label, odds: 2, teamSide: null, isLocked: false }],
    });
    const b = new MarketBook();
    b.upsert([mk(1, 'Kept label'), mk(2, 'Shared label')]);
    assert.equal(sharedStrings.size, before + 7); // 2 keys, 2 names, 2 labels, 1 code
    b.upsert([mk(3, 'Shared label')]); // markets 1 and 2 are copied, 3 is new
    assert.equal(sharedStrings.size, before + 9);
    for (let round = 0; round < 3; round++) b.upsert([mk(4 + round, `Round ${round}`)]);
    assert.equal(sharedStrings.size, before + 9 + 9);
    b.upsert([mk(1, 'Replaced label')]); // 'Kept label' was only market 1's
    assert.equal(sharedStrings.size, before + 9 + 9);
    assert.equal(sharedStrings.find('Kept label'), -1);
    assert.deepEqual(
      b.markets().map((m) => m.outcomes[0]!.label),
      ['Replaced label', 'Shared label', 'Shared label', 'Round 0', 'Round 1', 'Round 2'],
    );
    assert.equal(b.key(1), 'kept-test-2');
  });

  it('books numbered densely (ids kept as a base, not a column) behave as sparse ones through every change', () => {
    // A seeded walk of upserts that keep, break and restore the runs of market ids, selection ids
    // and positions; after each step every lookup must agree with a plain model of the markets.
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const b = new MarketBook();
    const model = new Map<number, Market>();
    const BASE = 5_000_000_000;
    // Market 1000 + k holds selections BASE + 2k and BASE + 2k + 1: both id runs and positions are dense.
    const dense = (first: number, n: number, odds = 2): Market[] =>
      Array.from({ length: n }, (_, k) =>
        market(first + k, [BASE + 2 * (first - 1000 + k), BASE + 2 * (first - 1000 + k) + 1], odds),
      );
    b.upsert(dense(1000, 50));
    for (const m of dense(1000, 50)) model.set(m.marketId, m);
    let fresh = 7_000_000;
    for (let step = 0; step < 60; step++) {
      const r = random();
      const changed: Market[] =
        r < 0.3
          ? [market(900 + Math.floor(random() * 40), [fresh++, fresh++])] // off the runs
          : r < 0.6
            ? dense(1000 + Math.floor(random() * 45), 1 + Math.floor(random() * 5), 3 + step) // replaced in place
            : [market(1050 + step, [fresh++, fresh++])]; // appended
      b.upsert(changed);
      for (const m of changed) model.set(m.marketId, m);
      const expected = [...model.values()];
      const byId = new Map(b.markets().map((m) => [m.marketId, m]));
      assert.equal(b.marketCount, expected.length);
      for (const m of expected) {
        assert.deepEqual(byId.get(m.marketId), m);
        const i = b.indexOfMarket(m.marketId);
        assert.equal(b.marketId(i), m.marketId);
        for (const x of m.outcomes) {
          const o = b.indexOfSelection(x.selectionId);
          assert.equal(b.selectionId(o), x.selectionId);
          assert.equal(b.marketOfOutcome(o), i);
        }
      }
      const positions = Array.from({ length: b.marketCount }, (_, i) => b.position(i));
      assert.equal(new Set(positions).size, positions.length, 'positions stay distinct');
      for (const missing of [999.5, 5_000_000_000.5, -1, 5_000_000_000 - 1, 1e12])
        assert.equal(b.indexOfSelection(missing), -1);
      for (const missing of [1000.5, 899, 1e9]) assert.equal(b.indexOfMarket(missing), -1);
    }
  });

  it('a dense book restored with stored positions keeps them', () => {
    const b = new MarketBook();
    b.upsert([market(1, [11, 12]), market(2, [13, 14])], [40, 41]);
    assert.deepEqual([b.position(0), b.position(1)], [40, 41]);
    b.upsert([market(3, [15, 16])]);
    assert.equal(b.position(2), 42);
    b.upsert([market(4, [17, 18])], [7]);
    assert.deepEqual(
      [0, 1, 2, 3].map((i) => b.position(i)),
      [40, 41, 42, 7],
    );
    assert.deepEqual(ids(b), [1, 2, 3, 4]);
  });
});
