// GET /v1/settlements/outrights: the outright settlement feed, newest first, with a cursor and tournament filters.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../domain/errors.js';
import { explainOutright, type OutcomeExplanation } from '../../domain/grading/explain.js';
import { selectionOutcome, type OutrightEntry, type OutrightResult } from '../../domain/outrights.js';
import type { ApiContext } from '../context.js';
import { ExplainParam } from './settlements.js';
import { keyRouteErrors } from '../schemas/common.js';
import { OutrightSettlementFeedSchema } from '../schemas/outrights.js';
import { IdListParam, listItems } from '../schemas/params.js';

const MAX_IDS = 50;
const iso = (ms: number): string => new Date(ms).toISOString();

/** The cursor: base64url of `{"settled_at": ISO, "entry_id": …}` (interface.md). */
export function encodeOutrightCursor(settledAt: number, entryId: string): string {
  return Buffer.from(JSON.stringify({ settled_at: iso(settledAt), entry_id: entryId })).toString('base64url');
}

export function decodeOutrightCursor(cursor: string): { settledAt: number; entryId: string } {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest("query parameter 'cursor' is not a cursor this feed issued (use next_cursor as given)");
  }
  const obj = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const raw = obj.settled_at;
  const settledAt = typeof raw === 'string' ? Date.parse(raw) : typeof raw === 'number' ? raw : NaN;
  const entryId = obj.entry_id;
  if (!Number.isFinite(settledAt) || typeof entryId !== 'string' || entryId.length === 0) {
    throw badRequest("query parameter 'cursor' does not hold {settled_at, entry_id}");
  }
  return { settledAt, entryId };
}

/**
 * The tournaments of `tournament_id` and `tournament_ids` together (their union, each id once), or
 * null for no filter. An empty item in the list (`a,,b`) is a client mistake, not a wildcard.
 */
function tournamentFilter(single: string | undefined, csv: string | undefined): string[] | null {
  if (single === undefined && csv === undefined) return null;
  const ids = new Set<string>();
  if (single !== undefined) ids.add(single);
  if (csv !== undefined) {
    const list = listItems(csv);
    if (list.some((s) => s.length === 0)) {
      throw badRequest("query parameter 'tournament_ids' has an empty item (a comma-separated list of tournament ids)");
    }
    if (list.length > MAX_IDS) {
      throw badRequest(`query parameter 'tournament_ids' lists ${list.length} ids; at most ${MAX_IDS} are allowed`);
    }
    for (const id of list) ids.add(id);
  }
  return [...ids];
}

/**
 * Why an entry settled so: from its market's result as held in memory (the winners, so a dead heat
 * says how many tied) when that result still gives the entry's result, else from the entry alone.
 */
function explanationOf(ctx: ApiContext, e: OutrightEntry): OutcomeExplanation {
  const held = ctx.outrights.tournaments.get(e.tournamentId)?.results.get(e.marketId);
  if (held !== undefined) {
    const o = selectionOutcome(held, e.selectionId);
    if (o.result === e.result && o.deadHeatFactor === e.deadHeatFactor) {
      return explainOutright(held, e.selectionId, e.selection);
    }
  }
  const alone: OutrightResult = {
    winners: e.result === 'won' ? [{ selectionId: e.selectionId, deadHeatFactor: e.deadHeatFactor }] : [],
    void: e.result === 'refund',
    settledAt: e.settledAt,
  };
  return explainOutright(alone, e.selectionId, e.selection);
}

function entryJson(e: OutrightEntry, explanation?: OutcomeExplanation) {
  return {
    entry_id: e.entryId,
    tournament_id: e.tournamentId,
    tournament: e.tournament,
    market_id: e.marketId,
    market: e.market,
    selection_id: e.selectionId,
    selection: e.selection,
    result: e.result,
    ...(e.deadHeatFactor !== null ? { dead_heat_factor: e.deadHeatFactor } : {}),
    settled_at: iso(e.settledAt),
    sport: e.sport,
    ...(explanation !== undefined ? { explanation } : {}),
  };
}

export function outrightSettlementRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/settlements/outrights',
      {
        config: { etag: true },
        schema: {
          operationId: 'listOutrightSettlements',
          tags: ['settlement'],
          summary: 'Outright settlement feed: one entry per selection of a settled market, newest first',
          description:
            'Order: settled_at descending, then entry_id descending. tournament_id and tournament_ids combine (union). A void market gives refund on every selection; a dead-heat winner carries dead_heat_factor.',
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100, description: '1 to 200' })),
            offset: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: Number.MAX_SAFE_INTEGER,
                default: 0,
                description: '>= 0; not with cursor',
              }),
            ),
            cursor: Type.Optional(
              Type.String({ minLength: 1, maxLength: 2000, description: 'next_cursor of the previous page' }),
            ),
            tournament_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
            tournament_ids: IdListParam(MAX_IDS, 'these tournaments'),
            explain: ExplainParam,
          }),
          response: { 200: OutrightSettlementFeedSchema, ...keyRouteErrors },
        },
      },
      async (request) => {
        const q = request.query;
        const limit = q.limit ?? 100;
        const offset = q.offset ?? 0;
        if (q.cursor !== undefined && offset !== 0) {
          throw badRequest("query parameters 'cursor' and 'offset' cannot be combined (keep offset 0 with a cursor)");
        }
        const after = q.cursor !== undefined ? decodeOutrightCursor(q.cursor) : null;
        const tournamentIds = tournamentFilter(q.tournament_id, q.tournament_ids);
        const rows = await ctx.store.listOutrightSettlements({ tournamentIds, after, limit: limit + 1, offset });
        const total = await ctx.store.countOutrightSettlements(tournamentIds);
        const page = rows.slice(0, limit);
        const last = page[page.length - 1];
        const nextCursor =
          rows.length > limit && last !== undefined ? encodeOutrightCursor(last.settledAt, last.entryId) : null;
        return {
          outright_settlements: page.map((e) => entryJson(e, q.explain === 'true' ? explanationOf(ctx, e) : undefined)),
          total,
          limit,
          offset,
          has_more: nextCursor !== null,
          next_cursor: nextCursor,
          applied_filters: { tournament_ids_count: tournamentIds?.length ?? 0, using_cursor: q.cursor !== undefined },
        };
      },
    );
  };
}
