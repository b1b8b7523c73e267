// Table-driven tests of the quota rules: plans from configuration, UTC days and months, warning levels, error rate.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_PLANS,
  PlanBook,
  dateInMonth,
  elevatedErrorRate,
  parsePlans,
  quotaLevel,
  quotaPercent,
  secondsUntil,
  usageWarnings,
  utcDay,
  type WarningLevel,
} from '../../src/domain/quota.js';

describe('plans', () => {
  test('the defaults: free has 10,000 requests a month; unlimited has no limit at all', () => {
    assert.deepEqual(parsePlans(null), DEFAULT_PLANS);
    assert.deepEqual(parsePlans('  '), DEFAULT_PLANS);
    assert.deepEqual(DEFAULT_PLANS.free, { name: 'free', perMonth: 10_000, perSecond: 5, streams: 1, webhooks: 2 });
    assert.deepEqual(DEFAULT_PLANS.unlimited, {
      name: 'unlimited',
      perMonth: null,
      perSecond: null,
      streams: null,
      webhooks: null,
    });
  });

  test('PLANS adds plans and replaces defaults of the same name, keeping the others', () => {
    const plans = parsePlans(
      '{"team": {"per_month": 500000, "per_second": 50}, "free": {"per_month": 20000, "per_second": null}}',
    );
    assert.deepEqual(plans.team, { name: 'team', perMonth: 500_000, perSecond: 50, streams: 1, webhooks: 2 });
    assert.deepEqual(plans.free, { name: 'free', perMonth: 20_000, perSecond: null, streams: 1, webhooks: 2 });
    assert.deepEqual(plans.pro, DEFAULT_PLANS.pro);
  });

  test('PLANS sets how many webhook subscriptions a key may have; unset, a default plan keeps its own, a new one 2', () => {
    const plans = parsePlans(
      '{"team": {"per_month": 1, "per_second": 1, "webhooks": 7}, "pro": {"per_month": 1, "per_second": 1}, "new": {"per_month": 1, "per_second": 1}, "big": {"per_month": null, "per_second": null, "webhooks": null}}',
    );
    assert.equal(plans.team?.webhooks, 7);
    assert.equal(plans.pro?.webhooks, DEFAULT_PLANS.pro?.webhooks);
    assert.equal(plans.new?.webhooks, 2);
    assert.equal(plans.big?.webhooks, null);
    assert.throws(() => parsePlans('{"team": {"per_month": 1, "per_second": 1, "webhooks": 0}}'), /webhooks must be/);
  });

  test('PLANS sets how many streams a key may hold at once; unset, a default plan keeps its own', () => {
    const plans = parsePlans(
      '{"team": {"per_month": 1, "per_second": 1, "streams": 5}, "pro": {"per_month": 1, "per_second": 1}, "big": {"per_month": null, "per_second": null, "streams": null}}',
    );
    assert.equal(plans.team?.streams, 5);
    assert.equal(plans.pro?.streams, DEFAULT_PLANS.pro?.streams);
    assert.equal(plans.big?.streams, null);
    assert.throws(() => parsePlans('{"team": {"per_month": 1, "per_second": 1, "streams": 0}}'), /streams must be/);
  });

  const invalid: Array<[string, RegExp]> = [
    ['not json', /JSON object/],
    ['[1, 2]', /JSON object/],
    ['"free"', /JSON object/],
    ['{"Team": {"per_month": 1, "per_second": 1}}', /plan name 'Team'/],
    ['{"a b": {"per_month": 1, "per_second": 1}}', /plan name/],
    ['{"team": 5}', /plan 'team' must be an object/],
    ['{"team": {"per_month": 1}}', /needs both per_month and per_second/],
    ['{"team": {"per_month": 0, "per_second": 1}}', /plan 'team': per_month must be a whole number >= 1/],
    ['{"team": {"per_month": 1.5, "per_second": 1}}', /per_month/],
    ['{"team": {"per_month": "100", "per_second": 1}}', /per_month/],
    ['{"team": {"per_month": 100, "per_second": -1}}', /per_second/],
    ['{"team": {"per_month": 100, "per_second": 1, "burst": 3}}', /unknown field 'burst'/],
  ];
  for (const [text, message] of invalid) {
    test(`PLANS ${text} is refused with a message naming the fault`, () => {
      assert.throws(() => parsePlans(text), message);
    });
  }

  test('a key on a plan no longer configured gets the free plan', () => {
    const book = new PlanBook(parsePlans('{"team": {"per_month": 5, "per_second": 1}}'));
    assert.equal(book.of('team').perMonth, 5);
    assert.equal(book.of('gone').name, 'free');
    assert.equal(book.has('gone'), false);
    assert.deepEqual(book.names().sort(), ['developer', 'free', 'pro', 'starter', 'team', 'unlimited']);
  });
});

