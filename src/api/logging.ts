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

/** The logger `serve` uses; tests pass a destination to read what would have been written. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
