// POST /v1/bets/check: settles a single bet or a parlay (match and outright legs) from the settlement feeds, exactly.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { checkBet, isFiniteCheck, MAX_ODDS, type LegOutcome } from '../../domain/bet-check.js';
import { badRequest, notFound } from '../../domain/errors.js';
import { canonicalMarketKey } from '../../domain/market-key.js';
import { selectionOutcome, type OutrightMarket, type OutrightSelection } from '../../domain/outrights.js';
import type { LiveEvent } from '../../live/live-event.js';
import { parseResolved, type ResolvedMarket } from '../../domain/resolved-market.js';
import type { ApiContext } from '../context.js';
import {
  BetCheckRequestSchema,
  BetCheckResponseSchema,
  type BetLegResultSchema,
  type BetLegSchema,
} from '../schemas/bets.js';
import { errorsOf } from '../schemas/common.js';
import { explainResolved, gradingSourceOf } from '../settlement-explain.js';
import { ExplainParam } from './settlements.js';
import { explainOutright } from '../../domain/grading/explain.js';
import type { SettlementHeader } from '../../store/store.js';

type Leg = Static<typeof BetLegSchema>;
type LegAnswer = Static<typeof BetLegResultSchema>;

/** Common names of the main market: they match 1x2 where the sport has a draw, else moneyline. */
const MAIN_ALIASES = new Set(['1x2', 'match winner', 'moneyline', 'match result', 'full time result', 'winner', 'h2h']);
const OUTCOME_ALIASES: Record<string, string> = { '1': 'home', x: 'draw', '2': 'away' };

/** A market as bet check sees it: from the live book, or from the settlement entry once the event is gone. */
interface MarketView {
  marketId: number;
  key: string;
  name: string;
  outcomes: Array<{
    selectionId: number;
    code: string | null;
    label: string;
    odds: number | null;
    /** The last prematch price (decimal), or null (not live yet, first offered live, or settled before it was kept). */
    closingOdds: number | null;
  }>;
}

function marketsOf(
  le: LiveEvent | undefined,
  resolved: ResolvedMarket[],
  teams: { home: string; away: string } | null,
): MarketView[] {
  if (le !== undefined) {
    const book = le.book;
    return book.markets().map((m) => ({
      marketId: m.marketId,
      key: m.key,
      name: m.name,
      outcomes: m.outcomes.map((o) => {
        const i = book.indexOfSelection(o.selectionId);
        return {
          selectionId: o.selectionId,
          code: o.code,
          label: o.label,
          odds: o.odds,
          closingOdds: i < 0 ? null : book.closingOdds(i),
        };
      }),
    }));
  }
  // The settlement entry keeps what the book knew (code, last price); an entry stored before it
  // did has its main codes read back from the labels.
  return resolved
    .filter((m) => m.market_id !== null)
    .map((m) => ({
      marketId: m.market_id as number,
      key: m.key,
      name: m.name,
      outcomes: m.outcomes
        .filter((o) => o.selection_id !== null)
        .map((o) => ({
          selectionId: o.selection_id as number,
          code: typeof o.code === 'string' ? o.code : legacyCode(m.key, o.label, teams),
          label: o.label,
          odds: typeof o.last_odds === 'number' ? o.last_odds : null,
          closingOdds: typeof o.closing_odds === 'number' ? o.closing_odds : null,
        })),
    }));
}

/** Families whose outcomes are a side, a draw or a plain word: what a label can say without doubt. */
const PLAIN_FAMILIES = new Set(['1x2', 'moneyline', 'draw_no_bet', 'asian_handicap', 'totals', 'btts', 'odd_even']);
const PLAIN_CODES = new Set(['home', 'draw', 'away', 'over', 'under', 'yes', 'no', 'odd', 'even']);

/**
 * The code of an outcome settled before codes were kept, read from its label in the families where
 * a label cannot mean anything else: a team's name (`Arsenal`, `Arsenal -0.25`) is its side, a
 * plain word (`Draw`, `Over 2.5`) its code; null elsewhere.
 */
function legacyCode(key: string, label: string, teams: { home: string; away: string } | null): string | null {
  if (!PLAIN_FAMILIES.has(key.split(/[@:]/)[0] ?? '')) return null;
  const l = label.trim().toLowerCase();
  for (const side of ['home', 'away'] as const) {
    const team = teams?.[side].trim().toLowerCase();
    if (team !== undefined && team !== '' && (l === team || l.startsWith(`${team} `))) return side;
  }
  const first = l.split(/\s+/)[0] ?? '';
  return PLAIN_CODES.has(first) ? first : null;
}

