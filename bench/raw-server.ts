// The baseline: a bare node:http server answering fixed paths with fixed bytes (run as a child by the benchmark).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** One canned answer: the exact request target (path and query), its Accept-Encoding, and the bytes to send for it. */
export interface RawRoute {
  path: string;
  file: string;
  contentType: string;
  /** The request's Accept-Encoding this answer is for ('' or absent: none sent). */
  acceptEncoding?: string;
  /** The answer's Content-Encoding (bytes compressed beforehand, as the service's cached forms are). */
  contentEncoding?: string;
}

/** Answers are found by target and Accept-Encoding: a map lookup, as cheap as a baseline should be. */
const answerKey = (path: string, acceptEncoding: string | undefined): string => `${path}\n${acceptEncoding ?? ''}`;

function main(): void {
  const manifest = process.argv[2];
  if (manifest === undefined) {
    console.error('usage: node raw-server.js <routes.json>   (a JSON array of {path, file, contentType})');
    process.exit(2);
  }
  const routes = JSON.parse(readFileSync(manifest, 'utf8')) as RawRoute[];
  const answers = new Map(
    routes.map((r) => {
      const body = readFileSync(r.file);
      // Headers are built once: the baseline is the cost of HTTP plus the bytes, nothing else.
      const headers: Record<string, string> = { 'content-type': r.contentType, 'content-length': String(body.length) };
      if (r.contentEncoding !== undefined) headers['content-encoding'] = r.contentEncoding;
      return [answerKey(r.path, r.acceptEncoding), { body, headers }];
    }),
  );

  const server = createServer((req, res) => {
    const answer = answers.get(answerKey(req.url ?? '', req.headers['accept-encoding']));
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, answer.headers).end(answer.body);
  });
  // Same keep-alive behaviour as Fastify's defaults, so connection churn does not differ between the two.
  server.keepAliveTimeout = 72_000;

  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    const addr = server.address();
    const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    if (process.send) process.send({ port });
    else console.log(`raw server listening on http://127.0.0.1:${port}`);
  });

  // Started by the benchmark over IPC: when the parent goes, so do we (even if it was killed hard).
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
  process.on('SIGINT', () => process.exit(0));
}

main();
