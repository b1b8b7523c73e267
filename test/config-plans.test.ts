// Plans in the configuration: defaults, PLANS merged over them, and a clear error at boot for anything invalid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration: plans', () => {
  it('by default: free (10,000 a month, 5 a second), starter, pro and unlimited', () => {
    const { plans } = loadConfig({});
    assert.deepEqual(Object.keys(plans), ['free', 'starter', 'pro', 'developer', 'unlimited']);
    assert.deepEqual(plans.free, { name: 'free', perMonth: 10_000, perSecond: 5, streams: 1, webhooks: 2 });
    assert.deepEqual(plans.unlimited, {
      name: 'unlimited',
      perMonth: null,
      perSecond: null,
      streams: null,
      webhooks: null,
    });
  });

  it('PLANS adds plans and DEMO_PLAN may name one', () => {
    const c = loadConfig({ PLANS: '{"team": {"per_month": 500000, "per_second": 50}}', DEMO_PLAN: 'team' });
    assert.deepEqual(c.plans.team, { name: 'team', perMonth: 500_000, perSecond: 50, streams: 1, webhooks: 2 });
    assert.equal(c.demoPlan, 'team');
  });

  const invalid: Array<[Record<string, string>, RegExp]> = [
    [{ PLANS: '{oops' }, /^PLANS must be a JSON object/],
    [{ PLANS: '{"team": {"per_month": -5, "per_second": 1}}' }, /^PLANS plan 'team': per_month must be a whole number/],
    [
      { DEMO_PLAN: 'gold' },
      /^DEMO_PLAN must be a configured plan \(free, starter, pro, developer, unlimited\), got 'gold'/,
    ],
  ];
  for (const [env, message] of invalid) {
    it(`refuses ${JSON.stringify(env)} with a message naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && message.test(err.message),
      );
    });
  }

  it('TRUST_PROXY: off by default; true, a hop count or addresses', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy, '10.0.0.0/8,127.0.0.1');
  });
});
