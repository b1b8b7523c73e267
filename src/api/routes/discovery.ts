// Discovery: GET /v1/leagues (active leagues), GET /v1/sports and GET /v1/scores (live scores).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ApiContext } from '../context.js';
import { parseSport } from '../event-filters.js';
import { errorsOf, keyRouteErrors, LimitParam } from '../schemas/common.js';
import { LeagueListSchema, ScoreListSchema, SportListSchema } from '../schemas/discovery.js';
import { SportParam } from '../schemas/params.js';
import { clockOf, periodOf } from '../../live/event-fields.js';
import { decisionFields } from '../../live/payloads.js';

export function discoveryRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { readModel } = ctx;

    app.get(
      '/v1/leagues',
      {
        config: { etag: true },
        schema: {
          operationId: 'listLeagues',
          tags: ['discovery'],
          summary: 'Leagues with live or upcoming events',
          response: { 200: LeagueListSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async () => {
        const leagues = readModel.leagues();
        return { leagues, total: leagues.length };
      },
    );

    app.get(
      '/v1/sports',
      {
        config: { etag: true },
        schema: {
          operationId: 'listSports',
          tags: ['discovery'],
          summary: 'Sports with live or upcoming events or outrights',
          response: { 200: SportListSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async () => {
        const sports = readModel.sports();
        return { sports, total: sports.length };
      },
    );

    app.get(
      '/v1/scores',
      {
        config: { etag: true },
        schema: {
          operationId: 'listScores',
          tags: ['discovery'],
          summary: 'Live scores (no markets); games that ended in the last 5 minutes stay listed',
          querystring: Type.Object({
            sport: SportParam,
            limit: LimitParam(undefined, '1 to 200; absent = every live event'),
          }),
          response: { 200: ScoreListSchema, ...keyRouteErrors },
        },
      },
      async (request) => {
        const sport = parseSport(request.query.sport);
        const matches = readModel.scores(sport);
        // `total` counts every match, as in every other envelope; `limit` only cuts the list.
        const events = request.query.limit !== undefined ? matches.slice(0, request.query.limit) : matches;
        const scores = events.map(({ event: e }) => ({
          id: e.id,
          home_team: e.homeTeam,
          away_team: e.awayTeam,
          score: { home: e.score.home, away: e.score.away },
          status: e.status,
          clock: clockOf(e) ?? '',
          period: periodOf(e),
          sport: e.sport,
          ...decisionFields(e),
        }));
        return { scores, total: matches.length };
      },
    );
  };
}
