// Section `codings`: what each brotli quality and gzip level costs and saves on the odds and list payloads, and what hashing one costs.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../src/live/compression.js';
import { apiReadSetup } from './api-read.js';
import { check, type Section, type SectionResult } from './section.js';

/** Median milliseconds of `fn` over repeated calls for about `budgetMs` (after one warm-up call). */
function medianMs(fn: () => unknown, budgetMs = 400): number {
  fn();
  const times: number[] = [];
  const end = performance.now() + budgetMs;
  while (times.length < 5 || (performance.now() < end && times.length < 500)) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const brotli = (body: Buffer, quality: number): Buffer =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });

interface Level {
  coding: 'br' | 'gzip';
  level: number;
  ms: number;
  ratio: number;
}

function levels(body: Buffer): Level[] {
  const out: Level[] = [];
  for (const level of [1, 2, 3, 4, 5, 6]) {
    let size = 0;
    const ms = medianMs(() => (size = brotli(body, level).length));
    out.push({ coding: 'br', level, ms, ratio: size / body.length });
  }
  for (const level of [1, 3, 4, 5, 6, 9]) {
    let size = 0;
    const ms = medianMs(() => (size = gzipSync(body, { level }).length));
    out.push({ coding: 'gzip', level, ms, ratio: size / body.length });
  }
  return out;
}

export const codingsSection: Section = {
  name: 'codings',
  description:
    'brotli qualities 1-6 and gzip levels 1-9 on the odds and list payloads (time, size), and SHA-1 of each, in process',
  async run(ctx): Promise<SectionResult> {
    const setup = await apiReadSetup(ctx);
    const notes: string[] = [];
    const data: Record<string, unknown> = {};
    let chosenBr = 1;
    for (const [name, body] of [
      ['odds', setup.odds.identity.body],
      ['list', setup.list.identity.body],
    ] as const) {
      const table = levels(body);
      data[name] = { bytes: body.length, levels: table };
      const line = (coding: 'br' | 'gzip', chosen: number): string =>
        table
          .filter((l) => l.coding === coding)
          .map((l) => `${l.level}${l.level === chosen ? '*' : ''}: ${l.ms.toFixed(2)} ms 1/${(1 / l.ratio).toFixed(1)}`)
          .join(', ');
      notes.push(`codings ${name} (${body.length.toLocaleString('en-US')} bytes) br ${line('br', BROTLI_QUALITY)}`);
      notes.push(`codings ${name} gzip ${line('gzip', GZIP_LEVEL)}`);
      const sha1 = medianMs(() => createHash('sha1').update(body).digest());
      notes.push(
        `codings ${name}: SHA-1 of the body ${(sha1 * 1000).toFixed(0)} µs (what a hashed ETag costs per request)`,
      );
      data[`${name}Sha1Ms`] = sha1;
      if (name === 'odds') chosenBr = table.find((l) => l.coding === 'br' && l.level === BROTLI_QUALITY)!.ratio;
    }
    notes.push(`codings: * marks the levels the service uses (src/live/compression.ts)`);
    ctx.log(notes.join('\n'));
    return {
      rows: [],
      checks: [check('codings', `codings: odds br q${BROTLI_QUALITY} bytes/identity`, chosenBr, '<=', 1 / 8)],
      notes,
      data,
    };
  },
};
