// The SDK's generated types are current: regenerating them from the service's OpenAPI document changes nothing.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { GENERATED_PATH, generateOpenApiTypes } from '../../sdk/codegen/openapi-types.js';

test('sdk/src/generated/openapi.ts matches the service (else run `npm run generate:sdk`)', async () => {
  const committed = await readFile(GENERATED_PATH, 'utf8');
  const fresh = await generateOpenApiTypes();
  // A diff of 150 KB is unreadable: name the first line that differs.
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  assert.ok(
    committed === fresh,
    `stale at line ${i + 1}: committed ${JSON.stringify(a[i])}, generated ${JSON.stringify(b[i])}; run npm run generate:sdk`,
  );
  assert.match(fresh, /export interface paths/);
});
