// The in-play book: outcomes at the price bounds are taken off, decided markets withdrawn, closed prices follow the state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Book, layoutOf } from '../../../src/feed/simulator/book.js';
import { resolveConfig } from '../../../src/feed/simulator/config.js';
import { fair, type FairMarket } from '../../../src/feed/simulator/pricing/fair.js';
import { finalDist } from '../../../src/feed/simulator/pricing/points.js';

const config = resolveConfig({});
const winner = (pHome: number, decided = false): FairMarket =>
  fair(
    'moneyline',
    'Winner',
    [
      { code: 'home', label: 'H', side: 'home', p: pHome },
      { code: 'away', label: 'A', side: 'away', p: 1 - pHome },
    ],
    decided,
  );

describe('in-play book', () => {
  it('takes an outcome priced at 1.01 off and prices the other side alone', () => {
    const book = new Book(1, config);
    book.withdrawDecided = true;
    const layout = layoutOf([winner(0.5)]);
    book.sync([winner(0.5)], false, layout);
    const { changes } = book.sync([winner(0.97)], false);
    assert.equal(changes.length, 2);
    const locked = changes.filter((c) => c.is_locked === true);
    assert.equal(locked.length, 1, 'the favourite at the floor is locked');
    const open = changes.find((c) => c.is_locked !== true)!;
    assert.equal(open.odds, Math.round((1 / (0.03 * (1 + config.margin))) * 100) / 100);
  });

  it('takes an outcome beyond the maximum price off', () => {
    const book = new Book(1, config);
    book.withdrawDecided = true;
    const layout = layoutOf([winner(0.5)]);
    book.sync([winner(0.5)], false, layout);
    const { changes } = book.sync([winner(0.9995)], false);
    assert.ok(
      changes.every((c) => c.is_locked === true),
      'both sides at a bound',
    );
  });

  it('before kick-off, a favourite at 1.01 leaves the outsider its share of the margin (an overround of a few per cent)', () => {
    const book = new Book(1, config);
    const layout = layoutOf([winner(0.5)]);
    book.sync([winner(0.5)], false, layout);
    for (const p of [0.97, 0.99, 0.9995]) {
      const { changes } = book.sync([winner(p)], false);
      const fav = changes.find((c) => c.selection_id % 100_000 === 0);
      const out = changes.find((c) => c.selection_id % 100_000 === 1)!;
      assert.equal(fav?.is_locked ?? true, true, `${p}: the favourite at the floor is off`);
      // p + margin / 2: 1 / (0.03 + 0.025) = 18.18, not 1 / (0.03 x 1.05) = 31.75.
      assert.equal(out.odds, Math.round((1 / (1 - p + config.margin / 2)) * 100) / 100, `${p}`);
      assert.notEqual(out.is_locked, true);
      const overround = 1 / 1.01 + 1 / out.odds! - 1;
      assert.ok(overround >= 0.01 && overround <= 0.12, `${p}: overround ${overround}`);
    }
  });

  it('withdraws a decided market in play, once, and never republishes it', () => {
    const book = new Book(1, config);
    book.withdrawDecided = true;
    const layout = layoutOf([winner(0.5)]);
    const first = book.sync([winner(0.5)], false, layout);
    const id = first.added[0]!.market_id;
    const done = book.sync([winner(1, true)], false, layout);
    assert.deepEqual(done.withdrawn, [id]);
    assert.deepEqual(done.changes, []);
    const again = book.sync([winner(0.5)], false, layout);
    assert.deepEqual([again.added, again.changes, again.withdrawn], [[], [], []]);
  });

  it('locks a decided market prematch instead (nothing is withdrawn before kick-off)', () => {
    const book = new Book(1, config);
    const layout = layoutOf([winner(0.5)]);
    book.sync([winner(0.5)], false, layout);
    const r = book.sync([winner(1, true)], false, layout);
    assert.deepEqual(r.withdrawn, []);
    assert.ok(r.changes.every((c) => c.is_locked === true));
  });

  it('in play, a two-way line with one side at a bound is taken off whole; prematch and a winner market keep the other side', () => {
    const total = (over: number): FairMarket =>
      fair('totals:40.5', 'Total 40.5', [
        { code: 'over', label: 'Over', side: null, p: over },
        { code: 'under', label: 'Under', side: null, p: 1 - over },
      ]);
    const inPlay = new Book(1, config);
    inPlay.withdrawDecided = true;
    const layout = layoutOf([total(0.5), winner(0.5)]);
    inPlay.sync([total(0.5), winner(0.5)], false, layout);
    const far = inPlay.sync([total(0.997), winner(0.997)], false, layout);
    const [over, under, home, away] = [0, 1, 2, 3].map((i) => far.changes.find((c) => c.selection_id % 100_000 === i));
    assert.equal(over?.is_locked, true, 'Over at 1.01 is off');
    assert.equal(under?.is_locked, true, 'Under alone is no market: off too');
    assert.equal(under?.odds, config.maxOdds, 'shown at the bound it is taken off at');
    assert.equal(home?.is_locked, true);
    assert.notEqual(away?.is_locked, true, 'the winner market still offers the long shot');
    const back = inPlay.sync([total(0.6), winner(0.6)], false, layout);
    assert.ok(
      back.changes.filter((c) => c.selection_id % 100_000 < 2).every((c) => c.is_locked === false),
      'the line reopens when the score brings it back',
    );
    const prematch = new Book(1, config);
    prematch.sync([total(0.5)], false, layout);
    const pre = prematch.sync([total(0.997)], false, layout);
    assert.equal(pre.changes.filter((c) => c.is_locked === true).length, 1, 'prematch only the bound side is off');
  });

  it('a period with nothing still to come is decided: its count stands', () => {
    const d = finalDist({ current: 27, mean: 0, variance: 4 });
    assert.equal(d.at(27), 1);
  });
});
