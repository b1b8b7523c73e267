// The one mapping from error codes to HTTP statuses, and the handlers that turn every failure into {error, message}.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, type ErrorCode } from '../domain/errors.js';
import { toStoreError } from '../store/store-health.js';
import { listProblem } from './schemas/params.js';

/** decisions.md: the HTTP status of each error code. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  rate_limited: 429,
  server_error: 500,
  service_unavailable: 503,
};

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  component?: string;
}

export function sendError(reply: FastifyReply, err: ServiceError): FastifyReply {
  const body: ErrorBody = { error: err.code, message: err.message };
  if (err.component !== undefined) body.component = err.component;
  // A failing component is transient by definition: a client is told to retry in a second unless told otherwise.
  const retryAfter = err.retryAfter ?? (err.code === 'service_unavailable' ? 1 : undefined);
  if (retryAfter !== undefined) void reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfter))));
  return reply.code(HTTP_STATUS[err.code]).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

interface SchemaErrorLike {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  /** With Ajv's `verbose` (query, path and headers): the refused value and the schema refusing it. */
  data?: unknown;
  parentSchema?: { description?: unknown };
}

/** A value as shown in a message: quoted, and cut short. */
const shown = (v: string): string => `'${v.length > 80 ? `${v.slice(0, 80)}…` : v}'`;

const WHERE: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'body field',
  headers: 'header',
};

/** Names the offending parameter: "query parameter 'limit' must be <= 200". */
export function describeSchemaErrors(errors: readonly SchemaErrorLike[], context: string): string {
  const first = errors[0];
  if (first === undefined) return 'invalid request';
  const where = WHERE[context] ?? context;
  const params = first.params ?? {};
  let path = (first.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'required' && typeof params.missingProperty === 'string') {
    const field = path === '' ? params.missingProperty : `${path}.${params.missingProperty}`;
    return `missing required ${where} '${field}'`;
  }
  if (first.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const field = path === '' ? params.additionalProperty : `${path}.${params.additionalProperty}`;
    return `unknown ${where} '${field}'`;
  }
  let detail = first.message ?? 'is invalid';
  if (first.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    detail = `must be one of: ${params.allowedValues.join(', ')}`;
  }
  // A pattern or format is said in the parameter's own words (its description), with the value.
  const description = first.parentSchema?.description;
  if ((first.keyword === 'pattern' || first.keyword === 'format') && typeof description === 'string') {
    const list =
      first.keyword === 'pattern' && typeof params.pattern === 'string' && typeof first.data === 'string'
        ? listProblem(params.pattern, first.data)
        : null;
    detail =
      list !== null
        ? `${list} (${description})`
        : `is not valid${typeof first.data === 'string' ? ` (got ${shown(first.data)})` : ''}: ${description}`;
  }
  if (path === '') return context === 'body' ? `request body ${detail}` : `${where} ${detail}`;
  // Array items inside a field (ids.3) are reported against the field.
  path = path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  return `${where} '${path}' ${detail}`;
}

/** Fastify's own client-error codes and what we answer for them (never their raw message with internals). */
function fromFastifyError(err: FastifyError): ServiceError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('bad_request', 'request body is too large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('bad_request', 'request body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('bad_request', "request body is empty but Content-Type is 'application/json'");
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('bad_request', 'unsupported Content-Type for this endpoint');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError('bad_request', 'Content-Length does not match the body');
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ServiceError('bad_request', 'invalid Content-Type header');
    case 'FST_ERR_BAD_URL':
      return new ServiceError('bad_request', 'malformed URL');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ServiceError('bad_request', 'a path parameter of this URL is too long');
    default:
      break;
  }
  if (err instanceof SyntaxError) return new ServiceError('bad_request', 'request body is not valid JSON');
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new ServiceError(status === 404 ? 'not_found' : 'bad_request', err.message || 'bad request');
  }
  return null;
}

/**
 * Errors the router raises before any route or hook runs (an undecodable URL, an overlong path
 * parameter). Fastify answers them with its own body unless the `frameworkErrors` server option
 * is set, so app.ts passes this function there to keep the `{error, message}` contract.
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void sendError(reply, fromFastifyError(err) ?? new ServiceError('bad_request', 'malformed request'));
}

/** What a request that Node's HTTP parser refused was, in words a client can act on. */
function clientErrorMessage(code: string | undefined): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'request headers are too large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'the request was not received in time';
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return 'Content-Length is malformed or contradicts the body';
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return 'the chunked body is malformed';
    default:
      return 'the request is not well-formed HTTP/1.1';
  }
}

/**
 * A request Node's HTTP parser refuses never reaches Fastify's routes; Fastify's own answer to it
 * is `{"error":"Bad Request","message":"Client Error","statusCode":400}` (and 431 or 408), outside
 * the contract. app.ts passes this as `clientErrorHandler`: the same {error, message} as any 400.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify({ error: 'bad_request', message: clientErrorMessage(err.code) });
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Turns a route pattern (`/v1/events/:eventId`) into a matcher for concrete paths. */
function patternToRegExp(url: string): RegExp {
  const escaped = url
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** Installs the error handler, the not-found handler and the route registry they need. */
export function installErrorHandling(app: FastifyInstance): void {
  const routes: Array<{ re: RegExp; methods: Set<string> }> = [];
  app.addHook('onRoute', (opts) => {
    if (opts.url === undefined || opts.url === '*') return;
    const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
    routes.push({ re: patternToRegExp(opts.url), methods: new Set(methods.map((m) => m.toUpperCase())) });
  });

  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ServiceError) return sendError(reply, err);
    if (err.validation !== undefined) {
      return sendError(
        reply,
        new ServiceError('bad_request', describeSchemaErrors(err.validation, err.validationContext ?? 'request')),
      );
    }
    const mapped = fromFastifyError(err);
    if (mapped !== null) return sendError(reply, mapped);
    // The store already answers its faults as 503 `datastore`; this catches one that reached a
    // route some other way (a raw driver error): a fault we survive is never a 500.
    const fault = toStoreError(err);
    if (fault instanceof ServiceError) return sendError(reply, fault);
    request.log.error({ err }, 'request failed');
    return sendError(reply, new ServiceError('server_error', 'internal server error'));
  });

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    const other = routes.filter((r) => r.re.test(path));
    if (other.length > 0) {
      const allowed = [...new Set(other.flatMap((r) => [...r.methods]))].filter((m) => m !== 'HEAD').sort();
      void reply.header('allow', allowed.join(', '));
      return sendError(
        reply,
        new ServiceError(
          'bad_request',
          `method ${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
        ),
      );
    }
    return sendError(reply, new ServiceError('not_found', `no endpoint ${request.method} ${path}; see /docs`));
  });
}
