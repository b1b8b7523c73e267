// Outrights: GET /v1/outrights (futures markets by tournament) and GET /v1/outrights/sports (cached 5 minutes).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../domain/errors.js';
import { formatOdds } from '../../domain/odds.js';
import { offeredSelections } from '../../domain/outrights.js';
import { SPORTS, sportById } from '../../domain/sports.js';
import type { OddsFormat } from '../../domain/types.js';
import type { OutrightBook } from '../../live/outright-book.js';
import type { ApiContext } from '../context.js';
import { sendRawJson } from '../raw-json.js';
import { errorsOf, keyRouteErrors, OddsFormatParam } from '../schemas/common.js';
import { OutrightListSchema, OutrightSportListSchema } from '../schemas/outrights.js';
import { SportIdParam } from '../schemas/params.js';

/** interface.md's limits table: the outright sports answer is cached for 5 minutes. */
export const OUTRIGHT_SPORTS_TTL_MS = 5 * 60_000;

function listingJson(book: OutrightBook, sportKey: string | undefined, format: OddsFormat): string {
  const tournaments = book.listed(sportKey).map(({ tournament: t, markets }) => ({
    tournament_id: t.tournamentId,
    tournament: t.tournament,
    sport: t.sport,
    sport_id: t.sportId,
    markets: markets.map((m) => ({
      market_id: m.marketId,
      market: m.market,
      selections: offeredSelections(m).map((s) => ({
        selection_id: s.selectionId,
        selection: s.selection,
        odds: formatOdds(s.odds, format),
      })),
    })),
  }));
  return JSON.stringify({ tournaments, total: tournaments.length });
}

/** Every sport of the catalog is scanned; those with a tournament that has an open market are listed. */
function sportsJson(book: OutrightBook): string {
  const counts = book.tournamentCounts();
  const sports = SPORTS.flatMap((s) => {
    const n = counts.get(s.key) ?? 0;
    return n > 0 ? [{ sport_id: s.sportId, name: s.name, tournament_count: n }] : [];
  });
  return JSON.stringify({ sports, total: sports.length });
}

export function outrightRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    const book = ctx.outrights;
    // Listing bodies per (sport, format), rebuilt only after the book changed.
    const listings = new Map<string, { version: number; body: string }>();
    let sportsCache: { expiresAt: number; body: string } | null = null;

    app.get(
      '/v1/outrights',
      {
        config: { etag: true },
        schema: {
          operationId: 'listOutrights',
          tags: ['outrights'],
          summary: 'Open outright (futures) markets by tournament',
          description:
            'Tournaments with at least one open market, in sport order, then tournament name, then id; markets by market_id, selections in feed order. Without sport_id: every sport.',
          querystring: Type.Object({
            sport_id: SportIdParam,
            odds_format: OddsFormatParam,
          }),
          response: { 200: OutrightListSchema, ...keyRouteErrors },
        },
      },
      async (request, reply) => {
        const { sport_id: sportId } = request.query;
        const format = request.query.odds_format ?? 'decimal';
        let sportKey: string | undefined;
        if (sportId !== undefined) {
          const sport = sportById(sportId);
          if (sport === undefined) {
            throw badRequest(
              `query parameter 'sport_id' must be a sport id of the catalog (1-${SPORTS.length}, see GET /v1/outrights/sports), got ${sportId}`,
            );
          }
          sportKey = sport.key;
        }
        const key = `${sportKey ?? '*'}|${format}`;
        let cached = listings.get(key);
        if (cached === undefined || cached.version !== book.version) {
          cached = { version: book.version, body: listingJson(book, sportKey, format) };
          listings.set(key, cached);
        }
        return sendRawJson(reply, cached.body);
      },
    );

    app.get(
      '/v1/outrights/sports',
      {
        config: { etag: true },
        schema: {
          operationId: 'listOutrightSports',
          tags: ['outrights'],
          summary: 'Sports that have outright markets, with tournament counts (cached 5 minutes)',
          response: { 200: OutrightSportListSchema, ...errorsOf(401, 429, 503) },
        },
      },
      async (_request, reply) => {
        // On the world clock, like the outrights' own 3-hour refresh: an accelerated simulator
        // (SIM_SPEED) would otherwise show a start-up answer for 5 wall minutes of world days.
        const now = ctx.worldNow();
        if (sportsCache === null || now >= sportsCache.expiresAt) {
          sportsCache = { expiresAt: now + OUTRIGHT_SPORTS_TTL_MS, body: sportsJson(book) };
        }
        return sendRawJson(reply, sportsCache.body);
      },
    );
  };
}
