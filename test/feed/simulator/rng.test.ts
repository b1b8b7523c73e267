// Tests of the simulator's seeded random numbers: same seed same stream, sane ranges and distributions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng, hashSeed } from '../../../src/feed/simulator/rng.js';

describe('simulator Rng', () => {
  it('gives the same stream for the same seed and another for another seed', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const sa = Array.from({ length: 20 }, () => a.nextUint32());
    const sb = Array.from({ length: 20 }, () => b.nextUint32());
    const sc = Array.from({ length: 20 }, () => c.nextUint32());
    assert.deepEqual(sa, sb);
    assert.notDeepEqual(sa, sc);
  });

  it('derives independent named streams from one seed', () => {
    assert.equal(Rng.derive(1, 'game', 7).next(), Rng.derive(1, 'game', 7).next());
    assert.notEqual(Rng.derive(1, 'game', 7).next(), Rng.derive(1, 'game', 8).next());
    assert.notEqual(hashSeed(1, 'ab', 'c'), hashSeed(1, 'a', 'bc'));
  });

  it('keeps draws in range', () => {
    const r = new Rng(5);
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      assert.ok(x >= 0 && x < 1);
      const k = r.int(3, 6);
      assert.ok(Number.isInteger(k) && k >= 3 && k <= 6);
    }
  });

  it('draws Poisson counts with the requested mean', () => {
    const r = new Rng(9);
    let sum = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) sum += r.poisson(1.7);
    assert.ok(Math.abs(sum / n - 1.7) < 0.05, `mean ${sum / n}`);
  });

  it('draws weighted indexes in proportion to the weights', () => {
    const r = new Rng(11);
    const hits = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) hits[r.weighted([1, 2, 0])]!++;
    assert.equal(hits[2], 0);
    assert.ok(Math.abs(hits[1]! / hits[0]! - 2) < 0.15);
  });
});
