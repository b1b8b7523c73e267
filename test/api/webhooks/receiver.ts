// A webhook receiver on loopback for tests, and a verifier written from the Standard Webhooks specification (not the project's signer).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** The request's path (two subscriptions on one receiver). */
  path: string;
  /** The status the receiver answered. */
  answered: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** What to answer the next request (default 200). */
  answer: (req: { headers: IncomingHttpHeaders; body: string; n: number }) => {
    status: number;
    headers?: Record<string, string>;
    /** Answer only after this long (a slow receiver). */
    delayMs?: number;
  };
  /** Told of each request as it arrives, and when its connection is done with (answered or cut). */
  onRequest?: (path: string, finished: Promise<void>) => void;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const r: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 200 }),
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    r.onRequest?.(req.url ?? '', new Promise((resolve) => res.once('close', () => resolve())));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const a = r.answer({ headers: req.headers, body, n: r.received.length });
      const reply = (): void => {
        // Recorded only once the answer is sent: a process killed meanwhile never saw it accepted.
        if (res.destroyed) return;
        r.received.push({ headers: req.headers, body, path: req.url ?? '', answered: a.status });
        res.writeHead(a.status, a.headers ?? {});
        res.end('ok');
      };
      if (a.delayMs === undefined) reply();
      else setTimeout(reply, a.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/**
 * Standard Webhooks, "Verifying webhooks": the signed content is `${webhook-id}.${webhook-timestamp}.${body}`;
 * the key is the base64 part of the secret after `whsec_`; the header holds space-separated
 * `v1,<base64 HMAC-SHA256>`; one matching signature is enough; compare in constant time.
 */
export function specVerify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sigs !== 'string') return false;
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  return sigs.split(' ').some((s) => {
    const [version, value] = s.split(',');
    if (version !== 'v1' || value === undefined) return false;
    const got = Buffer.from(value, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}

/** Waits until `done()` holds, moving the service's clock by `stepMs` between looks (retries come due). */
export async function until(
  done: () => boolean | Promise<boolean>,
  opts: { advance?: (ms: number) => void; stepMs?: number; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    opts.advance?.(opts.stepMs ?? 0);
    await new Promise((r) => setTimeout(r, 20));
  }
}
