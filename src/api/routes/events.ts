// Event resources: the list, featured, single-event detail, odds, result and the batch lookup.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest, notFound } from '../../domain/errors.js';
import { isTerminal, resultStatusOf } from '../../domain/lifecycle.js';
import type { OddsFormat } from '../../domain/types.js';
import { decisionFields } from '../../live/payloads.js';
import { baseUrlOf } from '../base-url.js';
import type { ApiContext } from '../context.js';
import { sendPayload, sendRawJson } from '../raw-json.js';
import { parseSport, toEventQuery } from '../event-filters.js';
import {
  errorsOf,
  EventIdParams,
  keyRouteErrors,
  LimitParam,
  OddsFormatParam,
  OffsetParam,
  StringEnum,
} from '../schemas/common.js';
import {
  BatchBodySchema,
  BatchResponseSchema,
  EventDetailSchema,
  EventListSchema,
  EventResultSchema,
  FeaturedEventListSchema,
  OddsPayloadSchema,
} from '../schemas/events.js';
import { OddsAtSchema } from '../schemas/history.js';
import { DateParam, InstantParam, SportParam, StartsWithinParam } from '../schemas/params.js';
import { parseInstant } from '../instants.js';
import { MarketsParam, parseMarkets } from '../market-filter.js';
import { oddsAt } from './history.js';

export const EventListQuery = Type.Object({
  sport: SportParam,
  status: Type.Optional(
    StringEnum(['live', 'prematch', 'upcoming', 'ended', 'all'] as const, {
      description: 'upcoming is prematch; default: everything not finished',
    }),
  ),
  league: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'exact slug or part of the name' })),
  country: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'exact or partial, case-insensitive' }),
  ),
  date: DateParam('one day; not with from/to'),
  from: DateParam('inclusive'),
  to: DateParam('inclusive; not before from'),
  starts_within: StartsWithinParam,
  limit: LimitParam(50, '1 to 200, default 50'),
  offset: OffsetParam,
  odds_format: OddsFormatParam,
});

const tags = ['events'];

/** The query of the reads that carry markets: the odds format and the `markets` filter. */
const MarketsReadQuery = Type.Object({ odds_format: OddsFormatParam, markets: MarketsParam });

