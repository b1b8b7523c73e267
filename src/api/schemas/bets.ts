// TypeBox schemas of POST /v1/bets/check: the bet (single or parlay legs) and the answer per leg.
import { Type } from 'typebox';
import { MAX_LEGS, MAX_ODDS, MAX_STAKE } from '../../domain/bet-check.js';
import { StringEnum } from './common.js';
import { ExplanationSchema } from './settlements.js';

export const BET_RESULTS = ['won', 'lost', 'refund', 'pending'] as const;

export const BetLegSchema = Type.Object(
  {
    event_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'a match bet: the event' })),
    tournament_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'an outright bet: the tournament (instead of event_id), with market_id and selection_id',
      }),
    ),
    market_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    selection_id: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
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
      Type.Number({
        minimum: 1,
        maximum: MAX_ODDS,
        description: `decimal odds the bet was taken at (1 to ${MAX_ODDS}); default: the last known odds`,
      }),
    ),
  },
  { $id: 'BetLeg' },
);

export const BetCheckRequestSchema = Type.Object(
  {
    legs: Type.Array(BetLegSchema, {
      minItems: 1,
      maxItems: MAX_LEGS,
      description:
        '1 leg = single, 2-20 = parlay; each leg names event_id (a match market) or tournament_id (an outright market), not both',
    }),
    stake: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: MAX_STAKE, description: `> 0 and <= ${MAX_STAKE}` }),
    ),
  },
  { $id: 'BetCheckRequest' },
);

export const BetLegResultSchema = Type.Object(
  {
    event_id: Type.Optional(Type.String({ description: 'on a match leg' })),
    tournament_id: Type.Optional(Type.String({ description: 'on an outright leg' })),
    market_id: Type.Integer(),
    selection_id: Type.Integer(),
    market: Type.String({ description: 'key of the market matched; `outright` on an outright leg' }),
    market_name: Type.String(),
    outcome: Type.String({ description: 'label of the selection matched' }),
    result: StringEnum(BET_RESULTS, { description: 'pending until the market is settled' }),
    odds: Type.Number(),
    closing_odds: Type.Union([Type.Number(), Type.Null()], {
      description:
        "the selection's last prematch price (decimal) once the event went live: odds / closing_odds - 1 is the bet's closing-line value; null on outright legs, before kick-off, for a market added live",
    }),
    void_factor: Type.Optional(Type.Number()),
    dead_heat_factor: Type.Optional(
      Type.Number({ description: 'a dead-heat winner of an outright: share of the stake paid at the odds' }),
    ),
    reason: Type.Union([Type.String(), Type.Null()]),
    explanation: Type.Optional(
      Type.Union([ExplanationSchema, Type.Null()], {
        description: 'with explain=true: why the leg settled so (null while pending)',
      }),
    ),
  },
  { $id: 'BetLegResult' },
);

export const BetCheckResponseSchema = Type.Object(
  {
    status: StringEnum(BET_RESULTS, { description: 'of the whole bet' }),
    legs: Type.Array(BetLegResultSchema),
    combined_odds: Type.Number(),
    stake: Type.Optional(Type.Number()),
    payout: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  },
  { $id: 'BetCheckResponse' },
);
