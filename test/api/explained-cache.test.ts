// The cache of explained entries: a hit does not explain again; the bytes held stay under the bound, least recently used going first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExplainedCache } from '../../src/api/settlement-explain.js';

test('a hit is served without explaining again; the least recently used entry goes first when over the bound', async () => {
  const cache = new ExplainedCache(40);
  let made = 0;
  const make = (text: string) => async () => {
    made++;
    return text;
  };
  assert.equal(await cache.get('a', make('aaaaaaaaaa')), 'aaaaaaaaaa');
  assert.equal(await cache.get('a', make('other')), 'aaaaaaaaaa');
  assert.equal(made, 1);
  await cache.get('b', make('bbbbbbbbbb'));
  await cache.get('c', make('cccccccccc'));
  await cache.get('a', make('x')); // a is used again: b is now the oldest
  await cache.get('d', make('dddddddddd')); // 40 bytes: still within the bound
  await cache.get('e', make('eeeeeeeeee')); // 50: b goes
  made = 0;
  await cache.get('a', make('x'));
  await cache.get('e', make('x'));
  assert.equal(made, 0, 'a and e are held');
  assert.equal(await cache.get('b', make('b again')), 'b again', 'b was dropped');
});

test('an entry larger than a quarter of the bound is explained every time, never held', async () => {
  const cache = new ExplainedCache(40);
  let made = 0;
  const big = async () => {
    made++;
    return 'x'.repeat(11);
  };
  await cache.get('big', big);
  await cache.get('big', big);
  assert.equal(made, 2);
});
