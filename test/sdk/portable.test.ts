// The SDK stays a package of its own that runs in browsers: no Node-only module and nothing from the service in sdk/src.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

test('sdk/src imports only its own files and eventsource-parser', async () => {
  const files = await sources('sdk/src');
  assert.ok(files.length >= 8);
  const pkg = JSON.parse(await readFile('sdk/package.json', 'utf8')) as { dependencies: Record<string, string> };
  const allowed = new Set(Object.keys(pkg.dependencies));
  for (const f of files) {
    const text = await readFile(f, 'utf8');
    for (const [, spec] of text.matchAll(/(?:from|import)\s+'([^']+)'/g)) {
      if (spec === undefined) continue;
      const ownFile = spec.startsWith('./') || (spec.startsWith('../') && !spec.includes('../../'));
      assert.ok(
        ownFile || allowed.has(spec),
        `${f} imports '${spec}': not a file of the SDK nor one of its dependencies`,
      );
    }
  }
});
