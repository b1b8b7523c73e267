// Odds history: GET /v1/events/{id}/odds/history (every price and lock change, oldest first) and the odds payload at an instant.
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { badRequest, notFound } from '../../domain/errors.js';
import { formatOdds } from '../../domain/odds.js';
import { parseResolved, type ResolvedMarket } from '../../domain/resolved-market.js';
import type { OddsFormat } from '../../domain/types.js';
import type { LiveEvent } from '../../live/live-event.js';
import type { MarketFilter } from '../../live/market-filter.js';
import { iso, marketsVisible, statusLocks } from '../../live/payloads.js';
import type { ApiContext, HistoryCursorValue } from '../context.js';
import { parseInstant } from '../instants.js';
import { errorsOf, EventIdParams, OddsFormatParam } from '../schemas/common.js';
import { InstantParam } from '../schemas/params.js';
import { OddsAtSchema, OddsHistorySchema } from '../schemas/history.js';

const tags = ['events'];

/**
 * What a cursor continues: the event and the filters of the query that issued it. A cursor is a
 * position among the changes that query matches (`skip` counts those at one instant), so under
 * another event or other filters it would silently skip or repeat changes: it is refused instead.
 * The page size and the odds format may change from page to page.
 */
function queryOf(
  eventId: string,
  q: { market_id?: string; selection_id?: string; from?: number; to?: number },
): string {
  const key = JSON.stringify([eventId, q.market_id ?? null, q.selection_id ?? null, q.from ?? null, q.to ?? null]);
  return createHash('sha256').update(key).digest('base64url').slice(0, 16);
}

function encodeCursor(c: HistoryCursorValue, query: string): string {
  return Buffer.from(JSON.stringify({ at: iso(c.at), skip: c.skip, q: query })).toString('base64url');
}

function decodeCursor(cursor: string, query: string): HistoryCursorValue {
  let v: { at?: unknown; skip?: unknown; q?: unknown };
  try {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) throw new Error('not base64url');
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof v;
    if (v === null || typeof v !== 'object') throw new Error('not an object');
  } catch {
    throw badRequest("query parameter 'cursor' is not a cursor this endpoint issued (use next_cursor as given)");
  }
  const at = typeof v.at === 'string' ? Date.parse(v.at) : NaN;
  if (Number.isNaN(at) || typeof v.skip !== 'number' || !Number.isInteger(v.skip) || v.skip < 0) {
    throw badRequest("query parameter 'cursor' is not a cursor this endpoint issued (use next_cursor as given)");
  }
  if (v.q !== query) {
    throw badRequest(
      "query parameter 'cursor' belongs to another query: page on with the same event, market_id, selection_id, from and to",
    );
  }
  return { at, skip: v.skip };
}

/** A market or selection id filter: a non-negative safe integer. */
const HistoryIdParam = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }));

/** What the id check asks of an event's markets: whether a market is there, and a selection's market. */
interface EventIds {
  hasMarket(marketId: number): boolean;
  /** The market id of a selection, or undefined when the event has no such selection. */
  marketOf(selectionId: number): number | undefined;
}

function idsOfBook(le: LiveEvent): EventIds {
  const book = le.book;
  return {
    hasMarket: (id) => book.indexOfMarket(id) >= 0,
    marketOf(id) {
      const o = book.indexOfSelection(id);
      return o < 0 ? undefined : book.marketId(book.marketOfOutcome(o));
    },
  };
}

/** The markets an event's settlement entry resolved (every market it had, withdrawn ones included). */
function idsOfEntry(resolved: ResolvedMarket[]): EventIds {
  const markets = new Set<number>();
  const selections = new Map<number, number>();
  for (const m of resolved) {
    if (m.market_id === null) continue;
    markets.add(m.market_id);
    for (const o of m.outcomes) if (o.selection_id !== null) selections.set(o.selection_id, m.market_id);
  }
  return { hasMarket: (id) => markets.has(id), marketOf: (id) => selections.get(id) };
}

/**
 * An empty page filtered on ids the event does not have is a 400 naming the id (a typo is not an
 * empty history). Checked only when nothing matched, so an id with history always answers it:
 * against the event's book (withdrawn markets included) while it is in memory, then against its
 * settlement entry for as long as that is held, so the answer is the same either side of
 * ENDED_RETENTION_HOURS; an event with neither is not checked.
 */
async function checkIds(
  ctx: ApiContext,
  eventId: string,
  marketId: number | null,
  selectionId: number | null,
): Promise<void> {
  if (marketId === null && selectionId === null) return;
  const le = ctx.readModel.get(eventId);
  let ids: EventIds;
  if (le !== undefined) ids = idsOfBook(le);
  else {
    const record = await ctx.store.getSettlement(eventId);
    if (record === null) return;
    ids = idsOfEntry(parseResolved(record.marketsJson));
  }
  if (marketId !== null && !ids.hasMarket(marketId)) {
    throw badRequest(`query parameter 'market_id': event '${eventId}' has no market ${marketId}`);
  }
  if (selectionId === null) return;
  const market = ids.marketOf(selectionId);
  if (market === undefined) {
    throw badRequest(`query parameter 'selection_id': event '${eventId}' has no selection ${selectionId}`);
  }
  if (marketId !== null && market !== marketId) {
    throw badRequest(`query parameter 'selection_id': selection ${selectionId} is not in market ${marketId}`);
  }
}

