// TypeBox schema of the settlement feed: entries with resolved markets and the paging envelope.
import { Type } from 'typebox';
import { OddsValueSchema, ScoreSchema, StringEnum } from './common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** Why an outcome was graded so (docs/settlement.md "Why an outcome was graded so"). */
export const ExplanationSchema = Type.Object(
  {
    text: Type.String({ description: 'one plain sentence' }),
    score: Nullable(ScoreSchema),
    scope: Nullable(
      Type.String({
        description:
          'the periods graded: regulation, full_game (overtime included), full_game_shootout (ice hockey *_ot lines: overtime included, the shoot-out one goal for its winner), games, sets, maps, frames, rounds, or a period key (1h, p1, q3, s2…); null when a stat or nothing was read',
      }),
    ),
    line: Nullable(
      Type.Number({
        description: 'the line as this outcome holds it (the away side of a handicap holds the opposite)',
      }),
    ),
    rule: Type.String({
      description:
        'result, handicap, handicap_quarter, handicap_push, total, total_quarter, total_push, draw_refund, decider, tie_refund, period_not_played, abandoned_refund, abandoned_decided, retirement, walkover, esports_forfeit, cancelled, refund_48h, stats_timeout, did_not_play, ungradeable, as_settled; outrights: outright_winner, outright_dead_heat, outright_loser, outright_void',
    }),
    void_factor: Nullable(Type.Number({ description: 'refunded share of a half-won or half-lost outcome' })),
    dead_heat_factor: Nullable(Type.Number({ description: 'share of the win paid to a dead-heat winner' })),
    stat: Nullable(
      Type.Object(
        {
          name: Type.String(),
          player_id: Nullable(Type.String()),
          value: Type.Number(),
        },
        { description: "the counter graded on: a player prop's stat, the rounds of a fight" },
      ),
    ),
    winner: Nullable(
      StringEnum(['home', 'away'] as const, {
        description: 'the side a decider (shoot-out, penalties) or a policy (retirement, walkover, forfeit) gave it to',
      }),
    ),
    half_time_score: Nullable(ScoreSchema),
    result_revision: Nullable(
      Type.Integer({ description: 'revision of the result graded on (above 1 after a correction)' }),
    ),
  },
  { $id: 'SettlementExplanation' },
);

const outcomeFields = {
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
  void_factor: Type.Optional(Type.Number({ description: 'refunded share of a half-won or half-lost outcome (0.5)' })),
};

export const ResolvedMarketSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  market_id: Nullable(Type.Integer()),
  outcomes: Type.Array(
    Type.Object({
      ...outcomeFields,
      explanation: Type.Optional(Type.Union([ExplanationSchema], { description: 'with explain=true' })),
    }),
  ),
});

/** A resolved market whose every outcome says why (GET /v1/events/{id}/settlement). */
export const ExplainedMarketSchema = Type.Object({
  key: Type.String(),
  name: Type.String(),
  market_id: Nullable(Type.Integer()),
  outcomes: Type.Array(Type.Object({ ...outcomeFields, explanation: ExplanationSchema })),
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

/** GET /v1/events/{id}/settlement: the event's entry with every outcome explained, or `pending` before its first market resolves. */
export const EventSettlementSchema = Type.Object({
  event_id: Type.String(),
  home_team: Type.String(),
  away_team: Type.String(),
  home_logo: Type.String({ format: 'uri' }),
  away_logo: Type.String({ format: 'uri' }),
  final_score: Nullable(ScoreSchema),
  sport: Type.String(),
  league: Type.String(),
  country: Type.String(),
  start_time: Type.String({ format: 'date-time' }),
  ended_at: Nullable(Type.String({ format: 'date-time' })),
  status: StringEnum(['settled', 'pending'] as const, {
    description: 'settled once a market is resolved; pending before (resolved_markets is then empty)',
  }),
  settlement_status: StringEnum(['settled', 'pending'] as const, { description: 'the same as status' }),
  resolved_markets: Type.Array(ExplainedMarketSchema),
  resolved_markets_count: Type.Integer(),
  total_markets_count: Type.Integer(),
  pending_markets_count: Type.Integer(),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  revision: Type.Integer({ description: 'the entry revision (0 while pending)' }),
});
