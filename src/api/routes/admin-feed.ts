// POST /admin/v1/feed: the operator's feed ingress (NDJSON, or JSON messages), guarded by ADMIN_KEY.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiContext } from '../context.js';
import { errorResponses } from '../schemas/common.js';
import { FeedReportSchema } from '../schemas/discovery.js';

export function adminFeedRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The raw bytes: the pipeline parses large bodies on a worker thread, not on this event loop.
    app.addContentTypeParser(
      ['application/x-ndjson', 'application/ndjson', 'application/jsonl'],
      { parseAs: 'buffer', bodyLimit: ctx.config.feedBodyLimitBytes },
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
        if (Buffer.isBuffer(body)) return ctx.pipeline.applyNdjson(body);
        // A JSON body: one message or an array of them, numbered like lines.
        return ctx.pipeline.applyJson(body === undefined ? [] : Array.isArray(body) ? body : [body]);
      },
    );
  };
}
