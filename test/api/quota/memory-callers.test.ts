// The in-process per-caller limiter of /v1/health and /v1/status: the shared contract, plus how it bounds its memory.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryCallerLimiter } from '../../../src/api/quota/memory-callers.js';
import { callerLimiterContract, HOUR, T } from './counter-contract.js';

callerLimiterContract(
  'memory',
  async () => ({ limiter: (limits) => new MemoryCallerLimiter(limits), dispose: async () => undefined }),
  false,
);

describe('per-caller limiter memory', () => {
  test('callers silent for an hour are forgotten', () => {
    const l = new MemoryCallerLimiter();
    for (let i = 0; i < 100; i++) l.hit(`ip-${i}`, T);
    assert.equal(l.size, 100);
    l.hit('late', T + HOUR + 60_000);
    assert.equal(l.size, 1);
  });

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
