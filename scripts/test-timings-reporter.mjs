// Node test reporter: each test file's wall time (its start to its last event, in seconds), written as JSON to TEST_TIMINGS_OUT.
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default async function* timings(source) {
  const started = new Map();
  const last = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (typeof file !== 'string') continue;
    const now = performance.now();
    if (!started.has(file)) started.set(file, now);
    last.set(file, now);
  }
  const out = process.env.TEST_TIMINGS_OUT;
  if (out) {
    const rows = [...started].map(([file, t0]) => [relative(process.cwd(), file), Math.round((last.get(file) - t0) / 100) / 10]);
    rows.sort((a, b) => b[1] - a[1]);
    writeFileSync(out, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
  }
  yield '';
}
