// The access log (ACCESS_LOG): one `info` line per answered request, written where Fastify itself logs "request completed".
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { levels } from 'pino';

/**
 * What one line holds. `path` is the URL without its query string (a client may put a secret
 * there); `key` is the API key's id, never its secret, and absent when no key was accepted.
 */
export interface AccessLine {
  method: string;
  route: string | null;
  path: string;
  status: number;
  ms: number;
  key?: string;
  ip: string;
  /** The response stream failed (e.g. the client went away mid-answer). */
  error?: string;
}

/**
 * Fastify's own per-request lines stay off (`disableRequestLogging`: two lines with whole request
 * objects); `requestCompleted`, which Fastify calls once per request after the `onResponse`
 * hooks, writes one flat line through the request's child logger (so it carries the `reqId` of
 * any error line of the same request).
 */
export class AccessLogController extends LogController {
  constructor() {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const url = request.url;
    const q = url.indexOf('?');
    const line: AccessLine = {
      method: request.method,
      route: request.routeOptions.url ?? null,
      path: q === -1 ? url : url.slice(0, q),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 1000) / 1000,
      ip: request.ip,
    };
    if (request.apiKeyId !== undefined) line.key = request.apiKeyId;
    if (error) line.error = error.message;
    request.log.info(line, 'request');
  }
}

/**
 * The access log when it is on and the logger shows `info` lines (LOG_LEVEL above info, or no
 * logger, costs nothing per request); otherwise Fastify's request lines stay off.
 */
export function logControllerFor(accessLog: boolean, logger: { level: string } | undefined): LogController {
  const level = logger === undefined ? undefined : levels.values[logger.level];
  const shown = level !== undefined && level <= levels.values.info!;
  return accessLog && shown ? new AccessLogController() : new LogController({ disableRequestLogging: true });
}