function findMarket(markets: MarketView[], leg: Leg, i: number, eventId: string): MarketView {
  if (leg.market_id !== undefined) {
    const m = markets.find((x) => x.marketId === leg.market_id);
    if (m === undefined) throw notFound(`legs[${i}]: market_id ${leg.market_id} is not a market of event '${eventId}'`);
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
  throw notFound(`legs[${i}]: no market '${leg.market}' in event '${eventId}'`);
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

/** A leg's answer and what it contributes to the bet. */
interface CheckedLeg {
  out: LegAnswer;
  outcome: LegOutcome;
}

/** A match leg: from the live book while the event is there, else from its settlement entry. */
async function eventLeg(
  ctx: ApiContext,
  leg: Leg,
  eventId: string,
  i: number,
  resolvedByEvent: Map<string, ResolvedMarket[]>,
  explain: boolean,
  headers: Map<string, SettlementHeader>,
): Promise<CheckedLeg> {
  const le = ctx.readModel.get(eventId);
  let resolved = resolvedByEvent.get(eventId);
  if (resolved === undefined && le !== undefined && !ctx.settlementIndex.has(eventId)) {
    // An event in memory with no settlement entry has nothing graded yet: no need to ask the
    // store (a bet on a live game is checked while the datastore is down).
    resolved = [];
    resolvedByEvent.set(eventId, resolved);
  }
  if (resolved === undefined) {
    const record = await ctx.store.getSettlement(eventId);
    resolved = record === null ? [] : parseResolved(record.marketsJson);
    resolvedByEvent.set(eventId, resolved);
    if (record !== null) headers.set(eventId, record.header);
    if (le === undefined && record === null) {
      throw notFound(`legs[${i}]: event '${eventId}' not found (or its settlement has left the feed)`);
    }
  }
  const header = headers.get(eventId);
  const teams = header === undefined ? null : { home: header.homeTeam, away: header.awayTeam };
  const market = findMarket(marketsOf(le, resolved, teams), leg, i, eventId);
  const outcome = findOutcome(market, leg, i);
  const odds = leg.odds ?? outcome.odds;
  if (odds === null) {
    throw badRequest(`legs[${i}].odds is needed: the event is no longer live, so its last odds are not known`);
  }
  const gradedMarket = resolved.find((m) => m.market_id === market.marketId);
  const graded = gradedMarket?.outcomes.find((o) => o.selection_id === outcome.selectionId);
  const leg0: LegOutcome =
    graded === undefined
      ? { result: 'pending', odds }
      : {
          result: graded.result,
          odds,
          ...(graded.void_factor !== undefined ? { voidFactor: graded.void_factor } : {}),
        };
  return {
    outcome: leg0,
    out: {
      event_id: eventId,
      market_id: market.marketId,
      selection_id: outcome.selectionId,
      market: market.key,
      market_name: market.name,
      outcome: outcome.label,
      result: leg0.result,
      odds,
      closing_odds: outcome.closingOdds,
      ...(leg0.voidFactor !== undefined ? { void_factor: leg0.voidFactor } : {}),
      reason: graded === undefined ? pendingReason(le) : null,
      ...(explain
        ? { explanation: await legExplanation(ctx, eventId, le, gradedMarket, outcome.selectionId, headers) }
        : {}),
    },
  };
}

/** Why a match leg settled so: its market explained from the grading inputs still held (null while pending). */
async function legExplanation(
  ctx: ApiContext,
  eventId: string,
  le: LiveEvent | undefined,
  market: ResolvedMarket | undefined,
  selectionId: number,
  headers: Map<string, SettlementHeader>,
): Promise<LegAnswer['explanation']> {
  if (market === undefined) return null;
  let header = headers.get(eventId);
  if (header === undefined) {
    const record = await ctx.store.getSettlement(eventId);
    if (record !== null) headers.set(eventId, (header = record.header));
  }
  const sport = header?.sport ?? le?.event.sport;
  if (sport === undefined) return null;
  const finalScore = header?.finalScore ?? le?.event.score ?? { home: 0, away: 0 };
  const src = await gradingSourceOf(ctx, eventId, sport, finalScore);
  const [explained] = explainResolved([market], src);
  return explained?.outcomes.find((o) => o.selection_id === selectionId)?.explanation ?? null;
}

/**
 * An outright leg: the tournament's market (open or settled) and selection by id, or by name
 * (`market`, `outcome`, case-insensitive). Settled: won (a dead heat pays its share), lost, or
 * refund when the market was void; open: pending.
 */
function outrightLeg(ctx: ApiContext, leg: Leg, tournamentId: string, i: number, explain: boolean): CheckedLeg {
  const t = ctx.outrights.tournaments.get(tournamentId);
  if (t === undefined) throw notFound(`legs[${i}]: tournament '${tournamentId}' not found`);
  let market: OutrightMarket | undefined;
  if (leg.market_id !== undefined) {
    market = t.markets.get(leg.market_id);
    if (market === undefined) {
      throw notFound(
        `legs[${i}]: market_id ${leg.market_id} is not an outright market of tournament '${tournamentId}'`,
      );
    }
  } else if (leg.market !== undefined) {
    const wanted = leg.market.trim().toLowerCase();
    market = [...t.markets.values()].find((m) => m.market.toLowerCase() === wanted);
    if (market === undefined) throw notFound(`legs[${i}]: no market '${leg.market}' in tournament '${tournamentId}'`);
  } else {
    throw badRequest(`legs[${i}] needs market_id (or market) and selection_id (or outcome)`);
  }
  let selection: OutrightSelection | undefined;
  if (leg.selection_id !== undefined) {
    selection = market.selections.find((s) => s.selectionId === leg.selection_id);
    if (selection === undefined) {
      throw notFound(`legs[${i}]: selection_id ${leg.selection_id} is not in outright market ${market.marketId}`);
    }
  } else if (leg.outcome !== undefined) {
    const wanted = leg.outcome.trim().toLowerCase();
    selection = market.selections.find((s) => s.selection.toLowerCase() === wanted);
    if (selection === undefined) {
      throw notFound(`legs[${i}]: no selection '${leg.outcome}' in outright market ${market.marketId}`);
    }
  } else {
    throw badRequest(`legs[${i}] needs selection_id (or outcome)`);
  }
  const odds = leg.odds ?? selection.odds;
  const result = t.results.get(market.marketId);
  const settled = result === undefined ? null : selectionOutcome(result, selection.selectionId);
  const leg0: LegOutcome =
    settled === null
      ? { result: 'pending', odds }
      : {
          result: settled.result,
          odds,
          ...(settled.deadHeatFactor !== null ? { deadHeatFactor: settled.deadHeatFactor } : {}),
        };
  return {
    outcome: leg0,
    out: {
      tournament_id: tournamentId,
      market_id: market.marketId,
      selection_id: selection.selectionId,
      market: 'outright',
      market_name: market.market,
      outcome: selection.selection,
      result: leg0.result,
      odds,
      closing_odds: null,
      ...(leg0.deadHeatFactor !== undefined ? { dead_heat_factor: leg0.deadHeatFactor } : {}),
      reason: settled === null ? 'awaiting tournament result' : null,
      ...(explain
        ? {
            explanation:
              result === undefined ? null : explainOutright(result, selection.selectionId, selection.selection),
          }
        : {}),
    },
  };
}

export function betRoutes(ctx: ApiContext): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/v1/bets/check',
      {
        schema: {
          operationId: 'checkBet',
          tags: ['settlement'],
          summary: 'Check a single bet or a parlay: result per leg, combined odds and payout',
          description:
            'A leg names a match market (event_id + market_id/market + selection_id/outcome) or an outright market (tournament_id + market_id + selection_id); legs of both kinds mix in a parlay. A dead-heat winner pays stake x odds x dead_heat_factor for that leg.',
          querystring: Type.Object({ explain: ExplainParam }),
          body: BetCheckRequestSchema,
          response: { 200: BetCheckResponseSchema, ...errorsOf(400, 401, 404, 429, 503) },
        },
      },
      async (request) => {
        const { legs, stake } = request.body;
        const explain = request.query.explain === 'true';
        const headers = new Map<string, SettlementHeader>();
        const resolvedByEvent = new Map<string, ResolvedMarket[]>();
        const outLegs: LegAnswer[] = [];
        const outcomes: LegOutcome[] = [];
        for (const [i, leg] of legs.entries()) {
          if (leg.odds !== undefined && !(leg.odds >= 1 && leg.odds <= MAX_ODDS)) {
            throw badRequest(`legs[${i}].odds must be a decimal number from 1 to ${MAX_ODDS}, got ${leg.odds}`);
          }
          let checked: CheckedLeg;
          if (leg.event_id !== undefined && leg.tournament_id !== undefined) {
            throw badRequest(
              `legs[${i}] names both event_id and tournament_id: a leg is either a match bet (event_id) or an outright bet (tournament_id)`,
            );
          } else if (leg.event_id !== undefined) {
            checked = await eventLeg(ctx, leg, leg.event_id, i, resolvedByEvent, explain, headers);
          } else if (leg.tournament_id !== undefined) {
            checked = outrightLeg(ctx, leg, leg.tournament_id, i, explain);
          } else {
            throw badRequest(`legs[${i}] needs event_id (a match bet) or tournament_id (an outright bet)`);
          }
          outcomes.push(checked.outcome);
          outLegs.push(checked.out);
        }
        const check = checkBet(outcomes, stake ?? 1);
        // Only odds taken from the feed can get here (a client's are bounded by the schema).
        if (!isFiniteCheck(check)) {
          throw badRequest(
            'legs: the combined odds of these legs are too large to compute; check fewer legs at a time',
          );
        }
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
