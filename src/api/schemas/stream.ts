// TypeBox schemas of the stream's events (GET /v1/stream): one `data` schema per SSE event name.
import { Type, type TSchema } from 'typebox';
import {
  DecidedBySchema,
  OddsValueSchema,
  PeriodScoreSchema,
  ScoreSchema,
  StringEnum,
  WinnerSchema,
} from './common.js';
import { EventLeagueSchema, EventStatusSchema, MarketSchema, RESULT_STATUSES, ScoreboardSchema } from './events.js';
import { OutrightSelectionSchema } from './outrights.js';
import { ResolvedMarketSchema } from './settlements.js';

/** Members a snapshot event or a conflated odds event adds to its data. */
const snapshotFlag = Type.Optional(
  Type.Literal(true, { description: 'present on the events of a snapshot (snapshot=true)' }),
);

export const StreamOddsChangeSchema = Type.Object(
  {
    market_id: Type.Integer(),
    selection_id: Type.Integer(),
    odds: OddsValueSchema,
    is_locked: Type.Boolean(),
  },
  { $id: 'StreamOddsChange' },
);

export const StreamOddsEventSchema = Type.Object(
  {
    event_id: Type.String(),
    changes: Type.Array(StreamOddsChangeSchema),
    conflated: Type.Optional(
      Type.Literal(true, { description: "merged for a slow client: every held selection's latest price" }),
    ),
  },
  { $id: 'StreamOddsEvent', description: '`event: odds`: prices or locks moved' },
);

export const StreamMarketsEventSchema = Type.Object(
  {
    event_id: Type.String(),
    added: Type.Array(MarketSchema, { description: 'markets added or changed, as in the odds payload' }),
    withdrawn: Type.Array(Type.Integer(), { description: 'market ids withdrawn' }),
    snapshot: snapshotFlag,
  },
  { $id: 'StreamMarketsEvent', description: '`event: markets`: markets added, changed or withdrawn' },
);

export const StreamStatusEventSchema = Type.Object(
  {
    event_id: Type.String(),
    sport: Type.String({ description: 'sport key' }),
    league: EventLeagueSchema,
    home_team: Type.String(),
    away_team: Type.String(),
    start_time: Type.String({ format: 'date-time' }),
    status: EventStatusSchema,
    is_locked: Type.Boolean({ description: 'every selection of the event is locked' }),
    lock_reason: Type.Union([
      StringEnum(['suspended', 'interrupted', 'postponed', 'stale_feed'] as const),
      Type.Null(),
    ]),
    updated_at: Type.String({ format: 'date-time' }),
    snapshot: snapshotFlag,
  },
  {
    $id: 'StreamStatusEvent',
    description: '`event: status`: a new event, new fixture facts, a new status, or a lock of the whole event',
  },
);

export const StreamScoreEventSchema = Type.Object(
  {
    event_id: Type.String(),
    status: EventStatusSchema,
    score: ScoreSchema,
    clock: Type.Union([Type.String(), Type.Null()]),
    period: Type.String(),
    period_scores: Type.Array(PeriodScoreSchema),
    sport_data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    scoreboard: Type.Union([ScoreboardSchema, Type.Null()]),
    updated_at: Type.String({ format: 'date-time' }),
    snapshot: snapshotFlag,
  },
  { $id: 'StreamScoreEvent', description: '`event: score`: score, clock, period, period scores, sport data' },
);

export const StreamResultEventSchema = Type.Object(
  {
    event_id: Type.String(),
    status: StringEnum(RESULT_STATUSES),
    score: ScoreSchema,
    period_scores: Type.Array(PeriodScoreSchema),
    winner: WinnerSchema,
    decided_by: DecidedBySchema,
    ended_at: Type.String({ format: 'date-time' }),
    revision: Type.Integer(),
  },
  { $id: 'StreamResultEvent', description: '`event: result`: a result or final status was recorded (or corrected)' },
);

