// The per-caller limiter of /v1/health and /v1/status: 2 per whole second, 120 in any hour, refusals take nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryCallerLimiter } from '../../../src/api/quota/memory-callers.js';

const T = Date.parse('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;

describe('per-caller limiter (2/s, 120/h)', () => {
  test('two per second; the third waits for the next second', () => {
    const l = new MemoryCallerLimiter();
    assert.equal(l.hit('a', T + 100).ok, true);
    assert.equal(l.hit('a', T + 200).ok, true);
    assert.deepEqual(l.hit('a', T + 300), { ok: false, retryAfterSeconds: 1 });
    assert.equal(l.hit('b', T + 300).ok, true, 'another caller has its own allowance');
    assert.equal(l.hit('a', T + 1000).ok, true);
  });

  test('120 in any 60 minutes: the 121st waits until the oldest is an hour old', () => {
    const l = new MemoryCallerLimiter();
    for (let i = 0; i < 120; i++) assert.equal(l.hit('a', T + i * 1000).ok, true, `request ${i + 1}`);
    const at = T + 120 * 1000;
    assert.deepEqual(l.hit('a', at), { ok: false, retryAfterSeconds: 3600 - 120 });
    assert.deepEqual(l.hit('a', T + HOUR - 1), { ok: false, retryAfterSeconds: 1 });
    assert.equal(l.hit('a', T + HOUR).ok, true, 'the first left the hour');
    assert.equal(l.hit('a', T + HOUR + 100).ok, false, 'the second-oldest is still inside the hour');
    assert.equal(l.hit('a', T + HOUR + 1000).ok, true);
  });

  test('refused requests do not use up the hour', () => {
    const l = new MemoryCallerLimiter({ perSecond: 2, perHour: 4 });
    for (let i = 0; i < 50; i++) l.hit('a', T);
    assert.equal(l.hit('a', T + 1000).ok, true);
    assert.equal(l.hit('a', T + 1000).ok, true);
    assert.equal(l.hit('a', T + 2000).ok, false, 'four in the hour');
  });

  test('callers silent for an hour are forgotten', () => {
    const l = new MemoryCallerLimiter();
    for (let i = 0; i < 100; i++) l.hit(`ip-${i}`, T);
    assert.equal(l.size, 100);
    l.hit('late', T + HOUR + 60_000);
    assert.equal(l.size, 1);
  });
});

describe('per-caller limiter memory', () => {
  test('beyond its bound the limiter forgets the first-seen callers, never growing further', () => {
    const l = new MemoryCallerLimiter({ perSecond: 2, perHour: 120 }, 3);
    for (const c of ['a', 'a', 'b', 'b', 'c']) l.hit(c, T);
    assert.equal(l.hit('a', T).ok, false, 'a used its second');
    l.hit('d', T);
    assert.equal(l.size, 3);
    assert.equal(l.hit('b', T).ok, false, 'b is still remembered');
    assert.equal(l.hit('a', T).ok, true, 'a was forgotten for d: a fresh allowance');
  });
});
