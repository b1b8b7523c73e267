// TypeBox schema of the settlement feed: entries with resolved markets and the paging envelope.
import { Type } from 'typebox';
import { OddsValueSchema, ScoreSchema } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ResolvedMarketSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  market_id: Nullable(Type.Integer()),
  outcomes: Type.Array(
    Type.Object({
      label: Type.String(),
      result: Type.String({ description: 'won, lost or refund' }),
      selection_id: Nullable(Type.Integer()),
      code: Type.Union([Type.String(), Type.Null()], {
        description:
          "the outcome's canonical code (home, draw, away, over, 2-1…), as in the odds payload (null on entries settled before codes were kept)",
      }),
      team_side: Type.Union([Type.Literal('home'), Type.Literal('away'), Type.Null()], {
        description: 'the team the outcome backs, as in the odds payload (null for none, and on older entries)',
      }),
      opening_odds: Type.Union([OddsValueSchema], {
        description: 'the first price of the selection (null on entries settled before prices were kept)',
      }),
      closing_odds: Type.Union([OddsValueSchema], {
        description:
          'its last prematch price (null for a market first offered live, or an event first priced after its start)',
      }),
      last_odds: Type.Union([OddsValueSchema], {
        description:
          'its last price before the event ended, what a bet check without odds uses (null on entries settled before it was kept)',
      }),
      void_factor: Type.Optional(
        Type.Number({ description: 'refunded share of a half-won or half-lost outcome (0.5)' }),
      ),
    }),
  ),
});

export const SettlementEntrySchema = Type.Object({
  event_id: Type.String(),
  home_team: Type.String(),
  away_team: Type.String(),
  home_logo: Type.String({ format: 'uri' }),
  away_logo: Type.String({ format: 'uri' }),
  final_score: ScoreSchema,
  sport: Nullable(Type.String()),
  league: Nullable(Type.String()),
  country: Nullable(Type.String()),
  start_time: Nullable(Type.String({ format: 'date-time' })),
  ended_at: Type.String({ format: 'date-time' }),
  status: Type.Literal('settled', { description: 'always settled: an entry exists once a market is resolved' }),
  settlement_status: Type.Literal('settled', {
    description: 'always settled: an entry exists once a market is resolved',
  }),
  resolved_markets: Type.Array(ResolvedMarketSchema),
  resolved_markets_count: Type.Integer(),
  total_markets_count: Nullable(Type.Integer()),
  pending_markets_count: Nullable(Type.Integer()),
  updated_at: Type.String({ format: 'date-time' }),
  revision: Type.Integer(),
});

export const SettlementFeedSchema = Type.Object({
  settlements: Type.Array(SettlementEntrySchema),
  total: Type.Integer(),
  fully_settled: Type.Integer(),
  score_only: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
  next_cursor: Nullable(Type.String()),
  applied_filters: Type.Object({
    event_ids_count: Type.Integer(),
    using_cursor: Type.Boolean(),
    updated_since: Type.Optional(Type.String({ description: 'the updated_since parameter, as given' })),
  }),
});
