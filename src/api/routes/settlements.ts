// GET /v1/settlements: the automatic settlement feed (newest first with a cursor, or changes since an instant).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest, notFound } from '../../domain/errors.js';
import { isTerminal } from '../../domain/lifecycle.js';
import type { OddsFormat } from '../../domain/types.js';
import { parseResolved, resolvedInFormat, resolvedJson } from '../../domain/resolved-market.js';
import type { SettlementCounts, SettlementRecord } from '../../store/store.js';
import { baseUrlOf } from '../base-url.js';
import type { ApiContext } from '../context.js';
import { parseInstant } from '../instants.js';
import { iso, logoUrl } from '../../live/payloads.js';
import { sendRawJson } from '../raw-json.js';
import { errorsOf, EventIdParams, keyRouteErrors, OddsFormatParam, StringEnum } from '../schemas/common.js';
import { EventSettlementSchema, SettlementFeedSchema } from '../schemas/settlements.js';
import { IdListParam, InstantParam, listItems } from '../schemas/params.js';
import { ExplainedCache, explainResolved, gradingSourceOf } from '../settlement-explain.js';

/** `explain=true`: each resolved outcome says why it was graded so. */
export const ExplainParam = Type.Optional(
  StringEnum(['true', 'false'] as const, {
    description: 'true: each resolved outcome carries `explanation` (why it was graded so); default false',
  }),
);

const DAY_MS = 86_400_000;
const MAX_IDS = 50;

interface CursorPosition {
  at: number;
  eventId: string;
}

/** Cursors are base64url JSON: `{ended_at, event_id}` for the feed, `{updated_at, event_id}` for changes. */
export function encodeCursor(field: 'ended_at' | 'updated_at', at: number, eventId: string): string {
  return Buffer.from(JSON.stringify({ [field]: iso(at), event_id: eventId })).toString('base64url');
}

export function decodeCursor(cursor: string, field: 'ended_at' | 'updated_at'): CursorPosition {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest("query parameter 'cursor' is not a cursor this feed issued (use next_cursor as given)");
  }
  const obj = value as Record<string, unknown> | null;
  const raw = obj?.[field];
  const at = typeof raw === 'number' ? raw : typeof raw === 'string' ? Date.parse(raw) : NaN;
  const eventId = obj?.event_id;
  if (!Number.isFinite(at) || typeof eventId !== 'string' || eventId.length === 0) {
    throw badRequest(
      `query parameter 'cursor' does not hold {${field}, event_id}${field === 'updated_at' ? ' (an updated_since cursor)' : ''}`,
    );
  }
  return { at, eventId };
}

/** The event ids of `event_id` and `event_ids` together, or null for no filter. */
function idsFilter(eventId: string | undefined, eventIds: string | undefined): string[] | null {
  if (eventId === undefined && eventIds === undefined) return null;
  const ids = new Set<string>();
  if (eventId !== undefined) ids.add(eventId);
  if (eventIds !== undefined) {
    const list = listItems(eventIds);
    if (list.some((s) => s.length === 0)) throw badRequest("query parameter 'event_ids' has an empty item");
    if (list.length > MAX_IDS) {
      throw badRequest(`query parameter 'event_ids' lists ${list.length} ids; at most ${MAX_IDS} are allowed`);
    }
    for (const id of list) ids.add(id);
  }
  return [...ids];
}

