// Request bodies in JSON: UTF-8 only, nesting bounded, then Fastify's own parser (prototype-poisoning checks kept).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../domain/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../domain/json-depth.js';

const CHARSET = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i;
const UTF8 = new Set(['utf-8', 'utf8']);

/**
 * Why: JSON between systems is UTF-8 (RFC 8259), and a body declared `charset=utf-16` used to be
 * read as UTF-8 anyway. A charset other than UTF-8 is refused, naming it, rather than guessed at.
 * Returns null when the declared charset (if any) is UTF-8.
 */
export function charsetProblem(contentType: string | undefined): ServiceError | null {
  if (contentType === undefined) return null;
  const m = CHARSET.exec(contentType);
  if (m === null) return null;
  const charset = (m[2] ?? '').toLowerCase();
  if (UTF8.has(charset)) return null;
  const shown = charset.length > 40 ? `${charset.slice(0, 40)}…` : charset;
  return new ServiceError(
    'bad_request',
    `Content-Type charset '${shown}' is not supported: send the body as UTF-8 (charset=utf-8, or no charset)`,
  );
}

/** The error for a body that nests deeper than MAX_JSON_DEPTH, or null. */
export function nestingProblem(text: string, what = 'request body'): ServiceError | null {
  return nestsDeeperThan(text, MAX_JSON_DEPTH)
    ? new ServiceError('bad_request', `${what} nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`)
    : null;
}

/** Replaces the app's `application/json` parser and drops its `text/plain` one (every scope inherits both). */
export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Fastify's default text/plain parser handed a string to routes that take JSON or NDJSON ("body
  // must be object", or every feed line "not a JSON object"): no route takes text, so a text body
  // is an unsupported Content-Type like any other (docs/api.md).
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const problem = charsetProblem(request.headers['content-type']) ?? nestingProblem(text);
      if (problem !== null) {
        done(problem);
        return;
      }
      parse(request, text, done);
    },
  );
}
