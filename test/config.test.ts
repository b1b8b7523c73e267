// Configuration: defaults of decisions.md, validation with messages naming the variable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults are those of decisions.md', () => {
    const c = loadConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, './data');
    assert.equal(c.databaseUrl, null);
    assert.equal(c.databasePoolSize, 10);
    assert.equal(c.redisUrl, null);
    assert.equal(c.role, 'all');
    assert.equal(c.feed, 'simulator');
    assert.equal(c.simSpeed, 1);
    assert.equal(c.adminKey, null);
    assert.equal(c.demoApiKey, null);
    assert.equal(c.demoPlan, 'developer');
    assert.equal(c.staleLockSeconds, 30);
  });

  it('STREAM_FRAME_WORKER is off unless turned on, and refuses anything else naming itself', () => {
    assert.equal(loadConfig({}).streamFrameWorker, false);
    assert.equal(loadConfig({ STREAM_FRAME_WORKER: 'on' }).streamFrameWorker, true);
    assert.equal(loadConfig({ STREAM_FRAME_WORKER: 'false' }).streamFrameWorker, false);
    assert.throws(
      () => loadConfig({ STREAM_FRAME_WORKER: 'yes please' }),
      (e: Error) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /STREAM_FRAME_WORKER/);
        return true;
      },
    );
  });

  it('STALE_LOCK_SECONDS takes 0 (off) and fractions', () => {
    assert.equal(loadConfig({ STALE_LOCK_SECONDS: '0' }).staleLockSeconds, 0);
    assert.equal(loadConfig({ STALE_LOCK_SECONDS: '2.5' }).staleLockSeconds, 2.5);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/sports',
      FEED: 'none',
      ROLE: 'api',
      SIM_SEED: '7',
      SIM_SPEED: '60',
      ADMIN_KEY: 'adm',
      DEMO_API_KEY: 'demo',
      DEMO_PLAN: 'unlimited',
      PUBLIC_URL: 'https://api.example.com/',
    });
    assert.deepEqual(
      [
        c.port,
        c.host,
        c.dataDir,
        c.feed,
        c.role,
        c.simSeed,
        c.simSpeed,
        c.adminKey,
        c.demoApiKey,
        c.demoPlan,
        c.publicUrl,
      ],
      [8080, '0.0.0.0', '/var/lib/sports', 'none', 'api', 7, 60, 'adm', 'demo', 'unlimited', 'https://api.example.com'],
    );
  });

  for (const [name, value] of [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['FEED', 'kafka'],
    ['ROLE', 'worker'],
    ['SIM_SPEED', '0'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'many'],
    ['STALE_LOCK_SECONDS', '-1'],
    ['STALE_LOCK_SECONDS', 'soon'],
  ] as const) {
    it(`rejects ${name}=${value} with a message naming ${name}`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: unknown) => err instanceof ConfigError && err.message.includes(name),
      );
    });
  }
});
