// GET /v1/live: live events only, with the events-list envelope and filters.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { baseUrlOf } from '../base-url.js';
import type { ApiContext } from '../context.js';
import { sendPayload } from '../raw-json.js';
import { toEventQuery } from '../event-filters.js';
import { keyRouteErrors, LimitParam, OddsFormatParam, OffsetParam } from '../schemas/common.js';
import { EventListSchema } from '../schemas/events.js';
import { SportParam } from '../schemas/params.js';

export function liveRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/live',
      {
        config: { etag: true },
        schema: {
          operationId: 'listLiveEvents',
          tags: ['events'],
          summary: 'Live events only',
          querystring: Type.Object({
            sport: SportParam,
            league: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            country: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            limit: LimitParam(50, '1 to 200, default 50'),
            offset: OffsetParam,
            odds_format: OddsFormatParam,
          }),
          response: { 200: EventListSchema, ...keyRouteErrors },
        },
      },
      async (request, reply) => {
        const q = toEventQuery(request.query, 'live');
        const page = ctx.readModel.listPagePayload(
          q,
          request.query.odds_format ?? 'decimal',
          baseUrlOf(request, ctx.settings),
        );
        return sendPayload(request, reply, page, (b) => ctx.readModel.hold(b));
      },
    );
  };
}