export const StreamSettlementEventSchema = Type.Object(
  {
    event_id: Type.String(),
    revision: Type.Integer(),
    resolved_markets_count: Type.Integer(),
    total_markets_count: Type.Integer(),
    pending_markets_count: Type.Integer(),
    settled: Type.Boolean({ description: 'no market pending' }),
    correction: Type.Boolean({ description: 'a revised result re-graded every market' }),
    resolved_markets: Type.Array(ResolvedMarketSchema, { description: 'the markets resolved by this batch' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'StreamSettlementEvent', description: '`event: settlement`: a settlement batch committed' },
);

export const StreamOutrightMarketSchema = Type.Object(
  {
    market_id: Type.Integer(),
    market: Type.String(),
    selections: Type.Array(OutrightSelectionSchema),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'StreamOutrightMarket' },
);

export const StreamOutrightResultSchema = Type.Object(
  {
    market_id: Type.Integer(),
    void: Type.Boolean(),
    winners: Type.Array(
      Type.Object({
        selection_id: Type.Integer(),
        dead_heat_factor: Type.Union([Type.Number(), Type.Null()], { description: 'null for a whole win' }),
      }),
      { description: 'empty when the market is void' },
    ),
    settled_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'StreamOutrightResult' },
);

export const StreamOutrightEventSchema = Type.Object(
  {
    tournament_id: Type.String(),
    tournament: Type.String(),
    sport: Type.String({ description: 'sport key' }),
    change: StringEnum(['tournament', 'market', 'result'] as const),
    market: Type.Union([StreamOutrightMarketSchema, Type.Null()]),
    result: Type.Union([StreamOutrightResultSchema, Type.Null()]),
    snapshot: snapshotFlag,
  },
  {
    $id: 'StreamOutrightEvent',
    description: "`event: outright`: a tournament, an outright market's prices, or its result",
  },
);

export const StreamHeartbeatSchema = Type.Object(
  {
    position: Type.String({ description: "the log's position (an id, ms-seq)" }),
    time: Type.String({ format: 'date-time', description: "the world's time" }),
  },
  { $id: 'StreamHeartbeat', description: '`event: heartbeat`: every 15 s, without an id' },
);

export const StreamSnapshotRequiredSchema = Type.Object(
  {
    reason: StringEnum(['unknown', 'expired', 'reset', 'lost', 'unavailable', 'snapshot_incomplete'] as const),
    last_event_id: Type.Union([Type.String(), Type.Null()]),
    position: Type.String({ description: 'the current position, from which the stream continues' }),
  },
  {
    $id: 'StreamSnapshotRequired',
    description: '`event: snapshot_required`: a resume the service cannot serve exactly; reload the state',
  },
);

export const StreamCloseSchema = Type.Object(
  {
    reason: StringEnum(['too_slow', 'quota_exhausted', 'shutting_down'] as const),
    message: Type.String(),
  },
  { $id: 'StreamClose', description: '`event: close`: the service ends the stream' },
);

/** Every SSE event name, the component name of its `data` and its schema, in the order of docs/streaming.md. */
export const STREAM_EVENTS: ReadonlyArray<readonly [event: string, component: string, schema: TSchema]> = [
  ['odds', 'StreamOddsEvent', StreamOddsEventSchema],
  ['markets', 'StreamMarketsEvent', StreamMarketsEventSchema],
  ['status', 'StreamStatusEvent', StreamStatusEventSchema],
  ['score', 'StreamScoreEvent', StreamScoreEventSchema],
  ['result', 'StreamResultEvent', StreamResultEventSchema],
  ['settlement', 'StreamSettlementEvent', StreamSettlementEventSchema],
  ['outright', 'StreamOutrightEvent', StreamOutrightEventSchema],
  ['heartbeat', 'StreamHeartbeat', StreamHeartbeatSchema],
  ['snapshot_required', 'StreamSnapshotRequired', StreamSnapshotRequiredSchema],
  ['close', 'StreamClose', StreamCloseSchema],
];
