// POST /admin/v1/feed: the operator's feed ingress (NDJSON), guarded by ADMIN_KEY.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseNdjson, parseNdjsonLine, type NdjsonLine } from '../../feed/ndjson.js';
import type { ApiContext } from '../context.js';
import { errorResponses } from '../schemas/common.js';
import { FeedReportSchema } from '../schemas/discovery.js';

/** A JSON body (one message or an array of them) read as numbered lines, like NDJSON. */
function linesOfJson(body: unknown): NdjsonLine[] {
  const values = Array.isArray(body) ? body : [body];
  const out: NdjsonLine[] = [];
  values.forEach((v, i) => {
    const parsed = parseNdjsonLine(JSON.stringify(v) ?? 'null', i + 1);
    if (parsed !== null) out.push(parsed);
  });
  return out;
}

export function adminFeedRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.addContentTypeParser(
      ['application/x-ndjson', 'application/ndjson', 'application/jsonl'],
      { parseAs: 'string', bodyLimit: ctx.config.feedBodyLimitBytes },
      (_request, body, done) => done(null, body),
    );

    app.post(
      '/admin/v1/feed',
      {
        config: { access: 'admin' },
        bodyLimit: ctx.config.feedBodyLimitBytes,
        schema: {
          tags: ['operator'],
          summary: 'Feed ingress: NDJSON messages (spec/feed.md), header X-Admin-Key',
          response: { 200: FeedReportSchema, ...errorResponses },
        },
      },
      async (request) => {
        const body: unknown = request.body;
        const lines = typeof body === 'string' ? parseNdjson(body) : body === undefined ? [] : linesOfJson(body);
        return ctx.pipeline.applyLines(lines);
      },
    );
  };
}
