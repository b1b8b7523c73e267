// The stream section's baseline: a bare node:http server replaying each client's recorded SSE bytes at the tick's rhythm.
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { SSE_HEADERS, SSE_PREAMBLE } from '../src/api/stream/sse.js';

/** One client's recording: every bucket's bytes (what the service wrote it in one bucket of time). */
function load(dir: string, id: string): Buffer[] | null {
  try {
    const bytes = readFileSync(join(dir, `${id}.bin`));
    const lengths = JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as number[];
    const out: Buffer[] = [];
    let at = 0;
    for (const n of lengths) {
      out.push(bytes.subarray(at, at + n));
      at += n;
    }
    return out;
  } catch {
    return null;
  }
}

function main(): void {
  const [dir, bucketArg] = process.argv.slice(2);
  const bucketMs = Number(bucketArg);
  if (dir === undefined || !(bucketMs > 0)) {
    console.error('usage: node stream-raw-server.js <recording dir> <bucket ms>');
    process.exit(2);
  }
  const streams = new Set<{ res: ServerResponse; buckets: Buffer[] }>();
  const server = createServer((req, res) => {
    const m = /^\/raw\/(\d+)$/.exec(req.url ?? '');
    const buckets = m === null ? null : load(dir, m[1]!);
    if (buckets === null || buckets.length === 0) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no recording');
      return;
    }
    res.writeHead(200, SSE_HEADERS);
    res.write(SSE_PREAMBLE);
    const s = { res, buckets };
    streams.add(s);
    res.on('close', () => streams.delete(s));
  });
  server.keepAliveTimeout = 72_000;

  // Every bucket period, each stream gets its next recorded bucket (cycling), as the service wrote it.
  const started = performance.now();
  let n = 0;
  const beat = (): void => {
    for (const s of streams) {
      const b = s.buckets[n % s.buckets.length]!;
      if (b.length > 0) s.res.write(b);
    }
    n++;
    setTimeout(beat, Math.max(0, started + n * bucketMs - performance.now()));
  };
  setTimeout(beat, bucketMs);

  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    process.send?.({ port: typeof addr === 'object' && addr !== null ? addr.port : 0 });
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

main();
