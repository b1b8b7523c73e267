// The rooms of DESIGN.md as a lint rule: an import that points up the table fails ESLint (boundaries/dependencies).
import { strict as assert } from 'node:assert';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The repository (this file runs as dist/test/lint/rooms.test.js). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RULE = 'boundaries/dependencies';

// Only the rooms rule: the rest of the lint runs in `npm run lint`.
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === RULE });

/** The rooms rule's messages for `code` in a file at `filePath` (it need not exist). */
async function roomErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${filePath}` });
  assert.ok(result !== undefined);
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** A type-only import: types point up as much as values do. */
const importOf = (source: string): string =>
  `import type * as imported from '${source}';\nexport type Imported = typeof imported;\n`;

const REFUSED: Array<[string, string]> = [
  ['src/live/fixture.ts', '../api/context.js'],
  ['src/live/fixture.ts', '../pipeline/pipeline.js'],
  ['src/domain/fixture.ts', '../live/read-model.js'],
  ['src/domain/grading/fixture.ts', '../../feed/messages.js'],
  ['src/feed/fixture.ts', '../pipeline/outcome.js'],
  ['src/store/fixture.ts', '../live/read-model.js'],
  ['src/pipeline/fixture.ts', '../api/errors.js'],
  ['src/pipeline/fixture.ts', '../config.js'],
  ['src/api/fixture.ts', '../config.js'],
  ['src/api/routes/fixture.ts', '../../pipeline/pipeline.js'],
  ['src/api/fixture.ts', '../pipeline/settlement/engine.js'],
  ['src/api/fixture.ts', '../portal/plugin.js'],
  ['src/api/fixture.ts', '../feed/messages.js'],
  ['src/portal/fixture.ts', '../config.js'],
  ['src/portal/fixture.ts', '../api/app.js'],
  ['src/portal/fixture.ts', '../api/context.js'],
  ['src/portal/fixture.ts', '../live/read-model.js'],
  // A relative import that resolves to nothing is refused, not skipped.
  ['src/live/fixture.ts', '../api/no-such-file.js'],
];

const ALLOWED: Array<[string, string]> = [
  ['src/domain/grading/fixture.ts', '../types.js'],
  ['src/feed/simulator/fixture.ts', '../../domain/market-key.js'],
  ['src/live/fixture.ts', '../domain/odds.js'],
  ['src/store/fixture.ts', '../domain/types.js'],
  ['src/pipeline/fixture.ts', '../live/read-model.js'],
  ['src/pipeline/fixture.ts', '../store/store.js'],
  ['src/pipeline/fixture.ts', '../feed/messages.js'],
  ['src/api/fixture.ts', '../live/read-model.js'],
  ['src/api/fixture.ts', '../store/store.js'],
  ['src/api/routes/fixture.ts', '../../pipeline/ingress.js'],
  ['src/portal/fixture.ts', '../api/key-admin.js'],
  ['src/portal/fixture.ts', '../store/store.js'],
  ['src/fixture.ts', './api/app.js'],
  ['src/fixture.ts', './pipeline/pipeline.js'],
];

describe('rooms (DESIGN.md): imports point down the table only', () => {
  for (const [file, source] of REFUSED) {
    it(`${file} may not import ${source}`, async () => {
      const errors = await roomErrors(file, importOf(source));
      assert.equal(errors.length, 1, `expected one rooms error, got ${JSON.stringify(errors)}`);
      assert.ok(errors[0]?.includes(`room may not import '${source}'`), errors[0]);
    });
  }

  for (const [file, source] of ALLOWED) {
    it(`${file} may import ${source}`, async () => {
      assert.deepEqual(await roomErrors(file, importOf(source)), []);
    });
  }

  it('a re-export or a dynamic import is an import too', async () => {
    const reexport = await roomErrors('src/live/fixture.ts', "export { API_VERSION } from '../api/context.js';\n");
    assert.equal(reexport.length, 1);
    const dynamic = await roomErrors('src/store/fixture.ts', "export const app = () => import('../api/app.js');\n");
    assert.equal(dynamic.length, 1);
  });

  it('every file of src/ keeps to its room', async () => {
    const results = await eslint.lintFiles(['src/**/*.ts']);
    assert.ok(results.length > 100, `linted only ${results.length} files`);
    const upward = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${r.filePath}:${m.line}: ${m.message}`),
    );
    assert.deepEqual(upward, []);
  });
});
