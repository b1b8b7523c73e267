// The admin feed's body is in the OpenAPI document (NDJSON and JSON), and its JSON schema takes every message the tests feed and refuses what the feed refuses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { closeObjects } from '../helpers/contract.js';
import { liveEventMessages, prematchEvent, result, startService, type TestService } from '../helpers/service.js';

interface Doc {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
}

describe('OpenAPI: POST /admin/v1/feed request body', () => {
  let svc: TestService;
  let doc: Doc;
  before(async () => {
    svc = await startService();
    doc = (await svc.inject<Doc>('GET', '/openapi.json', { key: null })).body;
  });
  after(() => svc.close());

  it('declares NDJSON (and its aliases) and JSON bodies', () => {
    const content = doc.paths['/admin/v1/feed']?.post?.requestBody?.content ?? {};
    assert.deepEqual(Object.keys(content).sort(), [
      'application/json',
      'application/jsonl',
      'application/ndjson',
      'application/x-ndjson',
    ]);
  });

  it('the JSON schema takes the messages the service applies, one or an array, and refuses others', async () => {
    const schema = doc.paths['/admin/v1/feed']?.post?.requestBody?.content['application/json']?.schema;
    const validate = new Ajv2020({ strict: false }).compile(closeObjects(schema) as object);
    const messages = [...prematchEvent('p'), ...liveEventMessages('l'), result('l', 2, 1)];
    for (const m of messages)
      assert.equal(validate(m), true, `${JSON.stringify(m)}: ${JSON.stringify(validate.errors)}`);
    assert.equal(validate(messages), true, 'an array of them');
    // The service applies them too: the document describes what it takes.
    const report = await svc.feed(messages);
    assert.equal(report.rejected, 0);
    for (const bad of [
      { type: 'nope', event_id: 'x' },
      { type: 'status', event_id: 'x' },
      'text',
      [{ type: 'fixture' }],
    ]) {
      assert.equal(validate(bad), false, JSON.stringify(bad));
    }
  });
});
