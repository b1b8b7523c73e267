// Scale-out configuration: PIPELINE_URL parsing, and the roles that need PostgreSQL and Redis.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';
import { checkScaleOutConfig } from '../src/roles/scale-out.js';

describe('scale-out configuration', () => {
  it('PIPELINE_URL takes comma-separated base URLs (spaces and trailing slashes dropped)', () => {
    const c = loadConfig({ PIPELINE_URL: 'http://10.0.0.21:3000/, https://p2.internal ' });
    assert.deepEqual(c.pipelineUrls, ['http://10.0.0.21:3000', 'https://p2.internal']);
    assert.deepEqual(loadConfig({}).pipelineUrls, []);
  });

  it('PIPELINE_URL with a path or another scheme is refused, naming the value', () => {
    for (const bad of ['http://p1:3000/admin', 'ftp://p1', 'p1:3000']) {
      assert.throws(
        () => loadConfig({ PIPELINE_URL: bad }),
        (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.match(err.message, /PIPELINE_URL/);
          return true;
        },
      );
    }
  });

  it('ROLE=api and ROLE=pipeline need DATABASE_URL and REDIS_URL; ROLE=all needs neither', () => {
    assert.doesNotThrow(() => checkScaleOutConfig(loadConfig({})));
    assert.throws(() => checkScaleOutConfig(loadConfig({ ROLE: 'api' })), /ROLE=api needs DATABASE_URL and REDIS_URL/);
    assert.throws(
      () => checkScaleOutConfig(loadConfig({ ROLE: 'pipeline', DATABASE_URL: 'postgres://db/x' })),
      /ROLE=pipeline needs REDIS_URL/,
    );
    assert.doesNotThrow(() =>
      checkScaleOutConfig(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://r:6379' })),
    );
  });
});
