// The service's logger: pino JSON with every secret-bearing field redacted (keys, passwords, sessions).
import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Secrets never reach the logs: request headers that carry keys or sessions wherever a request
 * (or bare headers) is logged, and password/secret fields of any logged object one level deep.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers["x-admin-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers["x-admin-key"]',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'secret',
  '*.secret',
  'token',
  '*.token',
];

/** Lines are written to stdout in blocks of this many bytes at least… */
export const LOG_BLOCK_BYTES = 4096;
/** …or after this long, whichever comes first (and at exit). */
export const LOG_FLUSH_MS = 250;

/**
 * The logger `serve` uses: stdout, written in blocks. With the access log on, one write per line
 * (pino's default: a trip through libuv's thread pool each) cost clearly more CPU per request
 * than writing in blocks (figures in bench/README.md, `access-log`). The price: a `kill -9` loses at most the
 * last quarter second of lines. Tests pass a destination to read what would have been written.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  const out =
    destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BLOCK_BYTES, periodicFlush: LOG_FLUSH_MS });
  return pino(options, out);
}
