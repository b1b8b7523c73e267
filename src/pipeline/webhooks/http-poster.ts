// Posts one webhook over node:http(s): the resolved address checked at connect time, short deadlines, no redirects, a capped response read.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { addressAllowed, hostOf, type WebhookAddressPolicy } from '../../domain/webhook-address.js';
import type { WebhookAttemptOutcome } from '../../domain/webhooks.js';

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface HttpPosterOptions {
  policy: WebhookAddressPolicy;
  /** Deadline to open the connection (default 5 s). */
  connectTimeoutMs?: number;
  /** Deadline for the whole answer after the request is sent (default 10 s). */
  responseTimeoutMs?: number;
  /** At most this much of an answer's body is read (default 4 KB); the rest is dropped with the connection. */
  maxResponseBytes?: number;
}

export type WebhookPoster = (request: WebhookRequest) => Promise<WebhookAttemptOutcome>;

class BlockedAddress extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

/**
 * The resolver every connection uses: the names' addresses are checked against the policy after
 * resolution, so a name that resolved to a public address when the subscription was made and to
 * a private one now (DNS rebinding) is refused at the moment of connecting.
 */
function guardedLookup(policy: WebhookAddressPolicy, host: string): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err !== null) return callback(err);
      const allowed = addresses.filter((a) => addressAllowed(policy, host, a.address));
      if (allowed.length === 0) {
        return callback(new BlockedAddress(`${hostname} resolves to a private, loopback or reserved address`));
      }
      if (options.all === true) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  }) as LookupFunction;
}

export function httpPoster(opts: HttpPosterOptions): { post: WebhookPoster; close(): void } {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const responseTimeoutMs = opts.responseTimeoutMs ?? 10_000;
  const maxBytes = opts.maxResponseBytes ?? 4096;
  // Kept-alive connections: a receiver taking a burst is not made to handshake for each delivery.
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 4 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 4 }),
  };

  const post: WebhookPoster = (request) =>
    new Promise<WebhookAttemptOutcome>((resolve) => {
      const started = performance.now();
      const timers: { connect?: NodeJS.Timeout; response?: NodeJS.Timeout } = {};
      const done = (status: number | null, error: string | null): void => {
        clearTimeout(timers.connect);
        clearTimeout(timers.response);
        const ok = error === null && status !== null && status >= 200 && status < 300;
        resolve({ ok, status, error, latencyMs: performance.now() - started });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return done(null, 'invalid url');
      }
      const host = hostOf(url);
      // A literal address is never looked up: it is checked here.
      if (isIP(host) !== 0 && !addressAllowed(opts.policy, host, host)) {
        return done(null, `${host} is a private, loopback or reserved address`);
      }
      const secure = url.protocol === 'https:';
      const mod = secure ? https : http;
      let finished = false;
      const finish = (status: number | null, error: string | null): void => {
        if (finished) return;
        finished = true;
        done(status, error);
      };
      const req = mod.request(url, {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        lookup: guardedLookup(opts.policy, host),
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(request.body)),
          'user-agent': 'sports-data-webhooks/1',
        },
      });
      req.on('socket', (socket) => {
        if (!socket.connecting) return;
        timers.connect = setTimeout(() => req.destroy(new Error('connect timeout')), connectTimeoutMs);
        socket.once('connect', () => clearTimeout(timers.connect));
      });
      timers.response = setTimeout(
        () => req.destroy(new Error('response timeout')),
        connectTimeoutMs + responseTimeoutMs,
      );
      req.on('error', (err) => finish(null, err.message || 'request failed'));
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough read: the connection goes rather than reading a large or endless body.
          if (read > maxBytes) {
            res.destroy();
            finish(status, status >= 200 && status < 300 ? null : `HTTP ${status}`);
          }
        });
        res.on('end', () =>
          finish(
            status,
            status >= 300 && status < 400
              ? `HTTP ${status}: redirects are not followed`
              : status >= 200 && status < 300
                ? null
                : `HTTP ${status}`,
          ),
        );
        res.on('error', () => finish(status, status >= 200 && status < 300 ? null : `HTTP ${status}`));
      });
      req.end(request.body);
    });

  return {
    post,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
