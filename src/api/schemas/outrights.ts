// TypeBox schemas of outrights: the futures listing, the sports that have outrights and the outright settlement feed.
import { Type } from 'typebox';
import { OddsValueSchema, StringEnum } from './common.js';
import { ExplanationSchema } from './settlements.js';

export const OutrightSelectionSchema = Type.Object(
  { selection_id: Type.Integer(), selection: Type.String(), odds: OddsValueSchema },
  { $id: 'OutrightSelection' },
);

export const OutrightMarketSchema = Type.Object(
  { market_id: Type.Integer(), market: Type.String(), selections: Type.Array(OutrightSelectionSchema) },
  { $id: 'OutrightMarket' },
);

export const OutrightTournamentSchema = Type.Object(
  {
    tournament_id: Type.String(),
    tournament: Type.String(),
    sport: Type.String({ description: 'sport key (tennis, soccer…)' }),
    sport_id: Type.Integer(),
    markets: Type.Array(OutrightMarketSchema, { description: 'open (unsettled) markets, by market_id' }),
  },
  { $id: 'OutrightTournament' },
);

export const OutrightListSchema = Type.Object(
  {
    tournaments: Type.Array(OutrightTournamentSchema),
    total: Type.Integer({ description: 'tournaments listed' }),
  },
  { $id: 'OutrightList' },
);

export const OutrightSportSchema = Type.Object(
  {
    sport_id: Type.Integer({ description: 'use as sport_id of GET /v1/outrights' }),
    name: Type.String(),
    tournament_count: Type.Integer({ description: 'tournaments with at least one open market' }),
  },
  { $id: 'OutrightSport' },
);

export const OutrightSportListSchema = Type.Object(
  { sports: Type.Array(OutrightSportSchema), total: Type.Integer() },
  { $id: 'OutrightSportList' },
);

export const OUTRIGHT_RESULTS = ['won', 'lost', 'refund'] as const;

export const OutrightSettlementEntrySchema = Type.Object(
  {
    entry_id: Type.String({ description: 'tournament_id:market_id:selection_id:result' }),
    tournament_id: Type.String(),
    tournament: Type.String(),
    market_id: Type.Integer(),
    market: Type.String(),
    selection_id: Type.Integer(),
    selection: Type.String(),
    result: StringEnum(OUTRIGHT_RESULTS, { description: 'won, lost, or refund (void market)' }),
    dead_heat_factor: Type.Optional(
      Type.Number({ description: 'share of the stake paid at full odds, on a winner of a dead heat (0.5)' }),
    ),
    settled_at: Type.String({ format: 'date-time' }),
    sport: Type.String({ description: 'sport key' }),
    explanation: Type.Optional(
      Type.Union([ExplanationSchema], { description: 'with explain=true: why the selection settled so' }),
    ),
  },
  { $id: 'OutrightSettlementEntry' },
);

export const OutrightSettlementFeedSchema = Type.Object(
  {
    outright_settlements: Type.Array(OutrightSettlementEntrySchema),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    applied_filters: Type.Object({ tournament_ids_count: Type.Integer(), using_cursor: Type.Boolean() }),
  },
  { $id: 'OutrightSettlementPage' },
);
