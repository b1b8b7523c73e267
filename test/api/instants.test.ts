// ISO 8601 instants in query parameters: any number of fractional-second digits (truncated to the millisecond), impossible dates and zoneless times refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instantOf } from '../../src/api/instants.js';

const T = Date.parse('2026-11-22T10:00:00Z');

describe('instantOf', () => {
  it('takes any number of fractional digits, truncated to the millisecond', () => {
    assert.equal(instantOf('2026-11-22T10:00:00.1Z'), T + 100);
    assert.equal(instantOf('2026-11-22T10:00:00.123Z'), T + 123);
    assert.equal(instantOf('2026-11-22T10:00:00.123456789Z'), T + 123);
    assert.equal(instantOf('2026-11-22T10:00:00.1234567891Z'), T + 123, 'ten digits');
    assert.equal(instantOf(`2026-11-22T10:00:00.0009${'9'.repeat(30)}Z`), T, 'truncated, never rounded up');
    assert.equal(instantOf('2026-11-22T10:00:00.999999999999+01:00'), T - 3_600_000 + 999);
  });

  it('reads the years 0 to 99 as written, leap days included (not as 1900 to 1999)', () => {
    assert.equal(instantOf('0000-02-29T00:00:00Z'), Date.UTC(2000, 1, 29) - 2000 * 365.2425 * 86_400_000);
    assert.equal(new Date(instantOf('0099-12-31T00:00:00Z') ?? NaN).getUTCFullYear(), 99);
  });

  it('refuses what is not an instant', () => {
    for (const bad of [
      '2026-02-30T10:00:00Z',
      '2026-11-22T10:00:00',
      '2026-11-22T10:00:00.Z',
      '2026-11-22T24:00:00Z',
      // RFC 3339 as declared (format date-time and its pattern): seconds, a T, a ±hh:mm zone, no leap second.
      '2026-11-22T10:00Z',
      '2026-11-22 10:00:00Z',
      '2026-11-22T10:00:00+0100',
      '2026-12-31T23:59:60Z',
    ]) {
      assert.equal(instantOf(bad), null, bad);
    }
  });
});
