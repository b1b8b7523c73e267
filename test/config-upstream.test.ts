// Configuration of FEED=the-odds-api: the UPSTREAM_* variables, their defaults, and errors that name the variable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

const NEEDED = { FEED: 'the-odds-api', UPSTREAM_API_KEY: 'k', UPSTREAM_SPORTS: 'soccer_epl' };

describe('configuration: FEED=the-odds-api', () => {
  it('the simulator stays the default feed, and UPSTREAM_* have documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.feed, 'simulator');
    assert.deepEqual(c.upstream, {
      url: 'https://api.the-odds-api.com',
      apiKey: null,
      sports: [],
      regions: ['uk'],
      bookmaker: 'consensus',
      pollSeconds: 60,
      monthlyBudget: 20000,
    });
  });

  it('reads every UPSTREAM_* variable', () => {
    const c = loadConfig({
      ...NEEDED,
      UPSTREAM_URL: 'http://127.0.0.1:9999/',
      UPSTREAM_SPORTS: ' soccer_epl, basketball_nba ',
      UPSTREAM_REGIONS: 'uk,eu',
      UPSTREAM_BOOKMAKER: 'williamhill',
      UPSTREAM_POLL_SECONDS: '30',
      UPSTREAM_MONTHLY_BUDGET: '500',
    });
    assert.equal(c.feed, 'the-odds-api');
    assert.deepEqual(c.upstream, {
      url: 'http://127.0.0.1:9999',
      apiKey: 'k',
      sports: ['soccer_epl', 'basketball_nba'],
      regions: ['uk', 'eu'],
      bookmaker: 'williamhill',
      pollSeconds: 30,
      monthlyBudget: 500,
    });
  });

  it('FEED=the-odds-api without a key or sports is refused with a clear message', () => {
    assert.throws(() => loadConfig({ FEED: 'the-odds-api', UPSTREAM_SPORTS: 'soccer_epl' }), /UPSTREAM_API_KEY/);
    assert.throws(() => loadConfig({ FEED: 'the-odds-api', UPSTREAM_API_KEY: 'k' }), /UPSTREAM_SPORTS/);
    // Without FEED=the-odds-api they are not needed.
    assert.doesNotThrow(() => loadConfig({ FEED: 'none' }));
  });

  for (const [name, value, pattern] of [
    ['UPSTREAM_URL', 'ftp://x', /UPSTREAM_URL must be an http\(s\) URL/],
    ['UPSTREAM_SPORTS', 'soccer epl', /UPSTREAM_SPORTS must be the provider's sport keys/],
    ['UPSTREAM_REGIONS', 'uk,,europe', /UPSTREAM_REGIONS must be region codes/],
    ['UPSTREAM_BOOKMAKER', 'William Hill', /UPSTREAM_BOOKMAKER must be a bookmaker key/],
    ['UPSTREAM_POLL_SECONDS', '0', /UPSTREAM_POLL_SECONDS must be a number from 1 to 86400, got '0'/],
    ['UPSTREAM_MONTHLY_BUDGET', '1.5', /UPSTREAM_MONTHLY_BUDGET must be an integer/],
  ] as const) {
    it(`${name}=${value} is refused naming the variable`, () => {
      assert.throws(
        () => loadConfig({ ...NEEDED, [name]: value }),
        (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
      );
    });
  }
});
