// No key, password or session secret reaches the logs: a whole session's log output is searched for every secret.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/api/logging.js';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';

const DEMO = 'sk_demo_log_test_0123456789abcdef';
const ADMIN = 'admin_log_test_fedcba9876543210';
const WRONG = 'sk_wrong_log_test_5555555555555555';
const BEARER = 'bearer_log_test_7777777777777777';
const SESSION = 'session_log_test_8888888888888888';

describe('log redaction', () => {
  let dataDir: string;
  let service: Service;
  const lines: string[] = [];
  const secrets = [DEMO, ADMIN, WRONG, BEARER, SESSION];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'log-redaction-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      FEED: 'none',
      ADMIN_KEY: ADMIN,
      DEMO_API_KEY: DEMO,
      DEMO_PLAN: 'free',
      LOG_LEVEL: 'trace',
      PLANS: JSON.stringify({ two: { per_month: 2, per_second: null } }),
    });
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    service = await createService(config, { logger });
  });
  after(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (url: string, headers: Record<string, string>, method: 'GET' | 'POST' = 'GET', payload?: string) =>
    service.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });

  test('a session of good, bad, refused and failing requests logs none of the secrets sent', async () => {
    const created = await service.keyAdmin.create({ name: 'tiny', plan: 'two', accountId: null });
    secrets.push(created.secret);
    const everything = {
      'x-api-key': DEMO,
      'x-admin-key': ADMIN,
      authorization: `Bearer ${BEARER}`,
      cookie: `portal_session=${SESSION}`,
    };
    assert.equal((await call('/v1/events', everything)).statusCode, 200);
    assert.equal((await call('/v1/events', { 'x-api-key': WRONG })).statusCode, 401);
    assert.equal((await call(`/v1/events?api_key=${WRONG}`, {})).statusCode, 401);
    assert.equal((await call('/metrics', { 'x-admin-key': DEMO })).statusCode, 401);
    assert.equal((await call('/metrics', everything)).statusCode, 200);
    for (let i = 0; i < 3; i++) await call('/v1/sports', { 'x-api-key': created.secret });
    assert.equal((await call('/v1/sports', { 'x-api-key': created.secret })).statusCode, 429);
    await call('/admin/v1/feed', { ...everything, 'content-type': 'application/x-ndjson' }, 'POST', '{bad json\n');
    await call('/v1/events/batch', { ...everything, 'content-type': 'application/json' }, 'POST', '{"ids": [');

    // A failure that reaches the error handler (a 500, logged with its details).
    const store = service.store as { findApiKeyByHash: (hash: string) => Promise<unknown> };
    const real = store.findApiKeyByHash;
    store.findApiKeyByHash = () => Promise.reject(new Error('database on fire'));
    try {
      const res = await call('/v1/events', { 'x-api-key': `${WRONG}-uncached` });
      assert.equal(res.statusCode, 500);
    } finally {
      store.findApiKeyByHash = real;
    }
    await service.usage.flush();

    const output = lines.join('');
    assert.match(output, /database on fire/, 'the log was captured');
    for (const secret of secrets)
      assert.ok(!output.includes(secret), `the log contains a secret: ${secret.slice(0, 12)}…`);
  });

  test('whatever logs a request, bare headers or a password field gets them redacted', () => {
    const captured: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void captured.push(line) });
    const headers = { 'x-api-key': DEMO, 'x-admin-key': ADMIN, authorization: `Bearer ${BEARER}`, cookie: SESSION };
    logger.info({ req: { method: 'GET', url: '/v1/events', headers } }, 'request');
    logger.info({ headers }, 'headers');
    logger.info({ password: BEARER, account: { email: 'a@b.c', password: SESSION, passwordHash: ADMIN } }, 'signup');
    logger.info({ res: { headers: { 'set-cookie': `portal_session=${SESSION}` } } }, 'response');
    const output = captured.join('');
    assert.equal(captured.length, 4);
    assert.match(output, /\[redacted\]/);
    assert.match(output, /a@b\.c/, 'other fields stay');
    for (const secret of [DEMO, ADMIN, BEARER, SESSION]) assert.ok(!output.includes(secret), secret);
  });
});
