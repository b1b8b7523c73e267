// GET /: a browser lands on the portal; curl and API clients get an index of links; nothing there needs a key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';

describe('GET /', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.close());

  test("a browser's request is sent to the portal", async () => {
    const res = await svc.get('/', {
      key: null,
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/portal');
  });

  for (const accept of ['*/*', 'application/json', undefined]) {
    test(`a client accepting ${accept ?? 'anything (no Accept)'} gets JSON links that answer`, async () => {
      const res = await svc.get<{ links: Record<string, string> }>('/', {
        key: null,
        headers: accept === undefined ? {} : { accept },
      });
      assert.equal(res.status, 200, res.text);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.deepEqual(Object.keys(res.body.links).sort(), ['docs', 'events', 'health', 'openapi', 'portal', 'status']);
      // Followed once (/v1/health and /v1/status allow 2 requests a second per caller).
      if (accept !== '*/*') return;
      for (const [name, href] of Object.entries(res.body.links)) {
        const linked = await svc.get(href, { headers: { accept: 'text/html' } });
        assert.ok(linked.status === 200 || linked.status === 302, `${name} ${href}: ${linked.status}`);
      }
    });
  }

  test('it is not in the API document', async () => {
    const doc = await svc.get<{ paths: Record<string, unknown> }>('/openapi.json', { key: null });
    assert.equal(doc.status, 200);
    assert.equal(doc.body.paths['/'], undefined);
  });
});
