// POST /admin/v1/feed: the operator's feed ingress (NDJSON, or JSON messages), guarded by ADMIN_KEY.
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ServiceError, type ErrorCode } from '../../domain/errors.js';
import { BodyReader } from '../body-reader.js';
import { charsetProblem } from '../json-body.js';
import type { FeedReport, FeedTiming } from '../../pipeline/ingress.js';
import type { ApiContext } from '../context.js';
import { FeedRelay, STREAM_POSITION_HEADER } from '../feed-relay.js';
import { errorsOf } from '../schemas/common.js';
import { FeedReportSchema } from '../schemas/discovery.js';

/** The largest JSON (not NDJSON) feed body: 4 MiB. */
export const JSON_FEED_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/** The leader's error answer, as this node's own (same code, message and component). */
function relayedError(body: string): ServiceError {
  try {
    const e = JSON.parse(body) as { error: ErrorCode; message: string; component?: string };
    return new ServiceError(e.error, e.message, e.component !== undefined ? { component: e.component } : {});
  } catch {
    return new ServiceError('server_error', 'the pipeline node answered something that is not JSON');
  }
}

/**
 * A body of which nothing could be applied, every line refused for a transient reason (the store
 * cannot commit): answered 503 like any request the service cannot serve for now, so that any
 * producer (a script that only checks the status, a proxy) sends the whole body again later.
 * Whenever something was applied, or a line is wrong in itself, the answer is the 200 report.
 */
export function unavailableBody(report: FeedReport): ServiceError | null {
  const first = report.errors[0];
  if (report.accepted > 0 || first === undefined || !report.errors.every((e) => e.retryable === true)) return null;
  return new ServiceError(
    'service_unavailable',
    `nothing was applied: ${first.message}; send the whole body again later`,
    { component: first.component ?? 'datastore', retryAfter: 1 },
  );
}

export function adminFeedRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    let relay: FeedRelay | undefined;
    // The raw bytes: the pipeline scans odds lines straight into typed arrays (packed-body.ts),
    // read into memory kept from body to body (body-reader.ts) and handed back once answered.
    const bodies = new BodyReader(ctx.settings.feedBodyLimitBytes);
    app.addContentTypeParser(
      ['application/x-ndjson', 'application/ndjson', 'application/jsonl'],
      async (request: FastifyRequest, payload: IncomingMessage) => {
        const charset = charsetProblem(request.headers['content-type']);
        if (charset !== null) {
          payload.resume(); // drained, so the connection can answer
          throw charset;
        }
        return bodies.read(payload, request.headers['content-length']);
      },
    );
    app.addHook('onResponse', async (request) => {
      bodies.give(request.body);
    });

    app.post(
      '/admin/v1/feed',
      {
        config: { access: 'admin' },
        // NDJSON bodies are read by `bodies` up to FEED_BODY_LIMIT_BYTES; a JSON body is parsed whole
        // in one go, so it is kept small (docs/feed.md): bulk feeds are NDJSON.
        bodyLimit: Math.min(ctx.settings.feedBodyLimitBytes, JSON_FEED_BODY_LIMIT_BYTES),
        schema: {
          operationId: 'postFeed',
          tags: ['admin'],
          summary:
            'Feed ingress: NDJSON messages (docs/contract/feed.md), header X-Admin-Key; 404 while ADMIN_KEY is unset',
          response: { 200: FeedReportSchema, ...errorsOf(400, 401, 503) },
        },
      },
      async (request, reply) => {
        const body: unknown = request.body;
        const role = ctx.feedRole;
        if (role?.kind === 'relay') {
          // An API node: the leader applies it, and this node answers once it has applied it too.
          relay ??= new FeedRelay(role.pipelineUrls, ctx.settings.adminKey ?? '');
          const answer = Buffer.isBuffer(body)
            ? await relay.send(body, request.headers['content-type'] ?? 'application/x-ndjson')
            : await relay.send(JSON.stringify(body ?? []), 'application/json');
          if (answer.status !== 200) throw relayedError(answer.body);
          if (answer.position !== null) await role.waitFor(answer.position, 5000);
          return JSON.parse(answer.body) as FeedReport;
        }
        if (role?.kind === 'candidate') {
          if (!role.leading()) {
            throw new ServiceError(
              'service_unavailable',
              'this pipeline node is a standby (another node leads and takes the feed); send it to the next pipeline node',
              { component: 'pipeline' },
            );
          }
        }
        // Until here: the body's arrival, hooks and the wait for this event loop.
        const receivedMs = reply.elapsedTime;
        const timing: FeedTiming = { parseMs: 0, applyMs: 0 };
        const report = Buffer.isBuffer(body)
          ? await ctx.ingress.applyNdjson(body, timing)
          : // A JSON body: one message or an array of them, numbered like lines.
            await ctx.ingress.applyJson(body === undefined ? [] : Array.isArray(body) ? body : [body]);
        if (role?.kind === 'candidate') void reply.header(STREAM_POSITION_HEADER, role.position());
        request.log.debug(
          { bytes: Buffer.isBuffer(body) ? body.length : undefined, accepted: report.accepted, receivedMs, ...timing },
          'feed body applied',
        );
        const unavailable = unavailableBody(report);
        if (unavailable !== null) throw unavailable;
        return report;
      },
    );
  };
}
