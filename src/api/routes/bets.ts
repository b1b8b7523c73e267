// POST /v1/bets/check: settles a single bet or a parlay from the settlement feed, exactly.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { checkBet, type LegOutcome } from '../../domain/bet-check.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { canonicalMarketKey } from '../../domain/market-key.js';
import type { LiveEvent } from '../../live/live-event.js';
import { parseResolved, type ResolvedMarket } from '../../domain/resolved-market.js';
import type { ApiContext } from '../context.js';
import { errorResponses } from '../schemas/common.js';

const LegSchema = Type.Object({
  event_id: Type.String({ minLength: 1, maxLength: 128 }),
  market_id: Type.Optional(Type.Integer({ minimum: 0 })),
  selection_id: Type.Optional(Type.Integer({ minimum: 0 })),
  market: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'market key or name (aliases: 1X2, Match Winner, Moneyline)',
    }),
  ),
  outcome: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'outcome code or label (1, X, 2 accepted)' }),
  ),
  odds: Type.Optional(
    Type.Number({ description: 'decimal odds the bet was taken at (>= 1); default: the last known odds' }),
  ),
});

const BodySchema = Type.Object({
  legs: Type.Array(LegSchema, { minItems: 1, maxItems: 20, description: '1 leg = single, 2-20 = parlay' }),
  stake: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: '> 0' })),
});

