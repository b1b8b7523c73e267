// The load hook of the import-time bench's counted run (bench/import-count.ts registers it): one line per module loaded.
import { appendFileSync } from 'node:fs';
import type { InitializeHook, LoadHook } from 'node:module';

let file = '';

export const initialize: InitializeHook<{ file: string }> = (data) => {
  file = data.file;
};

export const load: LoadHook = async (url, context, nextLoad) => {
  const result = await nextLoad(url, context);
  appendFileSync(file, `${result.format ?? 'unknown'} ${url}\n`);
  return result;
};