export function settlementRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    // Per app (never shared between services in one process): 16 MB of explained entries.
    const explained = new ExplainedCache(16 * 1024 * 1024);
    app.get(
      '/v1/settlements',
      {
        config: { etag: true },
        schema: {
          operationId: 'listSettlements',
          tags: ['settlement'],
          summary: 'Settlement feed: newest first; an entry appears with its first resolved market',
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 100, description: '1 to 200' })),
            offset: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: Number.MAX_SAFE_INTEGER,
                default: 0,
                description: '>= 0; keep 0 when polling',
              }),
            ),
            cursor: Type.Optional(
              Type.String({ minLength: 1, maxLength: 1000, description: 'next_cursor of the previous page' }),
            ),
            event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
            event_ids: IdListParam(MAX_IDS, 'these events'),
            updated_since: InstantParam('entries changed after it, oldest change first'),
            odds_format: OddsFormatParam,
            explain: ExplainParam,
          }),
          response: { 200: SettlementFeedSchema, ...keyRouteErrors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const limit = q.limit ?? 100;
        const offset = q.offset ?? 0;
        if (q.cursor !== undefined && offset !== 0) {
          throw badRequest("query parameters 'cursor' and 'offset' cannot be combined (keep offset 0 with a cursor)");
        }
        const eventIds = idsFilter(q.event_id, q.event_ids);
        const now = ctx.worldNow();
        const feedFrom = now - ctx.settings.settlementFeedDays * DAY_MS;
        const detailFrom = now - ctx.settings.settlementDetailDays * DAY_MS;
        const base = baseUrlOf(request, ctx.settings);

        let records: SettlementRecord[];
        // Feed pages count from the in-memory index; `updated_since` counts its own matches.
        let changesCounts: SettlementCounts | null = null;
        let nextCursor: string | null = null;
        if (q.updated_since !== undefined) {
          const since = parseInstant('updated_since', q.updated_since);
          const after =
            q.cursor !== undefined ? decodeCursor(q.cursor, 'updated_at') : { at: since, eventId: '\uffff' };
          const rows = await ctx.store.listSettlementChanges({
            minEndedAt: feedFrom,
            eventIds,
            after,
            limit: limit + 1 + offset,
          });
          records = rows.slice(offset, offset + limit);
          changesCounts = await ctx.store.countSettlementChanges({
            minEndedAt: feedFrom,
            eventIds,
            after: { at: since, eventId: '\uffff' },
            detailFrom,
          });
          const last = records[records.length - 1];
          if (rows.length > offset + limit && last !== undefined)
            nextCursor = encodeCursor('updated_at', last.updatedAt, last.eventId);
        } else {
          const after = q.cursor !== undefined ? decodeCursor(q.cursor, 'ended_at') : null;
          const rows = await ctx.store.listSettlements({
            minEndedAt: feedFrom,
            eventIds,
            after,
            limit: limit + 1,
            offset,
          });
          records = rows.slice(0, limit);
          const last = records[records.length - 1];
          if (rows.length > limit && last !== undefined)
            nextCursor = encodeCursor('ended_at', last.endedAt, last.eventId);
        }
        const counts =
          changesCounts ??
          (eventIds === null
            ? ctx.settlementIndex.counts(feedFrom, detailFrom)
            : ctx.settlementIndex.countsFor(eventIds, feedFrom, detailFrom));
        const total = counts.total;

        const format = q.odds_format ?? 'decimal';
        const explain = q.explain === 'true';
        const entries = await Promise.all(
          records.map(async (r) => {
            const scoreOnly = r.endedAt < detailFrom;
            if (!explain || scoreOnly) return entryJson(r, base, scoreOnly, format);
            return entryJson(r, base, false, format, await explainedJson(ctx, explained, r, format));
          }),
        );
        const envelope = JSON.stringify({
          total,
          fully_settled: counts.fullySettled,
          score_only: counts.scoreOnly,
          limit,
          offset,
          has_more: nextCursor !== null,
          next_cursor: nextCursor,
          applied_filters: {
            event_ids_count: eventIds?.length ?? 0,
            using_cursor: q.cursor !== undefined,
            ...(q.updated_since !== undefined ? { updated_since: q.updated_since } : {}),
          },
        });
        return sendRawJson(reply, `{"settlements":[${entries.join(',')}],${envelope.slice(1)}`);
      },
    );

    app.get(
      '/v1/events/:eventId/settlement',
      {
        config: { etag: true },
        schema: {
          operationId: 'getEventSettlement',
          tags: ['settlement'],
          summary: "An event's settlement entry with every resolved outcome explained (why it was graded so)",
          description:
            'Served while the store holds the entry (SETTLEMENT_FEED_DAYS), also after the event left memory and past the detail window. An event known but not settled yet answers status pending with no resolved markets; an unknown event (or one whose entry is no longer held) is 404.',
          params: EventIdParams,
          querystring: Type.Object({ odds_format: OddsFormatParam }),
          response: { 200: EventSettlementSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request, reply) => {
        const id = request.params.eventId;
        const format = request.query.odds_format ?? 'decimal';
        const base = baseUrlOf(request, ctx.settings);
        const record = await ctx.store.getSettlement(id);
        const le = ctx.readModel.get(id);
        if (record === null) {
          if (le === undefined) {
            throw notFound(
              `event '${id}' has no settlement entry: the event is unknown, or its entry is older than the settlement feed keeps (its score stays at GET /v1/events/${id}/result)`,
            );
          }
          const e = le.event;
          const total = le.book.markets().length;
          const result = isTerminal(e.status) ? await ctx.results.result(id) : null;
          return sendRawJson(
            reply,
            JSON.stringify({
              event_id: id,
              home_team: e.homeTeam,
              away_team: e.awayTeam,
              home_logo: logoUrl(base, e.homeLogoId),
              away_logo: logoUrl(base, e.awayLogoId),
              final_score: result === null ? null : result.score,
              sport: e.sport,
              league: e.league.name,
              country: e.league.country,
              start_time: iso(e.startTime),
              ended_at: result === null ? null : iso(result.endedAt),
              status: 'pending',
              settlement_status: 'pending',
              resolved_markets: [],
              resolved_markets_count: 0,
              total_markets_count: total,
              pending_markets_count: total,
              updated_at: null,
              revision: 0,
            }),
          );
        }
        const h = record.header;
        const head = JSON.stringify({
          event_id: id,
          home_team: h.homeTeam,
          away_team: h.awayTeam,
          home_logo: logoUrl(base, h.homeLogoId),
          away_logo: logoUrl(base, h.awayLogoId),
          final_score: h.finalScore,
          sport: h.sport,
          league: h.league,
          country: h.country,
          start_time: iso(h.startTime),
          ended_at: iso(record.endedAt),
          status: 'settled',
          settlement_status: 'settled',
          resolved_markets_count: record.resolvedCount,
          total_markets_count: record.totalCount,
          pending_markets_count: record.pendingCount,
          updated_at: iso(record.updatedAt),
          revision: record.revision,
        });
        const markets = await explainedJson(ctx, explained, record, format);
        return sendRawJson(reply, `${head.slice(0, -1)},"resolved_markets":${markets}}`);
      },
    );
  };
}