export function historyRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    const { readModel } = ctx;

    app.get(
      '/v1/events/:eventId/odds/history',
      {
        config: { etag: true },
        schema: {
          operationId: 'getEventOddsHistory',
          tags,
          summary: 'Every price and lock change of an event, oldest first (odds history)',
          params: EventIdParams,
          querystring: Type.Object({
            market_id: HistoryIdParam('only this market (a market of the event, else 400)'),
            selection_id: HistoryIdParam('only this selection (a selection of the event and market, else 400)'),
            from: InstantParam('changes at or after; not after to'),
            to: InstantParam('changes at or before'),
            limit: Type.Optional(
              Type.Integer({ minimum: 1, maximum: 1000, default: 200, description: '1 to 1000, default 200' }),
            ),
            cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
            odds_format: OddsFormatParam,
          }),
          response: { 200: OddsHistorySchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const q = request.query;
        const eventId = request.params.eventId;
        const fromAt = q.from === undefined ? -Infinity : parseInstant('from', q.from);
        const toAt = q.to === undefined ? Infinity : parseInstant('to', q.to);
        if (fromAt > toAt) throw badRequest("query parameter 'from' is after 'to'");
        const marketId = q.market_id ?? null;
        const selectionId = q.selection_id ?? null;
        const query = queryOf(eventId, {
          market_id: marketId === null ? undefined : String(marketId),
          selection_id: selectionId === null ? undefined : String(selectionId),
          from: Number.isFinite(fromAt) ? fromAt : undefined,
          to: Number.isFinite(toAt) ? toAt : undefined,
        });
        const cursor = q.cursor === undefined ? null : decodeCursor(q.cursor, query);
        const limit = q.limit ?? 200;
        const format: OddsFormat = q.odds_format ?? 'decimal';
        if (readModel.get(eventId) === undefined && !(await ctx.history.known(eventId))) {
          throw notFound(`event '${eventId}' not found`);
        }
        const page = await ctx.history.page({ eventId, fromAt, toAt, marketId, selectionId, cursor, limit });
        if (page.changes.length === 0 && cursor === null) await checkIds(ctx, eventId, marketId, selectionId);
        return {
          event_id: eventId,
          odds_format: format,
          history: page.changes.map((c) => ({
            market_id: c.marketId,
            selection_id: c.selectionId,
            odds: formatOdds(c.odds, format),
            is_locked: c.locked,
            at: iso(c.at),
          })),
          limit,
          has_more: page.next !== null,
          next_cursor: page.next === null ? null : encodeCursor(page.next, query),
        };
      },
    );
  };
}

/** The odds payload as it stood at `at`: the event's markets, each selection at its last price by then. */
export async function oddsAt(
  ctx: ApiContext,
  le: LiveEvent,
  at: number,
  format: OddsFormat,
  filter: MarketFilter | null = null,
): Promise<Static<typeof OddsAtSchema>> {
  const prices = await ctx.history.at(le.event.id, at);
  const book = le.book;
  const markets: Static<typeof OddsAtSchema>['markets'] = [];
  let last = -Infinity;
  // From the instant an event ended (or was cancelled…), its odds payload had no markets: a final
  // status never changes again, so the instant it was reached is when they went.
  const gone = !marketsVisible(le) && at >= le.event.statusChangedAt;
  // A status that stops play (suspended, interrupted, postponed) reports every selection locked
  // from the instant it was reached; only the current status is known, not earlier ones.
  const forced = statusLocks(le) && at >= le.event.statusChangedAt;
  for (let i = 0; i < book.marketCount; i++) {
    // `updated_at` is the event's whatever the filter (as in the current odds payload): the markets
    // a `markets` filter leaves out still count for it.
    const kept = filter === null || filter.keeps(book.key(i));
    const [a, b] = book.outcomeRange(i);
    const outcomes: Static<typeof OddsAtSchema>['markets'][number]['outcomes'] = [];
    for (let o = a; o < b; o++) {
      const p = prices.get(book.selectionId(o));
      if (p === undefined) continue;
      last = Math.max(last, p.at);
      if (!kept) continue;
      outcomes.push({
        selection_id: book.selectionId(o),
        code: book.code(o),
        label: book.label(o),
        odds: formatOdds(p.odds, format),
        is_locked: p.locked || forced,
        team_side: book.teamSide(o),
        opening_odds: formatOdds(book.openingOdds(o), format),
        closing_odds: closingAt(book.closingOdds(o), le, at, format),
      });
    }
    if (outcomes.length > 0 && !gone) {
      markets.push({ market_id: book.marketId(i), key: book.key(i), name: book.name(i), outcomes });
    }
  }
  return {
    id: le.event.id,
    status: le.event.status,
    odds_format: format,
    markets,
    updated_at: Number.isFinite(last) ? iso(last) : null,
    at: iso(at),
  };
}

/**
 * The closing price as known at `at`: only once the event had gone live by then (kick-off is when
 * the event went live, which may differ from its start_time; documents from before `liveAt` was
 * kept fall back on the start time).
 */
function closingAt(closing: number | null, le: LiveEvent, at: number, format: OddsFormat): number | string | null {
  if (closing === null) return null;
  const wentLive = le.event.liveAt ?? le.event.startTime;
  return at >= wentLive ? formatOdds(closing, format) : null;
}
