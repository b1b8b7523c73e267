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
    const layout = layoutOf([winner(0.5)]);
    book.sync([winner(0.5)], false, layout);
    const { changes } = book.sync([winner(0.9995)], false);
    assert.ok(
      changes.every((c) => c.is_locked === true),
      'both sides at a bound',
    );
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

  it('a period with nothing still to come is decided: its count stands', () => {
    const d = finalDist({ current: 27, mean: 0, variance: 4 });
    assert.equal(d.at(27), 1);
  });
});
