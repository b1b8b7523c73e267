// Payload memory is recycled only once no response holds it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BufferPool } from '../../src/live/buffer-pool.js';

describe('buffer pool', () => {
  it('a given-back buffer serves a later take of a fitting size', () => {
    const pool = new BufferPool();
    const a = pool.take(100_000);
    pool.give(a);
    const b = pool.take(99_000);
    assert.equal(b.buffer, a.buffer);
    assert.equal(b.length, 99_000);
    assert.equal(pool.reused, 1);
  });

  it('a held buffer is not reused until its last lease ends', () => {
    const pool = new BufferPool();
    const a = pool.take(50_000);
    const first = pool.hold(a);
    const second = pool.hold(a);
    pool.give(a);
    assert.notEqual(pool.take(50_000).buffer, a.buffer, 'held by two responses');
    first();
    first(); // a second call of the same lease changes nothing
    assert.notEqual(pool.take(50_000).buffer, a.buffer, 'still held by one');
    second();
    assert.equal(pool.take(50_000).buffer, a.buffer, 'free once both are done');
  });

  it('buffers it did not allocate are never taken in (they may share Node’s pool)', () => {
    const pool = new BufferPool();
    const foreign = Buffer.from('x'.repeat(10_000));
    pool.give(foreign);
    assert.equal(pool.pooledBytes, 0);
    assert.notEqual(pool.take(10_000).buffer, foreign.buffer);
  });

  it('keeps at most its byte budget and never pins a block far too big', () => {
    const pool = new BufferPool(250_000);
    const blocks = [pool.take(100_000), pool.take(100_000), pool.take(100_000)];
    for (const b of blocks) pool.give(b);
    assert.ok(pool.pooledBytes <= 250_000);
    const small = pool.take(1_000);
    assert.ok(!blocks.some((b) => b.buffer === small.buffer), 'a 1 KB body does not take a 100 KB block');
  });
});
