// TypeBox schemas of discovery and operational resources: leagues, sports, scores, health, status, feed report.
import { Type } from 'typebox';
import { DecidedBySchema, ScoreSchema, StringEnum, WinnerSchema } from './common.js';
import { EventSportSchema, EventStatusSchema } from './events.js';

export const LeagueSchema = Type.Object(
  {
    slug: Type.String({ description: 'stable identifier, usable as the league filter' }),
    name: Type.String(),
    country: Type.String(),
    sport: EventSportSchema,
    active_events: Type.Integer({ description: 'live plus prematch events' }),
    live_events: Type.Integer(),
  },
  { $id: 'League' },
);

export const LeagueListSchema = Type.Object(
  { leagues: Type.Array(LeagueSchema), total: Type.Integer() },
  { $id: 'LeagueList' },
);

export const SportSchema = Type.Object(
  {
    key: Type.String(),
    name: Type.String(),
    sport_id: Type.Integer(),
    active_events: Type.Integer(),
    live_events: Type.Integer(),
    has_outrights: Type.Boolean(),
  },
  { $id: 'Sport' },
);

export const SportListSchema = Type.Object(
  { sports: Type.Array(SportSchema), total: Type.Integer() },
  { $id: 'SportList' },
);

export const LiveScoreSchema = Type.Object(
  {
    id: Type.String(),
    home_team: Type.String(),
    away_team: Type.String(),
    score: ScoreSchema,
    status: EventStatusSchema,
    clock: Type.String({ description: '"" for sports without a clock' }),
    period: Type.String(),
    sport: Type.String({ description: 'sport key' }),
    winner: WinnerSchema,
    decided_by: DecidedBySchema,
  },
  { $id: 'LiveScore' },
);

export const ScoreListSchema = Type.Object(
  { scores: Type.Array(LiveScoreSchema), total: Type.Integer() },
  { $id: 'ScoreList' },
);

export const HealthSchema = Type.Object(
  {
    status: StringEnum(['healthy', 'degraded'] as const, {
      description: 'healthy, or degraded (HTTP 503) when a component fails',
    }),
    component: Type.Optional(
      StringEnum(['datastore', 'usage_counters', 'data_pipeline'] as const, {
        description: 'when degraded: the failing part, as `component` names it on a 503 error',
      }),
    ),
    version: Type.String(),
    uptime_seconds: Type.Integer(),
    timestamp: Type.String({ format: 'date-time' }),
    services: Type.Object({
      datastore: Type.Object({
        status: StringEnum(['connected', 'read_only', 'disconnected'] as const, {
          description:
            'connected; read_only when writes fail (disk full) but reads work; disconnected when it does not answer',
        }),
        latency_ms: Type.Integer(),
      }),
      data_pipeline: Type.Object({
        status: StringEnum(['active', 'stale'] as const, {
          description: 'active, or stale when live events stopped changing',
        }),
        last_update_seconds_ago: Type.Integer(),
        total_events: Type.Integer(),
        upstream: Type.Optional(
          Type.Object(
            {
              provider: Type.String(),
              state: StringEnum(['starting', 'ok', 'backing_off', 'unauthorized', 'budget_exhausted'] as const),
              last_success_seconds_ago: Type.Union([Type.Integer(), Type.Null()]),
              next_poll_seconds: Type.Union([Type.Integer(), Type.Null()]),
              monthly_budget: Type.Integer(),
              credits_used_this_month: Type.Integer(),
              credits_left: Type.Integer(),
              provider_remaining: Type.Union([Type.Integer(), Type.Null()]),
            },
            { description: 'FEED=the-odds-api: how fresh the upstream data is and what the monthly budget allows' },
          ),
        ),
      }),
      usage_counters: Type.Optional(
        Type.Object({
          status: StringEnum(['connected', 'disconnected'] as const, {
            description: 'scaled out (REDIS_URL): the shared usage counters',
          }),
        }),
      ),
    }),
  },
  { $id: 'Health' },
);

export const StatusSchema = Type.Object(
  {
    status: StringEnum(['operational', 'starting'] as const, {
      description: 'starting while the world is still loading',
    }),
    version: Type.String(),
    data_freshness_ms: Type.Integer(),
    active_sports: Type.Integer(),
    live_events: Type.Integer(),
    prematch_events: Type.Integer(),
    world_time: Type.String({
      format: 'date-time',
      description:
        "the world's now: every time in a response is on this clock (the wall clock unless a simulator runs faster)",
    }),
    world_speed: Type.Number({
      description: 'world seconds per real second (1 on the wall clock; SIM_SPEED for the simulator)',
    }),
  },
  { $id: 'Status' },
);

export const ProbeSchema = Type.Object(
  {
    status: StringEnum(['ok', 'ready', 'loading', 'not_ready', 'standby'] as const, {
      description: 'livez: ok; readyz: ready, or (503) loading, not_ready, standby',
    }),
  },
  { $id: 'Probe' },
);

export const FeedReportSchema = Type.Object(
  {
    accepted: Type.Integer(),
    rejected: Type.Integer(),
    errors: Type.Array(
      Type.Object(
        {
          line: Type.Integer(),
          error: Type.String({ description: 'machine code (bad_request, not_found, service_unavailable…)' }),
          message: Type.String(),
          /** The failing part when a line was refused with `service_unavailable` (e.g. `datastore`). */
          component: Type.Optional(Type.String()),
          /** Present (true) when the line was refused for a transient reason: send it again later, in order. */
          retryable: Type.Optional(Type.Literal(true)),
        },
        { $id: 'FeedLineError' },
      ),
    ),
  },
  { $id: 'FeedReport' },
);