/** The resolved markets of an entry, every outcome with its explanation, as JSON (cached by entry revision). */
function explainedJson(
  ctx: ApiContext,
  cache: ExplainedCache,
  r: SettlementRecord,
  format: OddsFormat,
): Promise<string> {
  return cache.get(`${r.eventId}\u0000${r.revision}\u0000${r.updatedAt}\u0000${format}`, async () => {
    const src = await gradingSourceOf(ctx, r.eventId, r.header.sport, r.header.finalScore);
    // Explained from the stored decimals, then priced in the format asked for.
    return JSON.stringify(resolvedInFormat(explainResolved(parseResolved(r.marketsJson), src), format));
  });
}

/** One settlement entry; past the detail window it is `score_only` (no markets, null counts and names). */
function entryJson(
  r: SettlementRecord,
  base: string,
  scoreOnly: boolean,
  format: OddsFormat,
  marketsJson?: string,
): string {
  const h = r.header;
  const head = JSON.stringify({
    event_id: r.eventId,
    home_team: h.homeTeam,
    away_team: h.awayTeam,
    home_logo: logoUrl(base, h.homeLogoId),
    away_logo: logoUrl(base, h.awayLogoId),
    final_score: h.finalScore,
    sport: scoreOnly ? null : h.sport,
    league: scoreOnly ? null : h.league,
    country: scoreOnly ? null : h.country,
    start_time: scoreOnly ? null : iso(h.startTime),
    ended_at: iso(r.endedAt),
    status: 'settled',
    settlement_status: 'settled',
    resolved_markets_count: scoreOnly ? 0 : r.resolvedCount,
    total_markets_count: scoreOnly ? null : r.totalCount,
    pending_markets_count: scoreOnly ? null : r.pendingCount,
    updated_at: iso(r.updatedAt),
    revision: r.revision,
  });
  const markets = scoreOnly ? '[]' : (marketsJson ?? resolvedJson(r.marketsJson, format));
  return `${head.slice(0, -1)},"resolved_markets":${markets}}`;
}
