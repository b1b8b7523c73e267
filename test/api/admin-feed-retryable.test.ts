// POST /admin/v1/feed tells a remote producer what to send again: lines refused for a transient reason are `retryable`, a body refused whole is a 503.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN_KEY, fixture, result, startService, status, type TestService } from '../helpers/service.js';
import type { ErrorBody } from '../helpers/payloads.js';

interface Report {
  accepted: number;
  rejected: number;
  errors: Array<{ line: number; error: string; message: string; component?: string; retryable?: boolean }>;
}

const ndjson = (messages: object[]): string => messages.map((m) => JSON.stringify(m)).join('\n') + '\n';

describe('POST /admin/v1/feed while the store cannot commit', () => {
  let svc: TestService;
  let failing = false;
  before(async () => {
    svc = await startService();
    const store = svc.service.store;
    const saveResult = store.saveResult.bind(store);
    store.saveResult = async (r, b) => {
      if (failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return saveResult(r, b);
    };
    await svc.feed([fixture('r1'), status('r1', 'live'), fixture('r2'), status('r2', 'live')]);
  });
  after(() => svc.close());

  const post = <T>(messages: object[]) =>
    svc.inject<T>('POST', '/admin/v1/feed', {
      key: null,
      headers: { 'x-admin-key': ADMIN_KEY, 'content-type': 'application/x-ndjson' },
      body: ndjson(messages),
    });

  test('a line the store refused is retryable (and so is a later line of the same event); a wrong line is not', async () => {
    failing = true;
    const res = await post<Report>([
      status('r2', 'suspended'),
      result('r1', 2, 0),
      status('r1', 'suspended'),
      status('nope', 'live'),
    ]);
    failing = false;
    assert.equal(res.status, 200);
    assert.equal(res.body.accepted, 1);
    assert.deepEqual(
      res.body.errors.map((e) => [e.line, e.error, e.component ?? null, e.retryable ?? null]),
      [
        [2, 'service_unavailable', 'datastore', true],
        [3, 'service_unavailable', 'datastore', true],
        [4, 'bad_request', null, null],
      ],
    );
    assert.ok(!('retryable' in res.body.errors[2]!), 'a wrong line carries no retryable field');
    assert.equal((await svc.get<{ status: string }>('/v1/events/r1')).body.status, 'live', 'nothing applied for r1');

    // Sent again in order once the store works: taken.
    const again = await post<Report>([result('r1', 2, 0), status('r1', 'suspended')]);
    assert.equal(again.status, 200);
    assert.equal(again.body.accepted, 1, 'the result is taken');
    assert.equal(again.body.errors[0]?.error, 'bad_request', 'the status after it is now wrong for the lifecycle');
  });

  test('a body of which nothing could be applied, every line retryable, is a 503 with component datastore', async () => {
    failing = true;
    const res = await post<ErrorBody & { component?: string }>([result('r2', 1, 1)]);
    failing = false;
    assert.equal(res.status, 503);
    assert.equal(res.body.error, 'service_unavailable');
    assert.equal(res.body.component, 'datastore');
    assert.match(res.body.message, /send the whole body again later/);
    assert.equal(res.headers['retry-after'], '1');
    const again = await post<Report>([result('r2', 1, 1)]);
    assert.equal(again.status, 200);
    assert.equal(again.body.accepted, 1);
  });
});