describe('UTC calendar', () => {
  const cases: Array<[string, string, string, string, number]> = [
    // instant, date, month start, month end, day of month
    ['2026-03-01T00:00:00.000Z', '2026-03-01', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', 1],
    ['2026-03-31T23:59:59.999Z', '2026-03-31', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', 31],
    ['2026-12-31T23:00:00.000Z', '2026-12-31', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 31],
    ['2028-02-29T12:00:00.000Z', '2028-02-29', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z', 29],
    ['2027-02-28T12:00:00.000Z', '2027-02-28', '2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z', 28],
  ];
  for (const [instant, date, monthStart, monthEnd, dayOfMonth] of cases) {
    test(`${instant} is ${date}, in the month ending ${monthEnd}`, () => {
      const d = utcDay(Date.parse(instant));
      assert.equal(d.date, date);
      assert.equal(new Date(d.monthStart).toISOString(), monthStart);
      assert.equal(new Date(d.monthEnd).toISOString(), monthEnd);
      assert.equal(d.dayOfMonth, dayOfMonth);
      assert.equal(d.end - d.start, 86_400_000);
      assert.equal(dateInMonth(d.monthStart, dayOfMonth), date);
    });
  }

  test('a time zone never moves the month: 23:30 UTC on the 31st is still that month', () => {
    assert.equal(utcDay(Date.parse('2026-01-31T23:30:00-00:00')).date, '2026-01-31');
    assert.equal(utcDay(Date.parse('2026-02-01T00:30:00+01:00')).date, '2026-01-31');
  });

  test('Retry-After seconds round up and are at least 1', () => {
    assert.equal(secondsUntil(10_000, 9_999), 1);
    assert.equal(secondsUntil(10_000, 10_000), 1);
    assert.equal(secondsUntil(10_000, 8_500), 2);
    assert.equal(secondsUntil(3_600_000, 0), 3600);
  });
});

describe('warning levels', () => {
  const levels: Array<[number, number, WarningLevel | null]> = [
    [0, 10_000, null],
    [4_999, 10_000, null],
    [5_000, 10_000, 'info'],
    [8_000, 10_000, 'info'],
    [8_001, 10_000, 'warning'],
    [9_500, 10_000, 'warning'],
    [9_501, 10_000, 'critical'],
    [9_999, 10_000, 'critical'],
    [10_000, 10_000, 'blocked'],
    [10_500, 10_000, 'blocked'],
    [1, 2, 'info'],
    [1, 1, 'blocked'],
    [80, 100, 'info'],
    [81, 100, 'warning'],
    [95, 100, 'warning'],
    [96, 100, 'critical'],
  ];
  for (const [used, limit, level] of levels) {
    test(`${used} of ${limit} is ${level ?? 'no warning'}`, () => {
      assert.equal(quotaLevel(used, limit), level);
    });
  }

  test('percent is rounded down to 2 decimals', () => {
    assert.equal(quotaPercent(8_001, 10_000), 80.01);
    assert.equal(quotaPercent(1, 3), 33.33);
    assert.equal(quotaPercent(2, 3), 66.66);
    assert.equal(quotaPercent(10_000, 10_000), 100);
  });

  const rates: Array<[number, number, boolean]> = [
    [50, 11, true],
    [50, 10, false],
    [49, 49, false],
    [100, 21, true],
    [100, 20, false],
    [1_000, 201, true],
  ];
  for (const [requests, errors, elevated] of rates) {
    test(`${errors} errors of ${requests} requests in the last hour ${elevated ? 'is' : 'is not'} an elevated error rate`, () => {
      assert.equal(elevatedErrorRate(requests, errors), elevated);
    });
  }
});

describe('usage warnings', () => {
  const base = { monthEnd: Date.parse('2026-04-01T00:00:00Z'), hourRequests: 0, hourErrors: 0 };

  test('no warning below 50%', () => {
    assert.deepEqual(usageWarnings({ ...base, used: 4_999, limit: 10_000 }), []);
  });

  test('only the highest quota level is listed, with its percent', () => {
    const [w, ...rest] = usageWarnings({ ...base, used: 9_600, limit: 10_000 });
    assert.deepEqual(rest, []);
    assert.equal(w?.level, 'critical');
    assert.equal(w?.percent, 96);
    assert.match(w?.message ?? '', /more than 95% of the monthly quota used \(9,600 of 10,000 requests\)/);
  });

  test('blocked says the monthly quota is exhausted and when it resets', () => {
    const [w] = usageWarnings({ ...base, used: 10_000, limit: 10_000 });
    assert.equal(w?.level, 'blocked');
    assert.equal(w?.percent, 100);
    assert.match(w?.message ?? '', /monthly quota exhausted.*2026-04-01T00:00:00.000Z/);
  });

  test('an elevated error rate adds a warning notice after the quota warning', () => {
    const warnings = usageWarnings({ ...base, used: 6_000, limit: 10_000, hourRequests: 60, hourErrors: 30 });
    assert.deepEqual(
      warnings.map((w) => w.level),
      ['info', 'warning'],
    );
    assert.match(warnings[1]?.message ?? '', /elevated error rate: 30 of .* 60 requests \(50%\)/);
    assert.equal(warnings[1]?.percent, undefined);
  });

  test('a plan without a monthly quota has no quota warnings, but still the error-rate notice', () => {
    assert.deepEqual(usageWarnings({ ...base, used: 10 ** 9, limit: null }), []);
    const [w] = usageWarnings({ ...base, used: 0, limit: null, hourRequests: 50, hourErrors: 50 });
    assert.equal(w?.level, 'warning');
  });
});
