// Redocly's `recommended` ruleset over /openapi.json: no error, and no warning besides the ones docs/api.md accepts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { startService, type TestService } from '../helpers/service.js';

/** Warnings kept on purpose (docs/api.md, "The OpenAPI document"): rule and where. */
const ACCEPTED_WARNINGS = [
  // The probes answer 200 or 503 and nothing else: they have no 4xx to document.
  'operation-4xx-response #/paths/~1livez/get/responses',
  'operation-4xx-response #/paths/~1readyz/get/responses',
];

describe('OpenAPI lint (Redocly recommended)', () => {
  let svc: TestService;
  before(async () => {
    // A public address, as in production (a localhost server URL is a lint warning by itself).
    svc = await startService({ env: { PUBLIC_URL: 'https://sports-api.test' } });
  });
  after(() => svc.close());

  test('the document has no lint error and only the accepted warnings', async () => {
    const res = await svc.get('/openapi.json', { key: null });
    assert.equal(res.status, 200);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: res.text, absoluteRef: 'openapi.json', config });
    const describe = (p: (typeof problems)[number]) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}`;
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${describe(p)}: ${p.message}`);
    assert.deepEqual(errors, []);
    const warnings = problems.filter((p) => p.severity === 'warn').map(describe);
    assert.deepEqual(
      warnings.filter((w) => !ACCEPTED_WARNINGS.includes(w)),
      [],
    );
  });

  test('the lint catches what it should (a document without servers is an error)', async () => {
    const doc = (await svc.get<Record<string, unknown>>('/openapi.json', { key: null })).body;
    delete doc.servers;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    assert.ok(problems.some((p) => p.severity === 'error' && p.ruleId === 'no-empty-servers'));
  });
});