export function eventRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { readModel } = ctx;
    const fmt = (f: OddsFormat | undefined): OddsFormat => f ?? 'decimal';
    app.get(
      '/v1/events',
      {
        config: { etag: true },
        schema: {
          operationId: 'listEvents',
          tags,
          summary: 'Paginated event list: live first, then by start time',
          querystring: EventListQuery,
          response: { 200: EventListSchema, ...keyRouteErrors },
        },
      },
      async (request, reply) => {
        const q = toEventQuery(request.query);
        const page = readModel.listPagePayload(q, fmt(request.query.odds_format), baseUrlOf(request, ctx.settings));
        return sendPayload(request, reply, page, (b) => readModel.hold(b));
      },
    );

    app.get(
      '/v1/events/featured',
      {
        config: { etag: true },
        schema: {
          operationId: 'listFeaturedEvents',
          tags,
          summary: 'The most prominent live and upcoming events (league tier, then market depth)',
          querystring: Type.Object({
            sport: SportParam,
            limit: LimitParam(10, '1 to 200, default 10'),
            odds_format: OddsFormatParam,
          }),
          response: {
            200: FeaturedEventListSchema,
            ...keyRouteErrors,
          },
        },
      },
      async (request, reply) => {
        const sport = parseSport(request.query.sport);
        const events = readModel.featured(sport, request.query.limit ?? 10);
        const base = baseUrlOf(request, ctx.settings);
        const f = fmt(request.query.odds_format);
        const items = events.map((le) => readModel.listItemJson(le, f, base));
        return sendRawJson(reply, `{"events":[${items.join(',')}],"total":${items.length}}`);
      },
    );

    app.get(
      '/v1/events/:eventId',
      {
        config: { etag: true },
        schema: {
          operationId: 'getEvent',
          tags,
          summary: 'Single event: list fields plus markets, sport_data, scoreboard, period scores',
          params: EventIdParams,
          querystring: MarketsReadQuery,
          response: { 200: EventDetailSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request, reply) => {
        const filter = parseMarkets(request.query.markets);
        const le = readModel.get(request.params.eventId);
        if (le === undefined) throw notFound(`event '${request.params.eventId}' not found`);
        const base = baseUrlOf(request, ctx.settings);
        const detail = readModel.detailPayload(le, fmt(request.query.odds_format), base, filter);
        return sendPayload(request, reply, detail, (b) => readModel.hold(b));
      },
    );

    app.get(
      '/v1/events/:eventId/odds',
      {
        // The `at` answers are tagged from their bytes; the current odds carry their payload's tag.
        config: { etag: true },
        schema: {
          operationId: 'getEventOdds',
          tags,
          summary: 'Odds only: the lightweight alternative to the event detail (or as they stood at `at`)',
          params: EventIdParams,
          querystring: Type.Object({
            odds_format: OddsFormatParam,
            markets: MarketsParam,
            at: InstantParam('the odds as they stood then (from the odds history); not in the future'),
          }),
          response: { 200: Type.Union([OddsAtSchema, OddsPayloadSchema]), ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request, reply) => {
        const filter = parseMarkets(request.query.markets);
        const le = readModel.get(request.params.eventId);
        if (le === undefined) throw notFound(`event '${request.params.eventId}' not found`);
        if (request.query.at !== undefined) {
          const at = parseInstant('at', request.query.at);
          if (at > ctx.worldNow()) throw badRequest("query parameter 'at' is in the future");
          return oddsAt(ctx, le, at, fmt(request.query.odds_format), filter);
        }
        return sendPayload(request, reply, readModel.oddsPayload(le, fmt(request.query.odds_format), filter), (b) =>
          readModel.hold(b),
        );
      },
    );

    app.get(
      '/v1/events/:eventId/result',
      {
        config: { etag: true },
        schema: {
          operationId: 'getEventResult',
          tags,
          summary: 'Score-only result, permanent once the game has finished',
          params: EventIdParams,
          response: { 200: EventResultSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const id = request.params.eventId;
        const le = readModel.get(id);
        // Finished events answer from the archive; games not over answer from the read model.
        const result = le === undefined || isTerminal(le.event.status) ? await ctx.results.result(id) : null;
        if (result !== null) {
          return {
            id,
            status: result.status,
            score: result.score,
            ended_at: new Date(result.endedAt).toISOString(),
            period_scores: result.periodScores,
            ...decisionFields(result),
          };
        }
        if (le === undefined) {
          throw notFound(
            `event '${id}' not found: results are kept for every event this service has seen; for market resolutions of past events use GET /v1/settlements`,
          );
        }
        const e = le.event;
        return {
          id,
          status: resultStatusOf(e.status),
          score: e.score,
          ended_at: e.endedAt === null ? null : new Date(e.endedAt).toISOString(),
          period_scores: e.periodScores,
          ...decisionFields(e),
        };
      },
    );

    app.post(
      '/v1/events/batch',
      {
        config: { etag: true },
        schema: {
          operationId: 'getEventsBatch',
          tags,
          summary: 'Up to 20 events with every market in full',
          querystring: MarketsReadQuery,
          body: BatchBodySchema,
          response: { 200: BatchResponseSchema, ...keyRouteErrors },
        },
      },
      async (request, reply) => {
        const filter = parseMarkets(request.query.markets);
        const ids = [...new Set(request.body.ids)];
        const batch = readModel.batch(ids, fmt(request.query.odds_format), baseUrlOf(request, ctx.settings), filter);
        return sendPayload(request, reply, batch, (b) => readModel.hold(b));
      },
    );
  };
}
