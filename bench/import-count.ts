// Preload of the import-time bench's counted run (`node --import dist/bench/import-count.js <cli> import-serve`): every
// module the main thread loads goes to IMPORT_COUNT_FILE (a load hook: format and URL), and at exit how many CommonJS
// modules require's cache holds (CommonJS required by CommonJS passes no ESM hook on Node 20).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.IMPORT_COUNT_FILE;
if (file !== undefined && file !== '') {
  register('./import-count-hooks.js', import.meta.url, { data: { file } });
  process.on('exit', () => {
    appendFileSync(file, `commonjs-loaded ${Object.keys(createRequire(import.meta.url).cache).length}\n`);
  });
}
