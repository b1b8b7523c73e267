// A whole portal session (sign-up, failures, keys, sign-out, a crash) logs no password, session token, CSRF token or key secret.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/api/logging.js';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import type { TestService } from '../helpers/service.js';
import { PortalClient } from './portal-client.js';

const PASSWORD = 'log-test password 0123456789';
const WRONG = 'log-test wrong password 9876543210';

describe('portal logs', () => {
  let dataDir: string;
  let service: Service;
  const lines: string[] = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-logs-'));
    const config = loadConfig({ DATA_DIR: dataDir, FEED: 'none', ADMIN_KEY: 'admin-portal-logs', LOG_LEVEL: 'trace' });
    service = await createService(config, {
      logger: createLogger('trace', { write: (l: string) => void lines.push(l) }),
    });
  });
  after(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Just what PortalClient needs of a test service: inject without a key. */
  function client(): PortalClient {
    const svc = {
      async inject(method: string, url: string, o: { headers?: Record<string, string>; body?: unknown } = {}) {
        const res = await service.app.inject({
          method: method as 'GET',
          url,
          headers: o.headers ?? {},
          ...(typeof o.body === 'string' ? { payload: o.body } : {}),
        });
        return { status: res.statusCode, headers: res.headers, body: undefined, text: res.body, raw: res.rawPayload };
      },
    } as unknown as TestService;
    return new PortalClient(svc);
  }

  test('no secret of the portal reaches the logs', async () => {
    const ann = client();
    assert.equal((await ann.signUp('ann@example.com', PASSWORD)).status, 303);
    const session = ann.jar.get('sds_session') ?? '';
    const forms = ann.jar.get('sds_csrf') ?? '';
    await ann.get('/portal/keys');
    const csrf = ann.csrf ?? '';
    const { secret, id } = await ann.createKey('logged key');
    await service.app.inject({ method: 'GET', url: '/v1/sports', headers: { 'x-api-key': secret } });
    await ann.post(`/portal/keys/${id}/revoke`, { csrf: 'forged-token-value-000000000000000000000000' });
    assert.equal((await client().signIn('ann@example.com', WRONG)).status, 401);

    // A crash inside a signed-in page is logged with its details.
    const store = service.store as { listApiKeysOfAccount: (id: string) => Promise<unknown> };
    const real = store.listApiKeysOfAccount;
    store.listApiKeysOfAccount = () => Promise.reject(new Error('store exploded'));
    try {
      assert.equal((await ann.get('/portal/keys')).status, 500);
    } finally {
      store.listApiKeysOfAccount = real;
    }
    assert.equal((await ann.post('/portal/sign-out')).status, 303);

    const output = lines.join('');
    assert.match(output, /store exploded/, 'the log was captured');
    const secrets = { PASSWORD, WRONG, session, forms, csrf, secret };
    for (const [what, value] of Object.entries(secrets)) {
      assert.ok(value.length > 10, what);
      assert.ok(!output.includes(value), `the log contains the ${what}`);
    }
  });
});