const ResponseSchema = Type.Object({
  status: Type.String({ description: 'won, lost, refund or pending' }),
  legs: Type.Array(
    Type.Object({
      event_id: Type.String(),
      market_id: Type.Integer(),
      selection_id: Type.Integer(),
      market: Type.String({ description: 'key of the market matched' }),
      market_name: Type.String(),
      outcome: Type.String({ description: 'label of the selection matched' }),
      result: Type.String({ description: 'won, lost, refund or pending' }),
      odds: Type.Number(),
      void_factor: Type.Optional(Type.Number()),
      reason: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  combined_odds: Type.Number(),
  stake: Type.Optional(Type.Number()),
  payout: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});

type Leg = Static<typeof LegSchema>;

/** Common names of the main market: they match 1x2 where the sport has a draw, else moneyline. */
const MAIN_ALIASES = new Set(['1x2', 'match winner', 'moneyline', 'match result', 'full time result', 'winner', 'h2h']);
const OUTCOME_ALIASES: Record<string, string> = { '1': 'home', x: 'draw', '2': 'away' };

/** A market as bet check sees it: from the live book, or from the settlement entry once the event is gone. */
interface MarketView {
  marketId: number;
  key: string;
  name: string;
  outcomes: Array<{ selectionId: number; code: string | null; label: string; odds: number | null }>;
}

function marketsOf(le: LiveEvent | undefined, resolved: ResolvedMarket[]): MarketView[] {
  if (le !== undefined) {
    return le.book.markets().map((m) => ({
      marketId: m.marketId,
      key: m.key,
      name: m.name,
      outcomes: m.outcomes.map((o) => ({ selectionId: o.selectionId, code: o.code, label: o.label, odds: o.odds })),
    }));
  }
  return resolved
    .filter((m) => m.market_id !== null)
    .map((m) => ({
      marketId: m.market_id as number,
      key: m.key,
      name: m.name,
      outcomes: m.outcomes
        .filter((o) => o.selection_id !== null)
        .map((o) => ({ selectionId: o.selection_id as number, code: null, label: o.label, odds: null })),
    }));
}

function findMarket(markets: MarketView[], leg: Leg, i: number): MarketView {
  if (leg.market_id !== undefined) {
    const m = markets.find((x) => x.marketId === leg.market_id);
    if (m === undefined)
      throw notFound(`legs[${i}]: market_id ${leg.market_id} is not a market of event '${leg.event_id}'`);
    return m;
  }
  if (leg.market === undefined)
    throw badRequest(`legs[${i}] needs market_id (or market) and selection_id (or outcome)`);
  const wanted = leg.market.trim().toLowerCase();
  const key = canonicalMarketKey(wanted);
  const byKey = markets.find((m) => m.key === key) ?? markets.find((m) => m.name.toLowerCase() === wanted);
  if (byKey !== undefined) return byKey;
  if (MAIN_ALIASES.has(wanted)) {
    const main = markets.find((m) => m.key === '1x2') ?? markets.find((m) => m.key === 'moneyline');
    if (main !== undefined) return main;
  }
  throw notFound(`legs[${i}]: no market '${leg.market}' in event '${leg.event_id}'`);
}

function findOutcome(m: MarketView, leg: Leg, i: number): MarketView['outcomes'][number] {
  if (leg.selection_id !== undefined) {
    const o = m.outcomes.find((x) => x.selectionId === leg.selection_id);
    if (o === undefined) throw notFound(`legs[${i}]: selection_id ${leg.selection_id} is not in market ${m.marketId}`);
    return o;
  }
  if (leg.outcome === undefined) throw badRequest(`legs[${i}] needs selection_id (or outcome)`);
  const wanted = leg.outcome.trim().toLowerCase();
  const code = OUTCOME_ALIASES[wanted] ?? wanted;
  const o =
    m.outcomes.find((x) => x.code !== null && x.code.toLowerCase() === code) ??
    m.outcomes.find((x) => x.label.toLowerCase() === wanted);
  if (o === undefined) throw notFound(`legs[${i}]: no outcome '${leg.outcome}' in market '${m.key}'`);
  return o;
}

/** Why a leg is not settled yet, from its event's state. */
function pendingReason(le: LiveEvent | undefined): string {
  switch (le?.event.status) {
    case 'prematch':
      return 'not started';
    case 'live':
    case 'suspended':
    case 'interrupted':
      return 'live';
    case 'delayed':
      return 'delayed';
    case 'postponed':
      return 'postponed: refunded if not resumed within 48 hours';
    default:
      return 'awaiting settlement';
  }
}

export function betRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/bets/check',
      {
        schema: {
          tags: ['settlement'],
          summary: 'Check a single bet or a parlay: result per leg, combined odds and payout',
          body: BodySchema,
          response: { 200: ResponseSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { legs, stake } = request.body;
        const resolvedByEvent = new Map<string, ResolvedMarket[]>();
        const outLegs = [];
        const outcomes: LegOutcome[] = [];
        for (const [i, leg] of legs.entries()) {
          if (leg.odds !== undefined && (!Number.isFinite(leg.odds) || leg.odds < 1)) {
            throw badRequest(`legs[${i}].odds must be a decimal number >= 1, got ${leg.odds}`);
          }
          const le = ctx.readModel.get(leg.event_id);
          let resolved = resolvedByEvent.get(leg.event_id);
          if (resolved === undefined) {
            const record = await ctx.store.getSettlement(leg.event_id);
            resolved = record === null ? [] : parseResolved(record.marketsJson);
            resolvedByEvent.set(leg.event_id, resolved);
            if (le === undefined && record === null) {
              throw notFound(`legs[${i}]: event '${leg.event_id}' not found (or its settlement has left the feed)`);
            }
          }
          const market = findMarket(marketsOf(le, resolved), leg, i);
          const outcome = findOutcome(market, leg, i);
          const odds = leg.odds ?? outcome.odds;
          if (odds === null) {
            throw badRequest(`legs[${i}].odds is needed: the event is no longer live, so its last odds are not known`);
          }
          const graded = resolved
            .find((m) => m.market_id === market.marketId)
            ?.outcomes.find((o) => o.selection_id === outcome.selectionId);
          const leg0: LegOutcome =
            graded === undefined
              ? { result: 'pending', odds }
              : {
                  result: graded.result,
                  odds,
                  ...(graded.void_factor !== undefined ? { voidFactor: graded.void_factor } : {}),
                };
          outcomes.push(leg0);
          outLegs.push({
            event_id: leg.event_id,
            market_id: market.marketId,
            selection_id: outcome.selectionId,
            market: market.key,
            market_name: market.name,
            outcome: outcome.label,
            result: leg0.result,
            odds,
            ...(leg0.voidFactor !== undefined ? { void_factor: leg0.voidFactor } : {}),
            reason: graded === undefined ? pendingReason(le) : null,
          });
        }
        const check = checkBet(outcomes, stake ?? 1);
        return {
          status: check.status,
          legs: outLegs,
          combined_odds: check.combinedOdds,
          ...(stake !== undefined ? { stake, payout: check.payout } : {}),
        };
      },
    );
  };
}
